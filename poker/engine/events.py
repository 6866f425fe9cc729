"""Events: the facts a hand is made of, named in the past tense.

A hand's state is the fold of its events (``hand.evolve``), so an event says
exactly what happened and nothing that can be derived.  Players are named by
their position in ``HandStarted.players`` (0 = first seat in clockwise
order), never by name, so events stay small and the service maps positions
to seats.

Every event round-trips through JSON (``to_json`` / ``from_json``) without
loss; the type name is the ``"type"`` key.
"""

from __future__ import annotations

import types
import typing
from dataclasses import dataclass, fields
from enum import Enum, StrEnum, unique
from functools import cache
from typing import Any, Union

from poker.engine.cards import Card, card
from poker.engine.errors import Malformed
from poker.engine.rules import Rules


@unique
class Blind(StrEnum):
    """The forced bets before the deal."""

    SMALL = "small"
    """Left of the button; half the big blind."""
    BIG = "big"
    """Left of the small blind."""
    OVER = "over"
    """32 Card Draw with 4-5 players: twice the big blind, left of the big blind."""
    EXTRA = "extra"
    """A post by a new or returning player (cash tables), live unless dead."""


@dataclass(frozen=True, slots=True)
class Entrant:
    """A player as dealt in: a display name and the chips he starts with."""

    name: str
    stack: int


@dataclass(frozen=True, slots=True)
class Share:
    """Chips one player takes from a pot."""

    player: int
    amount: int


@dataclass(frozen=True, slots=True)
class HandStarted:
    """A hand began: who plays, where the button is, and the deck order.

    ``deck`` and ``seed`` are secret until the hand ends; ``seed`` drives any
    reshuffle of discards, keeping the engine deterministic.  With
    ``button_dead`` the button sits on an empty seat just after player
    ``button`` (TDA dead button), so nobody present holds it.
    """

    rules: Rules
    players: tuple[Entrant, ...]
    button: int
    deck: tuple[Card, ...]
    seed: int
    button_dead: bool = False


@dataclass(frozen=True, slots=True)
class AntePosted:
    """Dead money from one player into the pot before the deal."""

    player: int
    amount: int


@dataclass(frozen=True, slots=True)
class BlindPosted:
    """A blind posted; ``amount`` may be short when the stack is.

    ``dead`` chips go to the pot and do not count as the player's bet.
    """

    player: int
    blind: Blind
    amount: int
    dead: bool = False


@dataclass(frozen=True, slots=True)
class CardsDealt:
    """The starting hands, dealt one card at a time clockwise from the left
    of the button; ``hands[i]`` is player i's and hidden from everyone else."""

    hands: tuple[tuple[Card, ...], ...]


@dataclass(frozen=True, slots=True)
class BettingStarted:
    """A betting round began (0 = before the first draw)."""

    round: int


@dataclass(frozen=True, slots=True)
class Folded:
    """A player gave up the hand; ``timed_out`` when his clock did it."""

    player: int
    timed_out: bool = False


@dataclass(frozen=True, slots=True)
class Checked:
    """A player passed without betting; ``timed_out`` when his clock did it."""

    player: int
    timed_out: bool = False


@dataclass(frozen=True, slots=True)
class Called:
    """A player matched the bet; ``amount`` is what he added."""

    player: int
    amount: int


@dataclass(frozen=True, slots=True)
class BetPlaced:
    """The first bet of a round, to a total of ``to``."""

    player: int
    to: int


@dataclass(frozen=True, slots=True)
class Raised:
    """A raise to a round total of ``to``."""

    player: int
    to: int


@dataclass(frozen=True, slots=True)
class BetReturned:
    """The part of a bet nobody called went back to its owner."""

    player: int
    amount: int


@dataclass(frozen=True, slots=True)
class DrawStarted:
    """A draw began (0 = first draw)."""

    draw: int


@dataclass(frozen=True, slots=True)
class Discarded:
    """A player threw ``cards`` face down (none: he stood pat).

    ``timed_out``: his draw clock ran out, so he stood pat and may not bet or
    raise for the rest of the hand.
    """

    player: int
    cards: tuple[Card, ...]
    timed_out: bool = False


