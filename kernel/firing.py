"""A due clock of a table, turned into the command that acts on it.

The engines count time in seconds since the epoch (``stamp``, ``moment``);
a table's clock command (``expire``) refuses with an error of the app's
own when its stream has moved on, or with one that says when it will be
due when it is early.  ``firing`` makes of it the kind's ``fire`` for
``kernel.clocks``: the same for a cash table and a casino table, each
with its own errors.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from kernel import clocks
from kernel.models import Clock


def stamp(at: datetime) -> float:
    """A time as the engine's clocks count it: seconds since the epoch."""
    return at.timestamp()


def moment(seconds: float) -> datetime:
    """An engine time as an aware datetime."""
    return datetime.fromtimestamp(seconds, tz=UTC)


def firing(
    expire: Callable[..., Any],
    *,
    early: type[Exception],
    refused: type[Exception],
) -> Callable[[Clock], bool]:
    """The command of a due table clock whose ``expire`` (``table_id``,
    ``stream``, ``version``) acts on it: whether it acted.  ``early`` (an
    error with ``expires``, an engine time) sets the clock again for then;
    any other ``refused`` means there was nothing to do."""

    def fire(clock: Clock) -> bool:
        try:
            expire(table_id=clock.args["table"], stream=clock.stream, version=clock.version)
        except early as too_soon:
            raise clocks.Early(moment(too_soon.expires)) from too_soon  # type: ignore[attr-defined]
        except refused:
            return False
        return True

    return fire
