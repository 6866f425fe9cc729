"""Celery tasks: the table clocks (``poker.clocks`` does the work).

``clock_expired`` is acknowledged only after it ran (``acks_late``) and
given back to the broker if its worker dies mid-run, so a timer survives a
worker's death; running it twice is harmless (``clocks.clock_expire``
acts only at the version it was set at).  The timers it sets (the next
clock, or itself again when it came early) are in the broker before it
returns (``config.timers.flush``), so before it is acknowledged.
"""

from __future__ import annotations

from typing import Any

from celery import shared_task
from django.conf import settings

from config import timers
from poker import clocks
from poker.casino import clocks as casino_clocks
from poker.errors import ClockEarly, ClockMoved


@shared_task(acks_late=True, reject_on_worker_lost=True, ignore_result=True)
def clock_expired(table_id: int, stream: str, version: int) -> dict[str, Any]:
    """A clock set at ``stream``'s ``version`` ran out: act if still due."""
    try:
        clocks.clock_expire(table_id=table_id, stream=stream, version=version)
    except ClockEarly as early:
        clocks.set_timer(table_id, stream, version, clocks.moment(early.expires))
        return {"outcome": "early"}
    except ClockMoved:
        return {"outcome": "moved"}
    finally:
        timers.flush()
    return {"outcome": "acted"}


@shared_task(ignore_result=True, expires=settings.CLOCK_SWEEP_SECONDS)
def clock_sweep() -> int:
    """Fire the clocks whose timers were lost (run by beat)."""
    try:
        return clocks.clock_sweep() + casino_clocks.clock_sweep()
    finally:
        timers.flush()


@shared_task(acks_late=True, reject_on_worker_lost=True, ignore_result=True)
def casino_clock_expired(table_id: int, stream: str, version: int) -> dict[str, Any]:
    """A casino clock set at ``stream``'s ``version`` ran out: act if still
    due (``poker.casino.clocks``: the window deals, a box times out)."""
    try:
        casino_clocks.clock_expire(table_id=table_id, stream=stream, version=version)
    except ClockEarly as early:
        casino_clocks.set_timer(table_id, stream, version, clocks.moment(early.expires))
        return {"outcome": "early"}
    except ClockMoved:
        return {"outcome": "moved"}
    finally:
        timers.flush()
    return {"outcome": "acted"}
