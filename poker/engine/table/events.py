"""Table events: the facts a table's stream is made of, in the past tense.

A table's state is the fold of these (``evolve_table``); hands run in their
own streams (``poker.engine.hand``) and meet the table only at ``HandBegan``
and ``HandFinished``.  Seats are named by number (1 to ``config.seats``,
clockwise), players by their id.

Chips enter a cash table only with ``PlayerSeated`` and ``ToppedUp`` and leave
it only with ``PlayerLeft``: a wallet moves money on those three and nothing
else (``TopUpQueued`` is a promise, applied by a later ``ToppedUp``).  A
tournament table never has those three: its chips are the tournament's and
come with ``PlayerArrived`` and ``ChipsAdded`` and go with
``PlayerUnseated``, which move no money.

Every event round-trips through JSON (``table_event_to_json`` /
``table_event_from_json``) with its stored name (``TABLE_EVENT_TYPES``)
under ``"type"``, using the hand events' codec.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum, unique
from typing import Any, Union

from poker.engine.codec import from_typed_json, registry, to_typed_json
from poker.engine.table.config import Stakes, TableConfig


@unique
class UnseatReason(StrEnum):
    """Why a tournament player left his seat."""

    MOVED = "moved"
    """To another table (balancing, a table breaking, the final table, staff):
    his stack arrives there with him."""
    BUSTED = "busted"
    """Out of chips and out of the tournament (it decides his place)."""
    DISQUALIFIED = "disqualified"
    """Disqualified: his chips leave play (TDA)."""
    CLOSED = "closed"
    """The table closed (the tournament is over or called off)."""


@dataclass(frozen=True, slots=True)
class SeatPost:
    """An extra post by a new or returning player: ``live`` counts as his
    bet in the first round, ``dead`` goes straight to the pot."""

    seat: int
    live: int
    dead: int = 0


@dataclass(frozen=True, slots=True)
class SeatStack:
    """The chips in front of a seat."""

    seat: int
    stack: int


@dataclass(frozen=True, slots=True)
class TableOpened:
    """The table was set up; always the first event of its stream."""

    config: TableConfig


@dataclass(frozen=True, slots=True)
class PlayerSeated:
    """A player took an empty seat and bought in for ``buy_in`` chips.

    ``wait_for_big_blind``: he is not dealt in until the big blind reaches
    his seat; otherwise he posts the largest blind to come in at once.
    """

    seat: int
    player: str
    buy_in: int
    wait_for_big_blind: bool = False


@dataclass(frozen=True, slots=True)
class ToppedUp:
    """Chips were added to a stack (between hands, or for a player not in
    the hand, or a queued top-up applied when his hand finished)."""

    seat: int
    amount: int


@dataclass(frozen=True, slots=True)
class TopUpQueued:
    """A top-up asked for during a hand the player is in: it is applied
    (by a ``ToppedUp``) when the hand finishes, never during it."""

    seat: int
    amount: int


@dataclass(frozen=True, slots=True)
class SatOut:
    """The player sits out from the next hand on; blinds passing his seat
    while he sits out are owed when he comes back."""

    seat: int


@dataclass(frozen=True, slots=True)
class SatIn:
    """The player is back: he posts what he owes to be dealt in at once, or
    with ``wait_for_big_blind`` comes in when the big blind reaches him."""

    seat: int
    wait_for_big_blind: bool = False


@dataclass(frozen=True, slots=True)
class LeaveQueued:
    """The player asked to leave during a hand he is in: the service folds
    his hand and he leaves (``PlayerLeft``) when the hand finishes."""

    seat: int


@dataclass(frozen=True, slots=True)
class PlayerLeft:
    """The player left his seat and took ``cash_out`` chips off the table."""

    seat: int
    cash_out: int


@dataclass(frozen=True, slots=True)
class HandBegan:
    """Hand ``number`` was dealt.

    ``dealt_in`` are the seats dealt in, in increasing seat number (the
    order of the hand's players: player i of the hand sits in
    ``dealt_in[i]``).  ``button`` is the button's seat; with
    ``button_dead`` nobody dealt in sits there (TDA dead button).
    ``small`` is None for a dead small blind; ``over`` is the 32 Card Draw
    over blind (4-5 players).  ``posts`` are the extra posts of new and
    returning players.  Who missed which blind follows from this event and
    the previous hand's positions (``evolve_table``).  At a tournament
    table everyone with chips is dealt in, also those sitting out (they are
    blinded off: the service acts for them, ``TableState.away``).
    """

    number: int
    button: int
    dealt_in: tuple[int, ...]
    small: int | None
    big: int
    over: int | None = None
    posts: tuple[SeatPost, ...] = ()
    button_dead: bool = False
    stakes: Stakes | None = None
    """The blinds and ante the hand was dealt with: a tournament level's
    (always recorded at tournament tables); None: the table's own rules."""


