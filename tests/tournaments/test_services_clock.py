"""The start and the level clock as their clocks drive them (fired here by
hand; tests/tournaments/test_tasks.py runs them on a real worker): the
start on schedule or the cancellation below the minimum, levels and breaks
on the clock, pause, resume and added time moving the deadline, timers
acting only while due, and the drain that fires them."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest

from kernel.api_errors import ApiError
from kernel.clocks import ClockEarly
from tests.tournaments.conftest import CASH
from tests.tournaments.service_support import (
    cash,
    create,
    fresh,
    house,
    pool,
    register,
    start,
    state,
    tick,
    written,
)
from tests.tournaments.support import structure
from tournaments import clocks, services, tables
from tournaments.errors import ClockMoved
from tournaments.rules import Break

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("pools_paid")]


def starts(t: Any) -> int:
    return int(fresh(t).starts_at.timestamp())


def ends(t: Any) -> int:
    return int(fresh(t).level_ends_at.timestamp())


def test_play_starts_when_its_time_comes(director, players, clock):
    t = create(director)
    register(t, *players(3))
    clock.at(fresh(t).starts_at - timedelta(seconds=1))
    before = written(t)
    with pytest.raises(ClockEarly):
        clocks.start_due(tournament_id=t.pk, starts_at=starts(t))
    assert written(t) == before
    clock.later(1)
    clocks.start_due(tournament_id=t.pk, starts_at=starts(t))
    row = fresh(t)
    assert (row.status, row.level, row.tables) == ("running", 1, 1)
    assert row.started_at == clock.now and row.level_ends_at == clock.now + timedelta(minutes=10)


def test_a_start_acts_once(director, players, clock):
    t = create(director)
    register(t, *players(2))
    start(t, clock)
    before = written(t)
    with pytest.raises(ClockMoved):
        clocks.start_due(tournament_id=t.pk, starts_at=starts(t))
    assert written(t) == before


def test_below_the_minimum_the_start_cancels_and_refunds_everyone(
    director, players, make_user, clock
):
    few = players(2)
    t = create(director, min_players=3)
    register(t, *few)
    row = start(t, clock)
    assert row.status == "cancelled"
    assert [cash(p) for p in few] == [CASH, CASH] and (pool(t), house()) == (0, 0)
    with pytest.raises(ApiError) as refused:
        register(t, make_user("late"))
    assert refused.value.code == "tournament_over"


def test_the_level_changes_when_its_time_is_up(director, players, clock):
    t = create(director)
    register(t, *players(2))
    start(t, clock)
    first = ends(t)
    clock.later(599)
    with pytest.raises(ClockEarly):
        clocks.clock_due(tournament_id=t.pk, period=0, due=first)
    row = tick(t, clock)
    assert (row.level, int(row.level_ends_at.timestamp())) == (2, first + 600)
    with pytest.raises(ClockMoved):  # that timer's period is over
        clocks.clock_due(tournament_id=t.pk, period=0, due=first)


def test_a_break_stops_the_dealing_until_the_next_level(director, players, clock):
    t = create(director, structure=structure(3, 10, (Break(1, 5),)))
    register(t, *players(2))
    start(t, clock)
    row = tick(t, clock)
    assert (row.on_break, row.level) == (True, 1)
    with pytest.raises(ApiError) as refused:
        tables.tournament_hand_start(tournament_id=t.pk, table=1)
    assert refused.value.code == "illegal_action"
    row = tick(t, clock)
    assert (row.on_break, row.level) == (False, 2)
    tables.tournament_hand_start(tournament_id=t.pk, table=1)
    assert state(t).hands[1].players[0].stack == 1000


def test_a_pause_stops_the_clock_and_its_timer_finds_nothing_to_do(director, players, clock, staff):
    t = create(director)
    register(t, *players(2))
    start(t, clock)
    first = ends(t)
    clock.later(100)
    services.tournament_pause(by=staff, tournament_id=t.pk)
    assert fresh(t).level_ends_at is None and not fresh(t).clock_running
    clock.at(clock.now + timedelta(seconds=900))
    with pytest.raises(ClockMoved):
        clocks.clock_due(tournament_id=t.pk, period=0, due=first)
    assert fresh(t).level == 1
    services.tournament_resume(by=staff, tournament_id=t.pk)
    assert ends(t) == int(clock.now.timestamp()) + 500  # what was left of the level


def test_added_time_moves_the_deadline(director, players, clock, staff):
    t = create(director)
    register(t, *players(2))
    start(t, clock)
    first = ends(t)
    services.tournament_add_time(by=staff, tournament_id=t.pk, seconds=90)
    assert ends(t) == first + 90
    clock.at(fresh(t).level_ends_at - timedelta(seconds=90))
    with pytest.raises(ClockMoved):
        clocks.clock_due(tournament_id=t.pk, period=0, due=first)
    assert tick(t, clock).level == 2


def test_the_drain_fires_each_clock_once_when_due(director, players, clock, settings):
    settings.CLOCKS_ENABLED = True  # the commands write their clocks
    field = players(4)
    soon = create(director, name="soon", starts_at=clock.now + timedelta(minutes=2))
    later = create(director, name="later", starts_at=clock.now + timedelta(minutes=5))
    register(soon, *field[:2])
    register(later, *field[2:])
    assert clocks.sweep() == 0
    clock.at(fresh(soon).starts_at - timedelta(seconds=1))
    assert clocks.sweep() == 0  # not due yet
    clock.at(fresh(soon).starts_at)
    assert clocks.sweep() == 1 and fresh(soon).status == "running"
    assert clocks.sweep() == 0  # once
    clock.at(fresh(later).starts_at + timedelta(seconds=3))
    assert clocks.sweep() == 1 and fresh(later).status == "running"
    clock.at(fresh(later).level_ends_at + timedelta(seconds=3))
    assert clocks.sweep() == 2  # both first levels are over
    assert fresh(soon).level == fresh(later).level == 2


def test_commands_set_their_timers_after_commit(
    director, players, clock, staff, settings, monkeypatch, django_capture_on_commit_callbacks
):
    settings.CLOCKS_ENABLED = True
    set_timers: list[tuple[str, Any]] = []
    monkeypatch.setattr(clocks, "set_start_timer", lambda *a: set_timers.append(("start", a)))
    monkeypatch.setattr(clocks, "set_clock_timer", lambda *a: set_timers.append(("clock", a)))

    def timers(action: Any) -> list[tuple[str, Any]]:
        set_timers.clear()
        with django_capture_on_commit_callbacks(execute=True):
            action()
        return list(set_timers)

    t = None

    def make() -> None:
        nonlocal t
        t = create(director)

    assert timers(make) == [("start", (t.pk, starts(t)))]
    assert timers(lambda: register(t, *players(2))) == []
    assert timers(lambda: start(t, clock)) == [("clock", (t.pk, 0, ends(t)))]
    pause = lambda: services.tournament_pause(by=staff, tournament_id=t.pk)  # noqa: E731
    assert timers(pause) == []
    clock.later(30)
    resume = lambda: services.tournament_resume(by=staff, tournament_id=t.pk)  # noqa: E731
    assert timers(resume) == [("clock", (t.pk, 0, ends(t)))]
    assert timers(lambda: tick(t, clock)) == [("clock", (t.pk, 1, ends(t)))]
    with pytest.raises(ApiError):
        timers(resume)  # refused: the clock runs; no timer
    assert set_timers == []
