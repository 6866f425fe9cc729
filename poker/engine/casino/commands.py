"""Commands of a casino round: the deal, and what a box (or its clock) asks.

``decide`` answers each with events or refuses it with an ``EngineError``.
Boxes are named by their position in ``Deal.boxes`` (0 = first seat).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum, unique

from poker.engine.cards import Card
from poker.engine.casino.rules import CasinoRules


@unique
class Action(StrEnum):
    """What a box may do, by the verb hand scripts use."""

    EXCHANGE = "exchange"
    """Stake another original bet and change cards: 1 to 5 in the first
    exchange, exactly 1 in the second."""
    STAND = "stand"
    """Keep the cards and stake nothing more in this exchange."""
    PLAY = "play"
    """Stake BET = 2 x ANTE and go against the dealer."""
    FOLD = "fold"
    """Give up the round and the ANTE."""


@dataclass(frozen=True, slots=True)
class Entrant:
    """A box as dealt in: the player's name, his chips, and his original
    bet B (staked on BONUS at the deal)."""

    name: str
    stack: int
    original: int


@dataclass(frozen=True, slots=True)
class Deal:
    """Start a round.

    ``boxes`` in seat order, each staking its original bet; ``deck`` is the
    complete order of the 52 cards and ``rules.jokers`` jokers, top card
    first, shuffled outside the engine (``cards.shuffled``); ``seed``
    drives any reshuffle of discards.
    """

    rules: CasinoRules
    boxes: tuple[Entrant, ...]
    deck: tuple[Card, ...]
    seed: int


@dataclass(frozen=True, slots=True)
class Act:
    """Box ``box`` takes ``action``; ``cards`` are the cards it exchanges."""

    box: int
    action: Action
    cards: tuple[Card, ...] = ()


@dataclass(frozen=True, slots=True)
class TimeOut:
    """The box's clock ran out: it stands in an exchange and folds when it
    must play or fold (room's choice: RULES.md 5 sets no casino clock; these
    are the moves that stake nothing more)."""

    box: int


Command = Act | TimeOut