@dataclass(frozen=True, slots=True)
class HandFinished:
    """Hand ``number`` is over: ``stacks`` are the dealt-in seats' chips
    after it; ``timed_out`` seats let their action clock run out and sit out
    from the next hand (RULES.md 1, clocks).  Queued top-ups and leaves are
    settled by the ``ToppedUp`` and ``PlayerLeft`` events that follow.
    ``rake``: the chips the house took from the hand's pots (RULES.md 8):
    they left the table for the house's rake account."""

    number: int
    stacks: tuple[SeatStack, ...]
    timed_out: tuple[int, ...] = ()
    rake: int = 0

    @property
    def busted(self) -> tuple[int, ...]:
        """The seats left without chips.  At a tournament table they stay
        seated, never dealt in, until the tournament rebuys them
        (``ChipsAdded``) or takes them out (``PlayerUnseated``, busted)."""
        return tuple(s.seat for s in self.stacks if s.stack == 0)


@dataclass(frozen=True, slots=True)
class TimeBankUsed:
    """The player's clock ran out and he used ``seconds`` of his time bank
    (all of it when the bank ran out too)."""

    seat: int
    seconds: int


@dataclass(frozen=True, slots=True)
class PlayerArrived:
    """Tournament: ``player`` took ``seat`` with ``stack`` chips from the
    tournament (a new entry, or moved from another table), sitting out or
    not, with ``bank`` seconds in his time bank (None: a full one)."""

    seat: int
    player: str
    stack: int
    sitting_out: bool = False
    bank: int | None = None


@dataclass(frozen=True, slots=True)
class PlayerUnseated:
    """Tournament: the player left ``seat`` with ``stack`` chips, for
    ``reason`` (to another table with him, out of play, or none)."""

    seat: int
    stack: int
    reason: UnseatReason


@dataclass(frozen=True, slots=True)
class ChipsAdded:
    """Tournament: ``amount`` chips were added to the stack in ``seat`` (a
    rebuy or the add-on, between his hands)."""

    seat: int
    amount: int


@dataclass(frozen=True, slots=True)
class CloseQueued:
    """Staff closed the table during a hand: no new hand is dealt, and the
    table closes when this one finishes."""


@dataclass(frozen=True, slots=True)
class ButtonDrawn:
    """Tournament: the table's seats were drawn afresh and the button drawn
    to ``seat``; the next hand is dealt as a table's first, from there."""

    seat: int


@dataclass(frozen=True, slots=True)
class TableClosed:
    """The table closed (every player has left); no more commands."""


TableEvent = Union[  # noqa: UP007 - typing.get_args lists the members
    TableOpened,
    PlayerSeated,
    ToppedUp,
    TopUpQueued,
    SatOut,
    SatIn,
    LeaveQueued,
    PlayerLeft,
    HandBegan,
    HandFinished,
    TimeBankUsed,
    CloseQueued,
    TableClosed,
    PlayerArrived,
    PlayerUnseated,
    ChipsAdded,
    ButtonDrawn,
]

TABLE_EVENT_TYPES: dict[str, type[Any]] = registry(
    TableEvent,
    {
        "table.opened": TableOpened,
        "table.player_seated": PlayerSeated,
        "table.topped_up": ToppedUp,
        "table.top_up_queued": TopUpQueued,
        "table.sat_out": SatOut,
        "table.sat_in": SatIn,
        "table.leave_queued": LeaveQueued,
        "table.player_left": PlayerLeft,
        "table.hand_began": HandBegan,
        "table.hand_finished": HandFinished,
        "table.time_bank_used": TimeBankUsed,
        "table.close_queued": CloseQueued,
        "table.button_drawn": ButtonDrawn,
        "table.closed": TableClosed,
        "table.player_arrived": PlayerArrived,
        "table.player_unseated": PlayerUnseated,
        "table.chips_added": ChipsAdded,
    },
)
"""Every table event by its stored name (``Event.type``): ``table.<fact>``,
fixed once written, whatever the class is called."""


def table_event_to_json(event: TableEvent) -> dict[str, Any]:
    """The event as JSON-ready data with its stored name under ``"type"``."""
    return to_typed_json(event, TABLE_EVENT_TYPES)


def table_event_from_json(data: dict[str, Any]) -> TableEvent:
    """The event ``table_event_to_json`` made; ``Malformed`` for anything else."""
    event: TableEvent = from_typed_json(TABLE_EVENT_TYPES, data, "table event")
    return event
