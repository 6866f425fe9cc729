"""Reports for the room's staff: the house's money, the tables' and
tournaments' activity, each player's play.

The top layer: it reads the ledger (accounts), the event store and read
models of the cash tables (poker) and of the tournaments, and writes
nothing.  Each report is one selector (``reports.money``,
``reports.activity``, ``reports.players``) that aggregates in SQL over a
period of days (``reports.period``); ``reports.catalog`` lists them once
for the REST API (``reports.api``, JSON or CSV) and the admin's pages
(``reports.admin``).  Which ledger movements are the house's income, and
which are money coming in and out of the room, is declared in one place:
``reports.sources``.
"""
