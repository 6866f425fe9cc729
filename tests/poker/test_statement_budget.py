"""What one action costs the database: the SQL statements of one
``hand_act`` at a cash table on PostgreSQL, BEGIN and COMMIT included.

Issue 12 sets the budget at 5 (lock and read, one insert of the command
with its events, one projection update, and the transaction's ends): the
test fails if a change makes an action dearer."""

from __future__ import annotations

import uuid
from collections import Counter

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from poker import services
from poker.models import Hand
from tests.poker.api_support import seat_players

BUDGET = 5
"""The issue's goal for one action: BEGIN, the table and its hand locked
and read in one statement, the command and its event inserted in one,
the hand and the table's feed position updated in one, COMMIT."""

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def _statements(sql: list[str]) -> Counter[str]:
    return Counter(s.split()[0].upper() for s in sql)


def test_an_action_takes_no_more_statements_than_the_budget(
    pg_default: None, open_table, make_user, client_for
) -> None:
    room = seat_players(open_table, make_user, client_for, ("ann", "bob", "cid"))
    name, _, view = room.to_act()
    hand = Hand.objects.get(pk=view["hand"]["id"])
    action = "call" if "call" in view["hand"]["legal"]["actions"] else "check"
    with CaptureQueriesContext(connection) as captured:
        services.hand_act(
            by=room.users[name],
            table_id=room.table,
            hand=hand.pk,
            version=view["hand"]["version"],
            action=action,
            command_id=uuid.uuid4(),
        )
    sql = [q["sql"] for q in captured.captured_queries]
    kinds = _statements(sql)
    assert kinds["BEGIN"] + kinds["SAVEPOINT"] <= 1, kinds  # one transaction
    assert len(sql) <= BUDGET, f"{len(sql)} statements ({dict(kinds)}):\n" + "\n".join(sql)
