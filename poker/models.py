"""Cash-table models: Table, Seat, Hand, the append-only Event and read models.

None yet: they arrive with the event store (see shared/ARCHITECTURE.md).
"""
