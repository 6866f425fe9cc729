"""Events of a casino round: the facts it is made of, in the past tense.

A round's state is the fold of its events (``casino.evolve``).  Boxes are
named by their position in ``RoundStarted.boxes``.  Stored names are
``casino.<fact>`` (``CASINO_EVENT_TYPES``), never the class names; every
event round-trips through JSON (``to_json`` / ``from_json``).

Hidden from the other boxes (``casino.view.redact``): the deck and seed,
each box's cards, what it throws and draws, and the dealer's cards until
``DealerRevealed``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Union

from poker.engine.cards import Card
from poker.engine.casino.commands import Entrant
from poker.engine.casino.paytable import Hand
from poker.engine.casino.rules import CasinoRules
from poker.engine.casino.settle import Result
from poker.engine.codec import from_typed_json, registry, to_typed_json


@dataclass(frozen=True, slots=True)
class RoundStarted:
    """A round began: the table's rules, the boxes, and the deck order
    (``deck`` and ``seed`` are secret until the round ends)."""

    rules: CasinoRules
    boxes: tuple[Entrant, ...]
    deck: tuple[Card, ...]
    seed: int


@dataclass(frozen=True, slots=True)
class BonusStaked:
    """A box staked its original bet on BONUS before the deal."""

    box: int
    amount: int


@dataclass(frozen=True, slots=True)
class CardsDealt:
    """Five cards each, one at a time to each box in seat order then to the
    dealer; ``hands[i]`` is box i's, ``dealer`` face down."""

    hands: tuple[tuple[Card, ...], ...]
    dealer: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class ExchangeStarted:
    """An exchange round began: 0 the first (1 to 5 cards, staked on ANTE),
    1 the second (one card, staked on BOX; only boxes that exchanged)."""

    exchange: int


@dataclass(frozen=True, slots=True)
class Exchanged:
    """A box staked ``stake`` more and threw ``cards`` (hidden from others)."""

    box: int
    exchange: int
    cards: tuple[Card, ...]
    stake: int


@dataclass(frozen=True, slots=True)
class Stood:
    """A box kept its cards in an exchange; ``timed_out`` when its clock did."""

    box: int
    exchange: int
    timed_out: bool = False


@dataclass(frozen=True, slots=True)
class DiscardsReshuffled:
    """The stub ran short: the discards, shuffled, went under what was left
    of it (the cards now being thrown are not among them)."""

    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class CardsDrawn:
    """A box's replacements, from the top of the stub, each taking the
    place of a card thrown, in order (hidden from others)."""

    box: int
    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class DecisionStarted:
    """The exchanges are over: each box in turn plays or folds."""


@dataclass(frozen=True, slots=True)
class Played:
    """A box staked BET (``amount`` = 2 x its ANTE) against the dealer."""

    box: int
    amount: int


@dataclass(frozen=True, slots=True)
class Folded:
    """A box gave up its ANTE; ``timed_out`` when its clock did it."""

    box: int
    timed_out: bool = False


@dataclass(frozen=True, slots=True)
class DealerRevealed:
    """The dealer turned his five cards up."""

    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class DealerExchanged:
    """The dealer changed ``discarded`` (none: he stood pat) for ``drawn``,
    face up, each drawn card in the place of the one thrown.  Not when
    every box folded."""

    discarded: tuple[Card, ...]
    drawn: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class BoxSettled:
    """A box's round is settled: ``won`` chips came back to it in all
    (stakes returned plus winnings), ``hand`` is its final hand."""

    box: int
    result: Result
    hand: Hand
    won: int


@dataclass(frozen=True, slots=True)
class RoundEnded:
    """Every box is settled; the round takes no more commands."""


CasinoEvent = Union[  # noqa: UP007 - typing.get_args lists the members
    RoundStarted,
    BonusStaked,
    CardsDealt,
    ExchangeStarted,
    Exchanged,
    Stood,
    DiscardsReshuffled,
    CardsDrawn,
    DecisionStarted,
    Played,
    Folded,
    DealerRevealed,
    DealerExchanged,
    BoxSettled,
    RoundEnded,
]

CASINO_EVENT_TYPES: dict[str, type[Any]] = registry(
    CasinoEvent,
    {
        "casino.round_started": RoundStarted,
        "casino.bonus_staked": BonusStaked,
        "casino.cards_dealt": CardsDealt,
        "casino.exchange_started": ExchangeStarted,
        "casino.exchanged": Exchanged,
        "casino.stood": Stood,
        "casino.discards_reshuffled": DiscardsReshuffled,
        "casino.cards_drawn": CardsDrawn,
        "casino.decision_started": DecisionStarted,
        "casino.played": Played,
        "casino.folded": Folded,
        "casino.dealer_revealed": DealerRevealed,
        "casino.dealer_exchanged": DealerExchanged,
        "casino.box_settled": BoxSettled,
        "casino.round_ended": RoundEnded,
    },
)
"""Every casino event by its stored name: ``casino.<fact>``, fixed once
written, whatever the class is called."""


def to_json(event: CasinoEvent) -> dict[str, Any]:
    """The event as JSON-ready data with its stored name under ``"type"``."""
    return to_typed_json(event, CASINO_EVENT_TYPES)


def from_json(data: dict[str, Any]) -> CasinoEvent:
    """The event ``to_json`` made; ``Malformed`` for anything else."""
    event: CasinoEvent = from_typed_json(CASINO_EVENT_TYPES, data, "casino event")
    return event
