"""Celery tasks: the tournament timers (``tournaments.clocks`` does the work).

Like the table clocks, the timers are acknowledged only after they ran and
given back to the broker if their worker dies, so a timer survives a
worker's death; running one twice is harmless (it acts only while still
due, under a command id of its own).  The timers a task sets are in the
broker before it returns (``config.timers.flush``), so before it is
acknowledged.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from celery import shared_task
from django.conf import settings

from config import timers
from tournaments import clocks
from tournaments.errors import ClockEarly, ClockMoved
from tournaments.work import Outcome


def _timer(
    fire: Callable[[], Outcome | None],
    again: Callable[[int], None],
    acted: Callable[[Outcome], dict[str, Any]],
) -> dict[str, Any]:
    """Run a timer's command: set it again if it came early (``again`` at
    the due time), nothing if the tournament moved on, else what it did."""
    try:
        outcome = fire()
    except ClockEarly as early:
        again(early.due)
        return {"outcome": "early"}
    except ClockMoved:
        return {"outcome": "moved"}
    finally:
        timers.flush()
    assert outcome is not None
    return {"outcome": "acted", **acted(outcome)}


@shared_task(acks_late=True, reject_on_worker_lost=True, ignore_result=True)
def tournament_start_due(tournament_id: int, starts_at: int) -> dict[str, Any]:
    """A scheduled start came: start, or cancel below the minimum."""
    return _timer(
        lambda: clocks.start_due(tournament_id=tournament_id, starts_at=starts_at),
        lambda due: clocks.set_start_timer(tournament_id, due),
        lambda outcome: {"status": outcome.state.status.value},
    )


@shared_task(acks_late=True, reject_on_worker_lost=True, ignore_result=True)
def tournament_clock_due(tournament_id: int, period: int, due: int) -> dict[str, Any]:
    """A level or break ended: move the clock on if still due."""
    return _timer(
        lambda: clocks.clock_due(tournament_id=tournament_id, period=period, due=due),
        lambda again: clocks.set_clock_timer(tournament_id, period, again),
        lambda outcome: {"period": outcome.state.period},
    )


@shared_task(acks_late=True, reject_on_worker_lost=True, ignore_result=True)
def tournament_rebuy_due(tournament_id: int, player: str, until: int) -> dict[str, Any]:
    """A broke player's time to rebuy ran out: out, if still deciding."""
    return _timer(
        lambda: clocks.rebuy_due(tournament_id=tournament_id, player=player, until=until),
        lambda due: clocks.set_rebuy_timer(tournament_id, player, due),
        lambda outcome: {"status": outcome.state.status.value},
    )


@shared_task(acks_late=True, reject_on_worker_lost=True, ignore_result=True)
def tournament_deal_due(tournament_id: int) -> dict[str, Any]:
    """A table's pause between hands ended: deal where the rules allow."""
    from tournaments.play import deal_due

    try:
        deal_due(tournament_id=tournament_id)
    finally:
        timers.flush()
    return {"outcome": "acted"}


@shared_task(ignore_result=True, expires=settings.CLOCK_SWEEP_SECONDS)
def tournament_sweep() -> int:
    """Fire the tournament timers that were lost, and carry the flights
    that stopped without being carried into their Day 2 (run by beat)."""
    from tournaments.flights import flights_sweep

    try:
        return clocks.sweep() + flights_sweep()
    finally:
        timers.flush()


@shared_task(ignore_result=True, expires=settings.SCHEDULE_SECONDS)
def tournament_schedules() -> int:
    """Create the tournaments the schedules' horizons now cover (run by
    beat; each occurrence at most once however often this runs:
    ``tournaments.schedules``)."""
    from tournaments import schedules, timing

    try:
        return schedules.schedules_fill(now=timing.now())
    finally:
        timers.flush()
