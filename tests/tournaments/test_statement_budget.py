"""What a hand's end costs the database at a tournament table: the
player's command (``tests/poker/test_statement_budget.py``'s four
statements) and then the tournament's follow-up (``play.hand_over``: the
tournament row locked once, the hand reported, the next hand reported
dealt and appended), on PostgreSQL, the same for a field of 12 and of 60."""

from __future__ import annotations

import uuid
from collections import Counter
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from poker import services as table_services
from poker import streams
from poker.engine.betting import legal_actions
from poker.models import Hand, Table
from tests.tournaments.service_support import create, register, start, tournament_tables
from tournaments.models import Tournament

BUDGET = 13
"""The table's command (4), then the follow-up (9, was 28): BEGIN, the
tournament row locked and read, the table locked and read, two reports
(hand over, hand dealt) each one write (command, events, rows), the
table's events, COMMIT, then each report's frame's screen names."""

HELD = 7
"""Of which the tournament's transaction, the row locked: BEGIN, the row,
the table, the two reports' writes, the table's events, COMMIT (the
frames' screen names are read once it committed)."""

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("pools_paid"),
]


def _fold_out(table: Table, users: dict[str, Any]) -> list[str]:
    """Everyone to act at ``table`` folds (or checks) until the hand ends;
    the SQL of the action that ended it, and of what followed."""
    while True:
        table.refresh_from_db()
        hand = Hand.objects.get(pk=table.current_hand_id)
        legal = legal_actions(streams.hands.state(hand.stream, hand.version))
        assert legal is not None
        seats = streams.tables.state(table.stream, table.version)
        player = seats.seats[seats.hand_seats[legal.player]].player
        actions = [a.value for a in legal.actions]
        with CaptureQueriesContext(connection) as caught:
            table_services.hand_act(
                by=users[player],
                table_id=table.pk,
                hand=hand.pk,
                version=hand.version,
                action="fold" if "fold" in actions else actions[0],
                command_id=uuid.uuid4(),
            )
        if Hand.objects.get(pk=hand.pk).ended_at is not None:
            return [q["sql"] for q in caught.captured_queries]


def test_a_hand_end_at_a_tournament_table_costs_the_same_in_any_field(
    pg_default: None, director: Any, players: Any, clock: Any, settings: Any
) -> None:
    settings.TOURNAMENT_TABLES = True
    people = players(72)
    users = {str(u.pk): u for u in people}
    small, big = create(director, name="Small"), create(director, name="Big")
    register(small, *people[:12])
    register(big, *people[12:])
    costs = {}
    for t in (small, big):
        start(t, clock)
        before = Tournament.objects.get(pk=t.pk).version
        sql = _fold_out(tournament_tables(t)[0], users)
        assert Tournament.objects.get(pk=t.pk).version == before + 2  # reported over, and dealt
        kinds = Counter(q.split()[0].upper() for q in sql)
        assert kinds["BEGIN"] == kinds["COMMIT"] == 2, kinds  # the table's, the tournament's
        locks = [q for q in sql if q.startswith('SELECT "tournaments_tournament"')]
        assert len(locks) == 1 and locks[0].endswith("FOR UPDATE")  # never read again
        assert not [q for q in sql if q.startswith('SELECT "poker_event"')]  # folds at hand
        assert len(sql) <= BUDGET, "\n".join(q[:200] for q in sql)
        held = sql[sql.index("BEGIN", 1) : sql.index("COMMIT", sql.index("BEGIN", 1)) + 1]
        assert len(held) <= HELD, "\n".join(q[:200] for q in held)
        costs[t.name] = len(sql)
    assert costs["Small"] == costs["Big"]
