"""Check the ledger against itself and the cash tables against the ledger.

``ledger_audit`` returns every discrepancy it finds, as sentences (none: the
ledger is sound).  ``manage.py audit_ledger`` prints them, and the tests
run it after every step.  It checks that

- each account's entries, in order, run from 0 to its balance, each
  entry's ``balance_after`` being the running sum;
- no balance is below zero except where allowed;
- each transfer has two or more entries summing to zero in each unit;
- the balances of each unit sum to zero (the whole ledger);
- each cash table's escrow equals the chips on it (stacks as each hand
  began, plus queued top-ups), from a replay of its stream (a tournament
  table holds tournament chips, no one's cash: it is left out).
"""

from __future__ import annotations

from collections import defaultdict

from django.db import connections, transaction
from django.db.models import Count, Sum

from accounts import ledger
from accounts.models import Account, Entry
from accounts.tables import table_chips
from poker.engine.table import replay_table
from poker.eventstore import load
from poker.models import Table
from poker.streams import decode_table


def ledger_audit(*, using: str = "default") -> list[str]:
    """Every discrepancy in the ledger and the tables (empty: all sound).

    Outside a transaction it reads one snapshot (REPEATABLE READ on
    PostgreSQL), so transfers committed meanwhile cannot look like a gap.
    """
    connection = connections[using]
    outermost = not connection.in_atomic_block
    with transaction.atomic(using=using):
        if outermost and connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
        return [
            *_account_problems(using),
            *_transfer_problems(using),
            *_unit_problems(using),
            *_table_problems(using),
        ]


def _account_problems(using: str) -> list[str]:
    problems = []
    running: dict[int, int] = defaultdict(int)
    rows = Entry.objects.using(using).order_by("account_id", "id")
    for entry_id, account_id, amount, after in rows.values_list(
        "id", "account_id", "amount", "balance_after"
    ).iterator(chunk_size=5000):
        running[account_id] += amount
        if after != running[account_id]:
            problems.append(
                f"entry {entry_id}: balance_after {after}, the entries sum to {running[account_id]}"
            )
    for account in Account.objects.using(using).order_by("id"):
        total = running.get(account.pk, 0)
        if account.balance != total:
            problems.append(f"account {account.key}: balance {account.balance}, entries {total}")
        if account.balance < 0 and not account.may_go_negative:
            problems.append(f"account {account.key}: balance {account.balance} below zero")
    return problems


def _transfer_problems(using: str) -> list[str]:
    problems = []
    sizes = Entry.objects.using(using).values("transfer_id").annotate(n=Count("id"))
    for row in sizes.filter(n__lt=2):
        problems.append(f"transfer {row['transfer_id']}: only {row['n']} entry")
    sums = (
        Entry.objects.using(using)
        .values("transfer_id", "account__unit")
        .annotate(total=Sum("amount"))
        .exclude(total=0)
    )
    for row in sums:
        problems.append(
            f"transfer {row['transfer_id']}: {row['account__unit']} entries sum to {row['total']}"
        )
    return problems


def _unit_problems(using: str) -> list[str]:
    totals = Account.objects.using(using).values("unit").annotate(total=Sum("balance"))
    return [
        f"unit {row['unit']}: balances sum to {row['total']}, not 0"
        for row in totals.exclude(total=0)
    ]


def _table_problems(using: str) -> list[str]:
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
