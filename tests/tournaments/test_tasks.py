"""The tournament clocks on a real Celery worker (a separate process on
Redis and the test's PostgreSQL database, as tests/poker/test_clocks.py):
the scheduled start, the cancellation below the minimum, levels and
breaks, pause and resume, added time, stale clocks; and beat's entry.

Levels last a minute at least, so a test that waits for one starts play
with the service clock (in this process only) set back nearly a minute:
the timer it sets then falls due a second or two later in real time."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.conf import settings
from django.db import transaction
from django.utils import timezone

from kernel.models import Clock, Command, Event
from tests.poker.clock_support import until
from tests.tournaments.conftest import CASH
from tests.tournaments.service_support import cash, create, fresh, pool, register, start
from tests.tournaments.support import structure
from tournaments import clocks, services
from tournaments.rules import Break

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("pools_paid"),
    pytest.mark.redis,
    pytest.mark.postgres,
]


def events(t: Any) -> list[Event]:
    return list(Event.objects.filter(stream=fresh(t).stream).order_by("version"))


def of_type(t: Any, kind: str) -> list[Event]:
    return [e for e in events(t) if e.type == kind]


def started_ago(director: Any, users: list[Any], clock: Any, seconds: int, **changes: Any) -> Any:
    """A tournament of one-minute levels whose play began ``seconds`` ago,
    as far as its clock is concerned; then back to real time."""
    clock.at(timezone.now() - timedelta(seconds=seconds + 1))
    levels = structure(4, 1, changes.pop("breaks", ()))
    settings.CLOCKS_ENABLED = False  # no start timer: its time is past for the worker
    t = create(director, starts_at=clock.now + timedelta(seconds=1), structure=levels, **changes)
    register(t, *users)
    settings.CLOCKS_ENABLED = True
    start(t, clock)
    clock.release()
    return t


def test_beat_sweeps_for_lost_hand_reports():
    entry = settings.CELERY_BEAT_SCHEDULE["tournament-sweep"]
    assert entry == {
        "task": "tournaments.tasks.tournament_sweep",
        "schedule": settings.CLOCK_SWEEP_SECONDS,
    }


def test_a_scheduled_tournament_starts_by_its_timer(start_worker, director, players):
    start_worker()
    t = create(director, starts_at=timezone.now() + timedelta(seconds=2))
    register(t, *players(3))
    row = until(lambda: fresh(t).status == "running" and fresh(t), 20, "the start")
    assert row.started_at >= row.starts_at and row.tables == 1 and row.players_left == 3
    assert Command.objects.filter(id=clocks.timer_id(row.stream, "start")).count() == 1


def test_below_the_minimum_the_timer_cancels_and_refunds(start_worker, director, players):
    start_worker()
    few = players(2)
    t = create(director, min_players=3, starts_at=timezone.now() + timedelta(seconds=2))
    register(t, *few)
    until(lambda: fresh(t).status == "cancelled", 20, "the cancellation")
    assert [e.data for e in of_type(t, "tournament.cancelled")] == [{"reason": clocks.TOO_FEW}]
    assert [cash(p) for p in few] == [CASH, CASH] and pool(t) == 0


def test_the_level_changes_when_its_timer_fires(start_worker, director, players, clock):
    start_worker()
    t = started_ago(director, players(2), clock, 58)
    due = fresh(t).level_ends_at
    until(lambda: fresh(t).level == 2, 20, "level 2")
    (changed,) = of_type(t, "tournament.level_changed")
    assert changed.recorded_at >= due and fresh(t).level_ends_at == due + timedelta(minutes=1)


def test_a_break_comes_and_goes_on_the_clock(start_worker, director, players, clock):
    start_worker()
    t = started_ago(director, players(2), clock, 117, breaks=(Break(1, 1),))
    until(lambda: fresh(t).on_break, 20, "the break")  # its first timer was overdue
    until(lambda: fresh(t).level == 2 and not fresh(t).on_break, 20, "level 2")
    kinds = [
        e.type
        for e in events(t)
        if e.type in ("tournament.break_started", "tournament.level_changed")
    ]
    assert kinds == ["tournament.break_started", "tournament.level_changed"]


def test_a_paused_clock_holds_the_level_until_resumed(start_worker, director, players, clock):
    worker = start_worker()
    t = started_ago(director, players(2), clock, 57)
    first = fresh(t).level_ends_at
    services.tournament_pause(by=director, tournament_id=t.pk)
    left = first - of_type(t, "tournament.paused")[0].recorded_at
    level_clock = Clock.objects.filter(stream=fresh(t).stream, kind=clocks.CLOCK)
    until(lambda: not level_clock.exists(), 20, "the level's clock, fired and found paused")
    assert worker.process.poll() is None
    assert fresh(t).level == 1
    services.tournament_resume(by=director, tournament_id=t.pk)
    resumed = of_type(t, "tournament.resumed")[0].recorded_at
    due = fresh(t).level_ends_at
    assert abs(due - (resumed + left)) <= timedelta(seconds=1)  # what was left (whole seconds)
    until(lambda: fresh(t).level == 2, 20, "level 2 after the resume")
    assert of_type(t, "tournament.level_changed")[0].recorded_at >= due > first


def test_added_time_moves_the_level_change(start_worker, director, players, clock):
    start_worker()
    t = started_ago(director, players(2), clock, 58)
    first = fresh(t).level_ends_at
    services.tournament_add_time(by=director, tournament_id=t.pk, seconds=3)
    moved = Clock.objects.get(stream=fresh(t).stream, kind=clocks.CLOCK)
    assert moved.due == first + timedelta(seconds=3)  # the one clock, moved
    until(lambda: timezone.now() > first + timedelta(seconds=1), 20, "the level's old end")
    assert fresh(t).level == 1
    until(lambda: fresh(t).level == 2, 20, "level 2")
    assert of_type(t, "tournament.level_changed")[0].recorded_at >= first + timedelta(seconds=3)


def test_a_stale_clock_does_nothing(start_worker, director, players, clock):
    start_worker()
    clock.at(timezone.now())
    t = create(director)
    register(t, *players(2))
    start(t, clock)
    version = fresh(t).version
    due = int(fresh(t).level_ends_at.timestamp())
    with transaction.atomic():  # a clock of another period, due now
        clocks.set_clock_timer(t.pk, 3, int(timezone.now().timestamp()))
    stale = Clock.objects.filter(stream=fresh(t).stream, kind=clocks.CLOCK)
    until(lambda: not stale.exists(), 20, "the drain")
    assert fresh(t).version == version
    assert not Command.objects.filter(id=clocks.timer_id(fresh(t).stream, 3, due)).exists()


def test_a_table_deals_its_next_hand_when_the_pause_ends(start_worker, director, players, settings):
    """A tournament table's pause (a second, on a clock five times as fast)
    ends by its deal timer on the worker."""
    from dataclasses import replace

    from poker import services as table_services
    from poker import streams
    from poker.engine.betting import legal_actions
    from poker.engine.rules import Game
    from poker.models import Hand, Table

    settings.TOURNAMENT_TABLES = True
    start_worker()
    people = players(2)
    users = {str(u.pk): u for u in people}
    fast = replace(structure(4, 5), minute_seconds=12)
    t = create(
        director, game=Game.THIRTY_TWO_CARD_DRAW, sit_and_go=True, max_players=2, structure=fast
    )
    register(t, *people)
    (table,) = Table.objects.filter(tournament=t.pk)
    first = Hand.objects.get(table=table, number=1)
    while first.ended_at is None:  # the player to act folds, or checks
        ts = streams.tables.state(table.stream, Table.objects.get(pk=table.pk).version)
        legal = legal_actions(streams.hands.state(first.stream, first.version))
        player = ts.seats[ts.hand_seats[legal.player]].player
        action = "fold" if "fold" in legal.actions else legal.actions[0].value
        table_services.hand_act(
            by=users[player], table_id=table.pk, hand=first.pk, version=first.version, action=action
        )
        first.refresh_from_db()
    assert Table.objects.get(pk=table.pk).hand_number == 1  # paused
    until(lambda: Table.objects.get(pk=table.pk).hand_number == 2, 20, "the second hand")
    second = Hand.objects.get(table=table, number=2)
    assert second.started_at - first.ended_at >= timedelta(seconds=1)
