"""Check the ledger against itself and the cash tables against the ledger.

``ledger_audit`` returns every discrepancy it finds, as sentences (none: the
ledger is sound).  ``manage.py audit_ledger`` prints them, and the tests
run it after every step.  It checks that

- each account's entries, in order, run from 0 to its balance, each
  entry's ``balance_after`` being the running sum;
- no balance is below zero except where allowed;
- each transfer has two or more entries summing to zero in each unit;
- the balances of each unit sum to zero (the whole ledger);
- and whatever the apps above answer to ``audit_requested`` (a signal
  each connects in its ``AppConfig.ready``): poker checks that each cash
  table's escrow equals the chips on it, the casino its tables' rounds
  and its bankroll.
"""

from __future__ import annotations

from collections import defaultdict
from typing import cast

from django.db.models import Count, Sum
from django.dispatch import Signal

from accounts.models import Account, Entry
from kernel.snapshots import one_snapshot

audit_requested = Signal()
"""Sent with ``using`` (a database alias) by every audit: each receiver, an
app's check of money it holds against the ledger, answers the
discrepancies it finds as sentences.  The ledger sits below the apps whose
money it holds and imports none of them."""


def ledger_audit(*, using: str = "default") -> list[str]:
    """Every discrepancy in the ledger and the apps' checks (empty: all
    sound).

    Outside a transaction it reads one snapshot (``one_snapshot``), so
    transfers committed meanwhile cannot look like a gap.
    """
    with one_snapshot(using):
        return [
            *_account_problems(using),
            *_transfer_problems(using),
            *_unit_problems(using),
            *(
                problem
                for _, problems in audit_requested.send(sender=None, using=using)
                for problem in cast(list[str], problems)
            ),
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
    sizes = Entry.objects.using(using).values("transfer_id").annotate(n=Count("id"))
    sums = (
        Entry.objects.using(using)
        .values("transfer_id", "account__unit")
        .annotate(total=Sum("amount"))
        .exclude(total=0)
    )
    return [
        *(f"transfer {row['transfer_id']}: only {row['n']} entry" for row in sizes.filter(n__lt=2)),
        *(
            f"transfer {r['transfer_id']}: {r['account__unit']} entries sum to {r['total']}"
            for r in sums
        ),
    ]


def _unit_problems(using: str) -> list[str]:
    totals = Account.objects.using(using).values("unit").annotate(total=Sum("balance"))
    return [
        f"unit {row['unit']}: balances sum to {row['total']}, not 0"
        for row in totals.exclude(total=0)
    ]
