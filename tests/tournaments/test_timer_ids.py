"""A tournament's timers (the start, the level clock, a rebuy decision)
and its tables' reports run under ids of the room's own kind
(``kernel.system_ids``): a player who spends the id a timer used to take
(``uuid5`` of a namespace in the source) on a command of his own cannot
keep the tournament from starting or its clock from moving; each timer
still acts exactly once."""

from __future__ import annotations

import uuid
from typing import Any

import pytest

from kernel.system_ids import is_system_id
from tests.tournaments.service_support import bust, create, fresh, register, start, state
from tests.tournaments.support import structure
from tournaments import clocks, play, services
from tournaments.errors import ClockMoved
from tournaments.models import Tournament
from tournaments.rules import Break, Rebuys

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("pools_paid")]

PUBLIC_NAMESPACE = uuid.UUID("0b7f3c52-3a8e-4f7c-a1d4-5e2f9c6d8b31")
"""The namespace the timers' ids were once derived from, in the source."""


def public_id(t: Tournament, *key: object) -> uuid.UUID:
    return uuid.uuid5(PUBLIC_NAMESPACE, ":".join([t.stream, *map(str, key)]))


def spend(player: Any, command_id: uuid.UUID, director: Any) -> None:
    """``player`` takes ``command_id`` first, registering elsewhere."""
    elsewhere = create(director, name="Elsewhere")
    services.tournament_register(by=player, tournament_id=elsewhere.pk, command_id=command_id)


def test_a_start_timer_whose_public_id_a_player_spent_still_starts_play_once(
    director, players, clock
):
    ann, bob, cy = players(3)
    t = create(director)
    register(t, ann, bob)
    spend(cy, public_id(t, "start"), director)
    assert start(t, clock).status == "running"
    with pytest.raises(ClockMoved):
        clocks.start_due(tournament_id=t.pk, starts_at=int(fresh(t).starts_at.timestamp()))


def test_a_level_timer_whose_public_id_a_player_spent_still_moves_the_clock_once(
    director, players, clock
):
    ann, bob, cy = players(3)
    t = create(director)
    register(t, ann, bob)
    start(t, clock)
    s, due = state(t), int(fresh(t).level_ends_at.timestamp())
    spend(cy, public_id(t, s.period, due), director)
    clock.at(fresh(t).level_ends_at)
    clocks.clock_due(tournament_id=t.pk, period=s.period, due=due)
    assert fresh(t).level == 2
    with pytest.raises(ClockMoved):
        clocks.clock_due(tournament_id=t.pk, period=s.period, due=due)


def test_a_rebuy_timer_whose_public_id_a_player_spent_still_puts_him_out_once(
    director, players, clock
):
    ann, bob, cy = players(3)
    rebuys = Rebuys(until_level=1, chips=1000, price=100, decision_seconds=30)
    t = create(director, structure=structure(4, 10, (Break(1, 5),)), rebuys=rebuys)
    register(t, ann, bob)
    start(t, clock)
    bust(t, ann, bob)
    until = state(t).entrants[str(ann.pk)].rebuy_until
    spend(cy, public_id(t, "rebuy", ann.pk, until), director)
    clock.later(30)
    clocks.rebuy_due(tournament_id=t.pk, player=str(ann.pk), until=until)
    assert state(t).entrants[str(ann.pk)].out
    with pytest.raises(ClockMoved):
        clocks.rebuy_due(tournament_id=t.pk, player=str(ann.pk), until=until)


def test_timer_and_report_ids_are_the_room_s_own_and_differ_from_the_public_ones(director):
    t = create(director)
    ids = {
        clocks.timer_id(t.stream, "start"): public_id(t, "start"),
        clocks.timer_id(t.stream, 1, 600): public_id(t, 1, 600),
        play.command_id("hand-1-1", "start"): uuid.uuid5(uuid.NAMESPACE_URL, "hand-1-1:start"),
        play.command_id("hand-1-1", "finish"): uuid.uuid5(uuid.NAMESPACE_URL, "hand-1-1:finish"),
    }
    for mine, public in ids.items():
        assert is_system_id(mine) and mine != public
    assert len(set(ids)) == len(ids)


def test_a_player_may_not_choose_a_command_id_of_the_room_s_kind(client_for, director, players):
    (ann,) = players(1)
    t = create(director)
    body = {"command_id": str(clocks.timer_id(t.stream, "start"))}
    answer = client_for(ann).post(f"/api/tournaments/{t.pk}/register/", body, format="json")
    assert (answer.status_code, answer.json()["code"]) == (400, "invalid")
    assert "command_id" in answer.json()["fields"]
    assert fresh(t).entries == 0
