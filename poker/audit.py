"""The cash tables in the ledger's audit (``accounts.audit``): a table's
chips always equal its escrow, and the house's rake account holds the rake
every table's hands took (RULES.md 8)."""

from __future__ import annotations

from accounts import ledger
from accounts.models import Account
from accounts.tables import table_chips
from kernel.eventstore import load
from poker.engine.table import replay_table
from poker.models import Table
from poker.streams import decode_table


def table_problems(using: str) -> list[str]:
    """Each cash table's escrow against the chips on it (stacks as each hand
    began, plus queued top-ups), from a replay of its stream; escrow held
    for no table.  A tournament table holds tournament chips, no one's
    cash: it is left out."""
    problems = []
    escrow = {
        int(a.ref): a.balance for a in Account.objects.using(using).filter(kind=Account.Kind.TABLE)
    }
    raked = 0
    cash_tables = Table.objects.using(using).filter(tournament__isnull=True)
    for table in cash_tables.order_by("id"):
        events = [decode_table(row) for row in load(table.stream, using=using)]
        state = replay_table(events) if events else None
        chips = 0 if state is None else table_chips(state)
        raked += 0 if state is None else state.raked
        held = escrow.pop(table.pk, 0)
        if held != chips:
            problems.append(f"table {table.pk}: {chips} chips on it, escrow {held}")
    for table_id, held in escrow.items():
        if held:
            problems.append(f"{ledger.table(table_id).key}: escrow {held} for no table")
    rake = Account.objects.using(using).filter(key=ledger.rake().key).first()
    held = 0 if rake is None else rake.balance
    if held != raked:
        problems.append(f"{ledger.rake().key}: {held} chips, the tables' hands raked {raked}")
    return problems
