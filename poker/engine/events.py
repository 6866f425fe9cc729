"""Events: the facts a hand is made of, named in the past tense.

A hand's state is the fold of its events (``hand.evolve``), so an event says
exactly what happened and nothing that can be derived.  Players are named by
their position in ``HandStarted.players`` (0 = first seat in clockwise
order), never by name, so events stay small and the service maps positions
to seats.

Every event round-trips through JSON (``to_json`` / ``from_json``) without
loss; its stored name (``EVENT_TYPES``) is the ``"type"`` key.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum, unique
from typing import Any, Union

from poker.engine.cards import Card
from poker.engine.codec import from_typed_json, registry, to_typed_json
from poker.engine.rake import Rake
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


@unique
class Commitment(StrEnum):
    """How a hand committed to its deck when it was dealt (docs/fair-deal.md)."""

    MERKLE = "merkle"
    """Every card position on its own: ``root`` is the Merkle root over the
    salted (position, card) leaves, and each card opens alone."""
    DECK_HASH = "deck-hash"
    """Hands stored before event schema 3: ``root`` is one SHA-256 of the
    seed and the whole deck order, which opens only all at once, so nothing
    of such a hand opens (docs/fair-deal.md, "Old hands")."""


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

    ``deck`` and ``seed`` stay secret for good; ``seed`` drives any reshuffle
    of discards, keeping the engine deterministic, and the salts of the
    deck's commitment.  ``root`` is that commitment, public from the deal:
    the Merkle root over every (position, card) of ``deck``
    (``engine.fairdeal``).  With ``button_dead`` the button sits on an empty
    seat just after player ``button`` (TDA dead button), so nobody present
    holds it.  ``rake``: what the house takes from the pots of a cash
    table's hand (None: nothing, as for a stored hand that names no rake).
    """

    rules: Rules
    players: tuple[Entrant, ...]
    button: int
    deck: tuple[Card, ...]
    seed: int
    root: str
    button_dead: bool = False
    commitment: Commitment = Commitment.MERKLE
    rake: Rake | None = None


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
    """The stub ran out: discards and folded hands became the new stub.

    ``cards`` (the new stub's order) are secret; ``root`` commits to them
    like ``HandStarted.root`` to the deck, published before any is drawn.
    """

    cards: tuple[Card, ...]
    root: str


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
class HandRaked:
    """The house took its rake (RULES.md 8) out of the pots, before any was
    awarded: ``pots[k]`` chips from pot k (0 the main pot, side pots in the
    order they were made), ``amount`` in all.  Only a hand that reached
    the first draw, and only when something is taken."""

    amount: int
    pots: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class PotAwarded:
    """One pot went to its winners (``shares`` sum to ``amount``).

    ``pot`` 0 is the main pot; side pots follow in the order they were made.
    ``amount`` is what was left of the pot after the rake (``HandRaked``).
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
    HandRaked,
    PotAwarded,
    HandEnded,
]

EVENT_TYPES: dict[str, type[Any]] = registry(
    Event,
    {
        "hand.started": HandStarted,
        "hand.ante_posted": AntePosted,
        "hand.blind_posted": BlindPosted,
        "hand.cards_dealt": CardsDealt,
        "hand.betting_started": BettingStarted,
        "hand.folded": Folded,
        "hand.checked": Checked,
        "hand.called": Called,
        "hand.bet_placed": BetPlaced,
        "hand.raised": Raised,
        "hand.bet_returned": BetReturned,
        "hand.draw_started": DrawStarted,
        "hand.discarded": Discarded,
        "hand.muck_reshuffled": MuckReshuffled,
        "hand.cards_drawn": CardsDrawn,
        "hand.parole_offered": ParoleOffered,
        "hand.parole_accepted": ParoleAccepted,
        "hand.parole_declined": ParoleDeclined,
        "hand.showdown_started": ShowdownStarted,
        "hand.shown": HandShown,
        "hand.mucked": HandMucked,
        "hand.raked": HandRaked,
        "hand.pot_awarded": PotAwarded,
        "hand.ended": HandEnded,
    },
)
"""Every hand event by its stored name (``Event.type``): ``hand.<fact>``,
fixed once written, whatever the class is called."""


def to_json(event: Event) -> dict[str, Any]:
    """The event as JSON-ready data with its stored name under ``"type"``."""
    return to_typed_json(event, EVENT_TYPES)


def from_json(data: dict[str, Any]) -> Event:
    """The event ``to_json`` made; ``Malformed`` for anything else."""
    event: Event = from_typed_json(EVENT_TYPES, data, "event")
    return event
