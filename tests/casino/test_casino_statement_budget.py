"""What a casino command costs the database on PostgreSQL: its SQL
statements, BEGIN and COMMIT included.

A casino command writes its read models as a cash table's do
(``kernel.readmodels``): only the rows that changed, joined to the append's
statement; no box row is deleted and made again.  The tests fail if a
change makes a command dearer."""

from __future__ import annotations

import uuid
from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from casino.models import CasinoBox, CasinoRound
from casino.services import casino_act, casino_bet, casino_sit

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

SIT = 6
"""Sitting down: BEGIN, the table locked and read, its stream caught up,
the player's accounts, the command, its event and the rows written in one
(the table's changed columns, the new box), COMMIT.  9 when every box row
was deleted and made again through the ORM."""

BET = 10
"""The bet that deals: the table and its stream, the accounts and the
bankroll, the other tables' exposure, the transfers, the command, its
events, the table's columns, the boxes that changed, the new round's row
and the box to act's clock in one, COMMIT.  11 with the clock apart."""

MOVE = 7
"""A move inside a round: BEGIN, the table and the round's row and their
streams, the command, its event, the table's and the round's changed
columns and the next box's clock in one, COMMIT.  8 with the clock apart."""


def _sql(call: Callable[[], Any]) -> list[str]:
    """The statements of the command's transaction, BEGIN to COMMIT (not
    the checks before it, nor the answer's reads after)."""
    with CaptureQueriesContext(connection) as captured:
        call()
    sql = [q["sql"] for q in captured.captured_queries]
    return sql[sql.index("BEGIN") : sql.index("COMMIT") + 1]


def _within(sql: list[str], budget: int, clock: bool = False) -> None:
    """At most ``budget`` statements, none a DELETE; ``clock``: the clock's
    row written in the append's statement (the last before COMMIT)."""
    assert len(sql) <= budget, f"{len(sql)} statements:\n" + "\n".join(sql)
    assert not any(s.upper().startswith("DELETE") for s in sql), sql
    if clock:
        assert [s for s in sql if "kernel_clock" in s] == [sql[-2]], sql


def test_a_casino_command_writes_only_the_rows_that_changed_within_its_budget(
    pg_default: None, make_user: Any, open_casino: Any, bankroll: Any, settings: Any
) -> None:
    settings.CLOCKS_ENABLED = True  # the window's and the boxes' clocks are written
    bankroll()
    table = open_casino()["table"]["id"]
    ann, bob = make_user("ann"), make_user("bob")
    casino_sit(by=ann, table_id=table, box=1, command_id=uuid.uuid4())
    boxes = list(CasinoBox.objects.filter(table=table).values_list("pk", flat=True))
    sit = _sql(lambda: casino_sit(by=bob, table_id=table, box=2, command_id=uuid.uuid4()))
    _within(sit, SIT)
    casino_bet(by=ann, table_id=table, amount=10, command_id=uuid.uuid4())
    bet = _sql(lambda: casino_bet(by=bob, table_id=table, amount=10, command_id=uuid.uuid4()))
    _within(bet, BET, clock=True)
    # ann's box row is the one she sat down to: kept, not made again
    assert set(boxes) <= set(CasinoBox.objects.filter(table=table).values_list("pk", flat=True))
    current = CasinoRound.objects.get(table=table)
    to_act = ann if current.players[current.to_act] == ann.pk else bob
    moved = _sql(
        lambda: casino_act(
            by=to_act,
            table_id=table,
            action="stand",
            round=current.pk,
            version=current.version,
            command_id=uuid.uuid4(),
        )
    )
    _within(moved, MOVE, clock=True)
