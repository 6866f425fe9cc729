"""Celery tasks: the tournament timers (``tournaments.clocks`` does the work).

Like the table clocks, the timers are acknowledged only after they ran and
given back to the broker if their worker dies, so a timer survives a
worker's death; running one twice is harmless (it acts only while still
due, under a command id of its own).
"""

from __future__ import annotations

from typing import Any

from celery import shared_task
from django.conf import settings

from tournaments import clocks
from tournaments.errors import ClockEarly, ClockMoved


@shared_task(acks_late=True, reject_on_worker_lost=True, ignore_result=True)
def tournament_start_due(tournament_id: int, starts_at: int) -> dict[str, Any]:
    """A scheduled start came: start, or cancel below the minimum."""
    try:
        outcome = clocks.start_due(tournament_id=tournament_id, starts_at=starts_at)
    except ClockEarly as early:
        clocks.set_start_timer(tournament_id, early.due)
        return {"outcome": "early"}
    except ClockMoved:
        return {"outcome": "moved"}
    assert outcome is not None
    return {"outcome": "acted", "status": outcome.state.status.value}


@shared_task(acks_late=True, reject_on_worker_lost=True, ignore_result=True)
def tournament_clock_due(tournament_id: int, period: int, due: int) -> dict[str, Any]:
    """A level or break ended: move the clock on if still due."""
    try:
        outcome = clocks.clock_due(tournament_id=tournament_id, period=period, due=due)
    except ClockEarly as early:
        clocks.set_clock_timer(tournament_id, period, early.due)
        return {"outcome": "early"}
    except ClockMoved:
        return {"outcome": "moved"}
    assert outcome is not None
    return {"outcome": "acted", "period": outcome.state.period}


@shared_task(acks_late=True, reject_on_worker_lost=True, ignore_result=True)
def tournament_rebuy_due(tournament_id: int, player: str, until: int) -> dict[str, Any]:
    """A broke player's time to rebuy ran out: out, if still deciding."""
    try:
        outcome = clocks.rebuy_due(tournament_id=tournament_id, player=player, until=until)
    except ClockEarly as early:
        clocks.set_rebuy_timer(tournament_id, player, early.due)
        return {"outcome": "early"}
    except ClockMoved:
        return {"outcome": "moved"}
    assert outcome is not None
    return {"outcome": "acted", "status": outcome.state.status.value}


@shared_task(acks_late=True, reject_on_worker_lost=True, ignore_result=True)
def tournament_deal_due(tournament_id: int) -> dict[str, Any]:
    """A table's pause between hands ended: deal where the rules allow."""
    from tournaments.play import deal_due

    deal_due(tournament_id=tournament_id)
    return {"outcome": "acted"}


@shared_task(ignore_result=True, expires=settings.CLOCK_SWEEP_SECONDS)
def tournament_sweep() -> int:
    """Fire the tournament timers that were lost (run by beat)."""
    return clocks.sweep()
