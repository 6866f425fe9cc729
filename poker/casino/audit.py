"""The casino tables in the ledger's audit (``accounts.audit``): each table's
round account holds exactly its open bets, and the bankroll covers the
largest win of every open box."""

from __future__ import annotations

from accounts import ledger
from accounts.models import Account
from kernel.eventstore import load
from poker.casino.house import exposure_open
from poker.casino.models import CasinoTable
from poker.casino.streams import decode_table
from poker.engine.casino.table import replay_table


def casino_problems(using: str) -> list[str]:
    """Each casino table's round account against its open bets (from a
    replay of its stream), money held for no table, and the bankroll
    against the open boxes' exposure."""
    problems = []
    held = {
        int(a.ref): a.balance for a in Account.objects.using(using).filter(kind=Account.Kind.CASINO)
    }
    for table in CasinoTable.objects.using(using).order_by("id"):
        events = [decode_table(row) for row in load(table.stream, using=using)]
        bets = replay_table(events).held if events else 0
        account = held.pop(table.pk, 0)
        if account != bets:
            problems.append(f"casino table {table.pk}: {bets} chips in its bets, account {account}")
    for table_id, amount in held.items():
        if amount:
            problems.append(f"{ledger.casino(table_id).key}: {amount} for no casino table")
    bankroll = Account.objects.using(using).filter(kind=Account.Kind.BANKROLL).first()
    balance = bankroll.balance if bankroll is not None else 0
    exposure = exposure_open(using=using)
    if balance < exposure:
        problems.append(f"bankroll {balance} does not cover the open boxes' exposure {exposure}")
    return problems
