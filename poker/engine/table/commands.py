"""Commands: what players and the service ask of a cash table.

``decide_table`` answers each with events or refuses it with an
``EngineError``.  Seats are numbered 1 to ``config.seats`` clockwise.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field


@dataclass(frozen=True, slots=True)
class Sit:
    """``player`` takes the empty ``seat`` and buys in for ``buy_in`` chips;
    with ``wait_for_big_blind`` he is dealt in only when the big blind
    reaches him, otherwise he posts the largest blind to play at once."""

    seat: int
    player: str
    buy_in: int
    wait_for_big_blind: bool = False


@dataclass(frozen=True, slots=True)
class TopUp:
    """Add ``amount`` chips to the stack in ``seat`` (queued until the hand
    ends when he is in the running hand)."""

    seat: int
    amount: int


@dataclass(frozen=True, slots=True)
class SitOut:
    """Sit out from the next hand on (the running hand is played out)."""

    seat: int


@dataclass(frozen=True, slots=True)
class SitIn:
    """Come back: post what is owed, or wait for the big blind."""

    seat: int
    wait_for_big_blind: bool = False


@dataclass(frozen=True, slots=True)
class Leave:
    """Leave the table with the stack (when the hand ends, if in it)."""

    seat: int


@dataclass(frozen=True, slots=True)
class Close:
    """Close the table: everyone leaves with his stack, at once between
    hands, or when the running hand finishes (no new hand is dealt)."""


@dataclass(frozen=True, slots=True)
class StartHand:
    """Deal the next hand as ``plan_hand`` lays it out."""


@dataclass(frozen=True, slots=True)
class FinishHand:
    """The running hand is over: ``stacks`` maps every seat dealt in to his
    chips after it (the hand engine's final stacks); ``timed_out`` are the
    seats whose action clock ran out in it."""

    stacks: Mapping[int, int]
    timed_out: tuple[int, ...] = field(default=())


TableCommand = Sit | TopUp | SitOut | SitIn | Leave | Close | StartHand | FinishHand
