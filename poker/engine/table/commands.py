"""Commands: what players and the service ask of a table.

``decide_table`` answers each with events or refuses it with an
``EngineError``.  Seats are numbered 1 to ``config.seats`` clockwise.
``Sit``, ``TopUp`` and ``Leave`` are for cash tables only; ``Seat``,
``Unseat`` and ``AddChips`` for tournament tables only, where the
tournament alone brings chips and players in and takes them out.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from poker.engine.rules import Rules
from poker.engine.table.events import UnseatReason


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
    """Deal the next hand as ``plan_hand`` lays it out.

    ``rules``: a tournament table's level (``definition.rules_at(level)``);
    only its blinds and ante may differ from the table's rules.  None: the
    stakes in force (the last hand's, or the table's own before the first).
    A cash table takes no other rules than its own.
    """

    rules: Rules | None = None


@dataclass(frozen=True, slots=True)
class FinishHand:
    """The running hand is over: ``stacks`` maps every seat dealt in to his
    chips after it (the hand engine's final stacks); ``timed_out`` are the
    seats whose action clock ran out in it; ``rake`` the chips the house
    took from its pots (RULES.md 8), which left the table."""

    stacks: Mapping[int, int]
    timed_out: tuple[int, ...] = field(default=())
    rake: int = 0


@dataclass(frozen=True, slots=True)
class UseTimeBank:
    """The player in ``seat`` acted (or timed out) ``seconds`` after his
    clock ran out: that much comes off his time bank."""

    seat: int
    seconds: int


@dataclass(frozen=True, slots=True)
class Seat:
    """Tournament: ``player`` arrives in the empty ``seat`` with ``stack``
    chips from the tournament (a new entry, or moved from another table:
    what ``Unseat`` took off the other table).  ``stack`` may be 0 for a
    player out of chips who may still rebuy.  A moved player brings what
    else is his along: ``away`` (he sat out there) and ``bank``, the
    seconds left in his time bank (None: a full one, as a new entry)."""

    seat: int
    player: str
    stack: int
    away: bool = False
    bank: int | None = None


@dataclass(frozen=True, slots=True)
class Unseat:
    """Tournament: the player in ``seat`` leaves it with his stack, for
    ``reason`` (moved to another table, busted, disqualified).  Never
    during a hand he is in."""

    seat: int
    reason: UnseatReason


@dataclass(frozen=True, slots=True)
class AddChips:
    """Tournament: ``amount`` chips (a rebuy or the add-on) are added to the
    stack in ``seat``, never during a hand he is in."""

    seat: int
    amount: int


@dataclass(frozen=True, slots=True)
class DrawButton:
    """Tournament: the seats were drawn afresh (the final table); the button
    goes to ``seat`` and the next hand is dealt as the table's first: the
    blinds on the players after it, all live, nobody waiting or owing."""

    seat: int


TableCommand = (
    Sit
    | TopUp
    | SitOut
    | SitIn
    | Leave
    | Close
    | StartHand
    | FinishHand
    | UseTimeBank
    | Seat
    | Unseat
    | AddChips
    | DrawButton
)
