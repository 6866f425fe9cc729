"""Random sequences of operations keep the ledger sound, one at a time and
concurrently.

After every step (or every round of concurrent operations): each balance
equals its entries, every transfer and the whole ledger sum to zero, no
balance is below zero, the chips on every table equal its escrow, and the
money in the room is exactly what was deposited less what was withdrawn.
Done one at a time, a refused operation or a retried transfer id changes
nothing at all.

Concurrent rounds run each operation on its own thread and database
connection: the ledger-only ones on the ``postgres`` alias, the table ones
on ``default``, which must be PostgreSQL for the table and account locks
to mean anything (as in CI).
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import event as tally
from hypothesis import strategies as st

from accounts import ledger
from accounts.selectors import account_balance
from poker.models import Table
from tests.accounts.operations import (
    ACT,
    ALL_OPERATIONS,
    CASHIER,
    LEDGER_OPERATIONS,
    SEAT_OPERATIONS,
    TABLE_OPERATIONS,
    TABLES,
    World,
)
from tests.poker.concurrency import race

SETTINGS = settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[
        HealthCheck.too_slow,
        HealthCheck.data_too_large,
        HealthCheck.function_scoped_fixture,
    ],
)

FUNDING = [("deposit", k, 400) for k in range(3)]
"""Most examples start with money in three wallets, so they get past the
first refusals."""


def play(world: World, operations: list[tuple[object, ...]]) -> None:
    for operation in operations:
        code = world.do(operation, strict=True)
        tally(f"{operation[0]}: {code}")
        world.check()


@pytest.mark.django_db
@SETTINGS
@given(
    funded=st.booleans(),
    operations=st.lists(ALL_OPERATIONS, min_size=1, max_size=40),
)
def test_operations_one_at_a_time_keep_the_ledger_sound(funded, operations):
    world = World(tables=TABLES)
    play(world, (FUNDING if funded else []) + operations)


@pytest.mark.django_db
@settings(SETTINGS, max_examples=5)  # each is a long session through the services
@given(
    operations=st.lists(
        st.one_of(ACT, ACT, ACT, SEAT_OPERATIONS, CASHIER), min_size=60, max_size=120
    ),
    ending=st.lists(ACT, min_size=40, max_size=40),
)
def test_long_table_sessions_keep_every_table_equal_to_its_escrow(operations, ending):
    """Many hands, top-ups and leaves at one table; then it closes and
    every chip on it is back in a wallet."""
    world = World(tables=1)
    play(world, [*FUNDING, ("deposit", 3, 400), *operations, ("close", 0)])
    play(world, ending)  # a hand running at the close plays out
    tally(f"hands dealt: {min(world.hands_dealt() // 5 * 5, 20)}+")
    for table_id in world.table_ids:
        if Table.objects.get(pk=table_id).status == "closed":
            assert account_balance(ledger.table(table_id)) == 0


ROUNDS = st.lists(st.lists(LEDGER_OPERATIONS, min_size=2, max_size=4), min_size=1, max_size=6)


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True, databases=["postgres"])
@settings(SETTINGS, max_examples=60)
@given(rounds=ROUNDS)
def test_concurrent_ledger_operations_keep_the_ledger_sound(rounds):
    world = World(using="postgres")
    for operation in FUNDING:
        world.do(operation)
    for round_ in rounds:
        codes = race(*(lambda op=op: world.do(op) for op in round_))
        assert all(c.ok for c in codes), [c.code for c in codes]
        tally(" ".join(sorted(f"{op[0]}:{c.value}" for op, c in zip(round_, codes, strict=True))))
        world.check()


TABLE_ROUNDS = st.lists(
    st.lists(TABLE_OPERATIONS | LEDGER_OPERATIONS, min_size=2, max_size=4), min_size=1, max_size=8
)


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("pg_default")
@settings(SETTINGS, max_examples=40)
@given(rounds=TABLE_ROUNDS)
def test_concurrent_table_and_wallet_operations_keep_tables_equal_to_escrow(rounds):
    world = World(tables=TABLES)
    for operation in [*FUNDING, ("deposit", 3, 400)]:
        world.do(operation)
    for round_ in rounds:
        codes = race(*(lambda op=op: world.do(op) for op in round_))
        assert all(c.ok for c in codes), [c.code for c in codes]
        world.check()
