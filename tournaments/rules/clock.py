"""Clock arithmetic over a structure: which level or break the clock is in.

The clock only ever sees *running* seconds: the time it has run since the
start, pauses left out (``state.Clock.running`` works them out
from the ``Started``/``Paused``/``Resumed`` events).  Time added by staff
lengthens one period (``extra``, seconds by period index).

The timeline is the structure's periods in order: level 1, the break after
it if any, level 2, ...  A break belongs to the level before it
(``Period.level``).  The last level never ends.

The windows, by the level a period belongs to (rules chosen where RULES.md
6 is silent, as major online rooms do):

- late registration "until level L" is open through level L and the break
  after it: it closes when level L + 1 starts;
- rebuys "until level L" are open through level L: they close when it ends;
- the add-on "at the end of the rebuy period" comes once the rebuys have
  closed, never beside them: in the break after level L, or when no break
  follows it, as level L + 1 begins, each player before his first hand of
  it (``queries.add_on_missed``).  When L is the last level the rebuys
  never close and there is no add-on.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache

from tournaments.rules.structure import BlindLevel, Structure


@dataclass(frozen=True, slots=True)
class Period:
    """One stretch of the timeline: a level, or the break after ``level``."""

    index: int
    level: int
    """The level played (or, for a break, the level just played), from 1."""
    on_break: bool
    seconds: int | None
    """Scheduled length; None for the last level, which never ends."""


@dataclass(frozen=True, slots=True)
class ClockPosition:
    """Where the clock is after some running seconds."""

    period: int
    """Index into the timeline."""
    level: int
    on_break: bool
    seconds_left: int | None
    """Until the period ends; None in the last level."""
    next_level: BlindLevel | None
    """The next level to be played (after a break: the one it leads to)."""


@lru_cache(maxsize=256)
def timeline(structure: Structure) -> tuple[Period, ...]:
    """The periods of ``structure`` in order."""
    periods: list[Period] = []
    last = len(structure.levels)
    for number, level in enumerate(structure.levels, start=1):
        seconds = None if number == last else structure.seconds(level.minutes)
        periods.append(Period(len(periods), number, False, seconds))
        pause = structure.break_after(number)
        if pause is not None:
            periods.append(Period(len(periods), number, True, structure.seconds(pause.minutes)))
    return tuple(periods)


def period_start(structure: Structure, period: int) -> int:
    """Running seconds at which period ``period`` (timeline index) starts."""
    return sum(p.seconds or 0 for p in timeline(structure)[:period])


def level_period(structure: Structure, level: int) -> int:
    """The timeline index of level ``level``."""
    return next(p.index for p in timeline(structure) if p.level == level and not p.on_break)


def position(
    structure: Structure, running: int, extra: Mapping[int, int] | None = None
) -> ClockPosition:
    """The clock after ``running`` seconds (negative counts as 0), with
    ``extra`` seconds added to the periods they name."""
    extra = extra or {}
    periods = timeline(structure)
    start = 0
    for period in periods:
        if period.seconds is None:
            return _at(structure, period, None)
        end = start + period.seconds + extra.get(period.index, 0)
        if max(running, 0) < end:
            return _at(structure, period, end - max(running, 0))
        start = end
    raise AssertionError("the last period never ends")  # pragma: no cover


def _at(structure: Structure, period: Period, left: int | None) -> ClockPosition:
    following = period.level + 1  # after a level or the break that follows it
    upcoming = structure.level(following) if following <= len(structure.levels) else None
    return ClockPosition(period.index, period.level, period.on_break, left, upcoming)


def late_registration_open(structure: Structure, period: int, until_level: int | None) -> bool:
    """Late registration "until level L": through level L and the break after it."""
    if until_level is None:
        return False
    return timeline(structure)[period].level <= until_level


def rebuys_open(structure: Structure, period: int, until_level: int) -> bool:
    """Rebuys "until level L": through the end of level L (not its break)."""
    p = timeline(structure)[period]
    return p.level < until_level or (p.level == until_level and not p.on_break)


def add_on_period(structure: Structure, until_level: int) -> int | None:
    """The period in which the add-on is taken: the one right after the
    rebuy window, the break after level L or else level L + 1 (None: L is
    the last level, whose rebuys never close)."""
    at = level_period(structure, until_level)
    periods = timeline(structure)
    return at + 1 if at + 1 < len(periods) else None


def add_on_open(structure: Structure, period: int, until_level: int) -> bool:
    """The clock is in the add-on period."""
    return period == add_on_period(structure, until_level)
