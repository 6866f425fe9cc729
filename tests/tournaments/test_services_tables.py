"""What the tables report (``tournaments.tables``): hands dealt and over,
each once per command id; what the rules decide in reply (busts, moves, a
table breaking, the final table) comes back for the tables to carry out."""

from __future__ import annotations

import re
import uuid
from typing import Any

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from kernel.api_errors import ApiError
from tests.tournaments.service_support import (
    create,
    fresh,
    projected_rows,
    register,
    start,
    state,
    written,
)
from tournaments import tables
from tournaments.models import Entrant, Tournament
from tournaments.projections import rebuild
from tournaments.rules import Eliminated, FinalTableDrawn, HandStarted

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("pools_paid")]


def test_a_hand_reported_twice_under_one_id_counts_once(director, players, clock):
    t = create(director)
    register(t, *players(3))
    start(t, clock)
    command = uuid.uuid4()
    outcome = tables.tournament_hand_start(tournament_id=t.pk, table=1, command_id=command)
    assert outcome is not None and isinstance(outcome.events[0], HandStarted)
    before = written(t)
    assert tables.tournament_hand_start(tournament_id=t.pk, table=1, command_id=command) is None
    assert written(t) == before


def test_a_hand_that_does_not_conserve_chips_is_refused(director, players, clock):
    ann, bob = players(2)
    t = create(director)
    register(t, ann, bob)
    start(t, clock)
    tables.tournament_hand_start(tournament_id=t.pk, table=1)
    before = written(t)
    with pytest.raises(ApiError) as refused:
        tables.tournament_hand_finish(
            tournament_id=t.pk, table=1, stacks={ann.pk: 1500, bob.pk: 1000}
        )
    assert (refused.value.status, refused.value.code) == (400, "malformed")
    assert written(t) == before


def test_busts_come_back_with_the_final_table_for_the_tables(director, players, clock):
    field = players(7)
    t = create(director)
    register(t, *field)
    start(t, clock)
    assert fresh(t).tables == 2
    s = state(t)
    second = sorted(p for p, e in s.entrants.items() if e.table == 2)
    tables.tournament_hand_start(tournament_id=t.pk, table=2)
    winner, *losers = second
    stacks = {p: 0 for p in losers} | {winner: 1000 * len(second)}
    outcome = tables.tournament_hand_finish(tournament_id=t.pk, table=2, stacks=stacks)
    assert outcome is not None
    out = {e.player for e in outcome.events if isinstance(e, Eliminated)}
    assert out == set(losers)
    (final,) = [e for e in outcome.events if isinstance(e, FinalTableDrawn)]
    assert len(final.seats) == 7 - len(losers) and fresh(t).final_table


def _report_sql(t: Any) -> tuple[list[str], set[str]]:
    """The statements of a hand's report at table 1 where one player dealt
    in wins 100 chips from another (no bust), and those two players."""
    tables.tournament_hand_start(tournament_id=t.pk, table=1)
    s = state(t)
    number = s.tables[1].hand
    assert number is not None
    stacks = {p.player: p.stack for p in s.hands[number].players}
    winner, loser = sorted(stacks)[:2]
    stacks[winner] += 100
    stacks[loser] -= 100
    with CaptureQueriesContext(connection) as caught:
        tables.tournament_hand_finish(tournament_id=t.pk, table=1, stacks=stacks)
    return [q["sql"] for q in caught.captured_queries], {winner, loser}


def test_a_hand_report_writes_the_rows_of_the_players_it_touched_and_no_others(
    director, players, clock
):
    """A field of 60 costs a report what a field of 12 does: the same
    statements, the tournament row (without its definition, which never
    changes) and the entrant rows of the two players whose stacks moved
    written with the events (in one statement on PostgreSQL), none of the other entrants'
    rows read or written."""
    people = players(72)
    small, big = create(director, name="Small"), create(director, name="Big")
    register(small, *people[:12])
    register(big, *people[12:])
    start(small, clock)
    start(big, clock)
    entrant, tournament = Entrant._meta.db_table, Tournament._meta.db_table
    seen = {}
    for t in (small, big):
        sql, moved = _report_sql(t)
        writes = [q for q in sql if q.startswith(("INSERT", "UPDATE", "WITH"))]
        # PostgreSQL: the events and the rows in one statement; elsewhere
        # (SQLite) the same parts one after another: the events, the
        # tournament, the two entrants.
        assert len(writes) == (1 if connection.vendor == "postgresql" else 4), writes
        written = "\n".join(writes)
        assert written.count(f'UPDATE "{entrant}"') == 2
        for player in moved:
            assert len(re.findall(rf'"player_id" = {player}\b', written)) == 1
        touched = set(re.findall(r'"player_id" = (\d+)\b', "\n".join(sql)))
        assert touched == {str(p) for p in moved}
        assert written.count(f'UPDATE "{tournament}"') == 1
        assert '"definition"' not in written
        seen[t.name] = [q.split(" WHERE")[0].split(" SET")[0] for q in sql]
        assert projected_rows() == _rebuilt()
    assert len(seen["Small"]) == len(seen["Big"])


def _rebuilt() -> dict[str, Any]:
    """The read models as a rebuild from the log writes them (in a
    savepoint rolled back: the test's own rows stay as they were)."""
    with transaction.atomic():
        rebuild()
        rows = projected_rows()
        transaction.set_rollback(True)
    return rows
