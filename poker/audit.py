"""The cash tables in the ledger's audit (``accounts.audit``): a table's
chips always equal its escrow."""

from __future__ import annotations

from accounts import ledger
from accounts.models import Account
from accounts.tables import table_chips
from poker.engine.table import replay_table
from poker.eventstore import load
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
    cash_tables = Table.objects.using(using).filter(tournament__isnull=True)
    for table in cash_tables.order_by("id"):
        events = [decode_table(row) for row in load(table.stream, using=using)]
        chips = table_chips(replay_table(events)) if events else 0
        held = escrow.pop(table.pk, 0)
        if held != chips:
            problems.append(f"table {table.pk}: {chips} chips on it, escrow {held}")
    for table_id, held in escrow.items():
        if held:
            problems.append(f"{ledger.table(table_id).key}: escrow {held} for no table")
    return problems
