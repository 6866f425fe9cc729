"""The tournament clock in wall time: when the current level or break ends,
and the clock as clients see it.

The rules count *running* seconds (pauses left out, staff's added time
counted); timers and clients need instants.  Everything here is a function
of the folded state and a time, so the read models, the frames and the
timers agree on one deadline.  ``now`` is the service's one clock (tests
move it).
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any, overload

from django.utils import timezone

from tournaments.rules import BlindLevel, Status, TournamentState, timeline
from tournaments.rules import queries as q


def now() -> datetime:
    """The time commands are judged at: the service's one clock."""
    return timezone.now()


@overload
def moment(seconds: int) -> datetime: ...
@overload
def moment(seconds: int | None) -> datetime | None: ...
def moment(seconds: int | None) -> datetime | None:
    """Unix seconds as an aware datetime (None stays None)."""
    return None if seconds is None else datetime.fromtimestamp(seconds, tz=UTC)


def seconds(at: datetime) -> int:
    """An instant as the rules count time: whole Unix seconds (rounded down,
    so a command is never judged later than it happened)."""
    return int(at.timestamp())


def period_end(state: TournamentState) -> int | None:
    """Running seconds at which the period in force ends (None: the last
    level, which never ends)."""
    periods = timeline(state.definition.structure)
    if periods[state.period].seconds is None:
        return None
    extra = state.clock.extra
    return sum((p.seconds or 0) + extra.get(p.index, 0) for p in periods[: state.period + 1])


def deadline(state: TournamentState) -> int | None:
    """When (Unix seconds) the level or break in force ends, if the clock is
    running and it is not the last level: the instant its timer is set for."""
    if state.status is not Status.RUNNING or state.clock.since is None:
        return None
    end = period_end(state)
    if end is None:
        return None
    return state.clock.since + end - state.clock.banked


def clock_view(state: TournamentState, now: int) -> dict[str, Any] | None:
    """The clock for clients: level and blinds in force, break, pause, and
    the time left (None before the start and after the end)."""
    if state.status is not Status.RUNNING:
        return None
    structure = state.definition.structure
    level = q.level(state)
    ends = deadline(state)
    left = None
    if ends is not None:
        left = max(0, ends - now)
    elif state.clock.since is None and period_end(state) is not None:
        left = max(0, (period_end(state) or 0) - state.clock.banked)
    last = level == len(structure.levels)
    return {
        **blinds_view(level, structure.level(level)),
        "on_break": q.on_break(state),
        "paused": state.clock.since is None,
        "seconds_left": left,
        "ends_at": None if ends is None else moment(ends).isoformat(),
        "next_level": None if last else blinds_view(level + 1, structure.level(level + 1)),
    }


def blinds_view(number: int, level: BlindLevel) -> dict[str, int]:
    """Level ``number``'s blinds and ante, as clients see them."""
    return {
        "level": number,
        "small_blind": level.small_blind,
        "big_blind": level.big_blind,
        "ante": level.ante,
    }