@dataclass(frozen=True, slots=True)
class MuckReshuffled:
    """The stub ran out: discards and folded hands became the new stub."""

    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class CardsDrawn:
    """Replacement cards a player received (hidden from everyone else)."""

    player: int
    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class ParoleOffered:
    """32 Card Draw: the first to act after the draw offered to split the pot."""

    player: int


@dataclass(frozen=True, slots=True)
class ParoleAccepted:
    """A player agreed to the Parole split."""

    player: int


@dataclass(frozen=True, slots=True)
class ParoleDeclined:
    """A player refused Parole (or let his clock run out); the offer is over."""

    player: int
    timed_out: bool = False


@dataclass(frozen=True, slots=True)
class ShowdownStarted:
    """Betting is over; players show in ``order``."""

    order: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class HandShown:
    """A player turned his cards up."""

    player: int
    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class HandMucked:
    """A player who could not win threw his hand away unseen."""

    player: int


@dataclass(frozen=True, slots=True)
class PotAwarded:
    """One pot went to its winners (``shares`` sum to ``amount``).

    ``pot`` 0 is the main pot; side pots follow in the order they were made.
    """

    pot: int
    amount: int
    shares: tuple[Share, ...]


@dataclass(frozen=True, slots=True)
class HandEnded:
    """Every pot is awarded; the hand takes no more commands."""


Event = Union[  # noqa: UP007 - typing.get_args lists the members
    HandStarted,
    AntePosted,
    BlindPosted,
    CardsDealt,
    BettingStarted,
    Folded,
    Checked,
    Called,
    BetPlaced,
    Raised,
    BetReturned,
    DrawStarted,
    Discarded,
    MuckReshuffled,
    CardsDrawn,
    ParoleOffered,
    ParoleAccepted,
    ParoleDeclined,
    ShowdownStarted,
    HandShown,
    HandMucked,
    PotAwarded,
    HandEnded,
]

EVENT_TYPES: dict[str, type[Any]] = {cls.__name__: cls for cls in typing.get_args(Event)}


def to_json(event: Event) -> dict[str, Any]:
    """The event as JSON-ready data with its type name under ``"type"``."""
    data = _encode(event)
    assert isinstance(data, dict)
    return {"type": type(event).__name__, **data}


def from_json(data: dict[str, Any]) -> Event:
    """The event ``to_json`` made; ``Malformed`` for anything else."""
    cls = EVENT_TYPES.get(str(data.get("type")))
    if cls is None:
        raise Malformed(f"unknown event type {data.get('type')!r}")
    body = {k: v for k, v in data.items() if k != "type"}
    try:
        event: Event = _decode(cls, body)
    except (KeyError, TypeError, ValueError) as exc:
        raise Malformed(f"bad {cls.__name__}: {exc}") from exc
    return event


def _encode(value: object) -> object:
    if isinstance(value, Card):
        return str(value)
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, tuple):
        return [_encode(v) for v in value]
    if hasattr(value, "__dataclass_fields__"):
        return {f.name: _encode(getattr(value, f.name)) for f in fields(value)}  # type: ignore[arg-type]
    return value


@cache
def _hints(cls: type[Any]) -> dict[str, Any]:
    return typing.get_type_hints(cls)


def _decode(hint: Any, value: Any) -> Any:
    origin = typing.get_origin(hint)
    if hint is Card:
        return card(value)
    if origin is tuple:
        (item, _) = typing.get_args(hint)
        return tuple(_decode(item, v) for v in value)
    if origin in (Union, types.UnionType):
        return None if value is None else _decode(typing.get_args(hint)[0], value)
    if isinstance(hint, type) and issubclass(hint, Enum):
        return hint(value)
    if isinstance(hint, type) and hasattr(hint, "__dataclass_fields__"):
        if not isinstance(value, dict):
            raise TypeError(f"{hint.__name__} wants an object")
        known = _hints(hint)
        return hint(**{k: _decode(known[k], v) for k, v in value.items() if k in known})
    if hint in (int, bool, str) and type(value) is not hint:
        raise TypeError(f"{value!r} is not {hint.__name__}")
    return value
