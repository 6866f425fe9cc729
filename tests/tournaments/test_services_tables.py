"""What the tables report (``tournaments.tables``): hands dealt and over,
each once per command id; what the rules decide in reply (busts, moves, a
table breaking, the final table) comes back for the tables to carry out."""

from __future__ import annotations

import uuid

import pytest

from config.api_errors import ApiError
from tests.tournaments.service_support import create, fresh, register, start, state, written
from tournaments import tables
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
