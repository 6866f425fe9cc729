"""Bets racing for the bankroll's cover over real database connections: the
bankroll's row lock, taken by every bet, lets only as many boxes open as it
can pay, whichever tables they are at (PostgreSQL: ``pg_default``)."""

from __future__ import annotations

import uuid
from functools import partial

import pytest

from accounts import money
from accounts.audit import ledger_audit
from casino import services
from poker.engine.casino import CasinoRules
from poker.engine.casino.table.cover import exposure
from tests.poker.concurrency import race

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.postgres]

REPEATS = 8


def test_two_bets_at_two_tables_racing_for_one_boxs_cover_open_one_box(
    pg_default, make_user, staff
):
    players = [make_user(f"p{n}") for n in range(4 * REPEATS)]
    for n in range(REPEATS):
        money.bankroll_fund(transfer_id=uuid.uuid4(), amount=exposure(10, CasinoRules()))
        a, b, wait_a, wait_b = players[4 * n : 4 * n + 4]
        tables = []
        for bettor, waiter in ((a, wait_a), (b, wait_b)):
            table = services.casino_table_open(by=staff, name=f"R{n}").pk
            services.casino_sit(by=bettor, table_id=table, box=1)
            services.casino_sit(by=waiter, table_id=table, box=2)  # the round waits for him
            tables.append(table)
        outcomes = race(
            partial(services.casino_bet, by=a, table_id=tables[0], amount=10),
            partial(services.casino_bet, by=b, table_id=tables[1], amount=10),
        )
        assert sorted(str(o.code) for o in outcomes) == ["None", "bankroll_short"], outcomes
    assert ledger_audit() == []
