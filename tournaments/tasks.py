"""Celery tasks of the tournaments: the sweep for hands whose report was
lost, and the schedules creating their tournaments.

The tournament's clocks are kernel clocks (``tournaments.clocks``), fired
by the kernel's drain.  A hand at a tournament table commits at the table
alone and is then reported to the tournament in a command of its own
(``play.hand_over``); a process that dies between the two leaves the
report to this sweep (beat), which catches up any table between hands
whose pause is over.
"""

from __future__ import annotations

from celery import shared_task
from django.conf import settings

from tournaments import timing


@shared_task(ignore_result=True, expires=settings.CLOCK_SWEEP_SECONDS)
def tournament_sweep() -> int:
    """Catch up the tables whose hand report was lost, and carry the
    flights that stopped without being carried into their Day 2 (run by
    beat); how many flights it carried."""
    from tournaments.flights import flights_sweep
    from tournaments.play import sweep_late

    sweep_late()
    return flights_sweep()


@shared_task(ignore_result=True, expires=settings.SCHEDULE_SECONDS)
def tournament_schedules() -> int:
    """Create the tournaments the schedules' horizons now cover (run by
    beat; each occurrence at most once however often this runs:
    ``tournaments.schedules``); their start clocks are rows, written with them."""
    from tournaments import schedules

    return schedules.schedules_fill(now=timing.now())
