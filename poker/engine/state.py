"""The state of one hand: an immutable value, the fold of its events.

Only ``hand.evolve`` builds new states; everything here is a plain value or
a question about one.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum, unique
from typing import Any, TypeVar

from poker.engine.cards import Card
from poker.engine.events import Commitment, PotAwarded
from poker.engine.rake import Rake
from poker.engine.rules import Rules, Variant

T = TypeVar("T")

HAND_SIZE = 5
"""Cards in every hand of every pot game."""

LEGAL_MEMO = "_legal"
"""Where ``betting.legal_actions`` memoises its answer on a state."""


def evolved(value: T, **changes: Any) -> T:
    """A copy of the frozen dataclass ``value`` with ``changes``.

    ``dataclasses.replace`` re-runs ``__init__`` over every field and was
    two thirds of the engine's time; copying the instance dict is one C
    call.  Only valid for the plain (non-slots) frozen dataclasses here,
    whose fields have no ``__post_init__`` checks.
    """
    new = object.__new__(type(value))
    attributes = new.__dict__
    attributes.update(value.__dict__)
    attributes.pop(LEGAL_MEMO, None)
    attributes.update(changes)
    return new


@unique
class Phase(StrEnum):
    """Where a hand is."""

    DEALING = "dealing"
    """Blinds and cards are going out; nobody may act yet."""
    BETTING = "betting"
    """A betting round."""
    DRAW = "draw"
    """Players discard and draw in turn."""
    PAROLE = "parole"
    """A Parole offer is going round for answers."""
    SHOWDOWN = "showdown"
    """Players show or muck in turn."""
    COMPLETE = "complete"
    """Every pot is awarded."""


@dataclass(frozen=True)
class Player:
    """One player's part of the hand."""

    name: str
    stack: int
    """Chips behind, not in the pot."""
    cards: tuple[Card, ...] = ()
    bet: int = 0
    """Live chips in front of him in this betting round."""
    total: int = 0
    """His matched chips in the pot this hand: blinds, bets, calls and
    antes everyone posts (he wins at most this much from each opponent)."""
    dead: int = 0
    """Dead money he put in (a big-blind ante, a dead small blind): it goes
    to the main pot and is nobody's matched chips."""
    folded: bool = False
    acted: bool = False
    """Took his turn in this round (betting) or this draw."""
    faced: int = 0
    """The round's bet when he last acted: a raise reopens the betting to him
    only when it lifts the bet a full raise above this."""
    discards: tuple[Card, ...] = ()
    """His discards in the current draw: never dealt back to him."""
    last_discard_count: int = -1
    """How many he threw in the latest draw (-1: no draw yet)."""
    no_raise: bool = False
    """His draw clock ran out: no bet or raise for the rest of the hand."""
    timed_out: bool = False
    """His action clock ran out in this hand (a check or fold it made): the
    table sits him out once the hand is over (``table.hand_result``)."""
    shown: bool = False
    mucked: bool = False

    @property
    def in_hand(self) -> bool:
        """Still contesting a pot."""
        return not (self.folded or self.mucked)

    @property
    def can_bet(self) -> bool:
        """In the hand with chips behind."""
        return not (self.folded or self.mucked) and self.stack > 0

    @property
    def all_in(self) -> bool:
        """In the hand with no chips behind."""
        return not self.folded and self.stack == 0


@dataclass(frozen=True, slots=True)
class Receipt:
    """A card a player got: by which event (its version) and from where in
    the committed orders (``tree`` 0 is the deck, ``n`` the n-th reshuffle;
    ``position`` from its top)."""

    player: int
    version: int
    tree: int
    position: int


@dataclass(frozen=True)
class HandState:
    """Everything about a hand, hidden parts included (see ``view``)."""

    rules: Rules
    variant: Variant
    players: tuple[Player, ...]
    button: int
    button_dead: bool
    deck: tuple[Card, ...]
    seed: int
    stub: tuple[Card, ...]
    """Undealt cards, top first."""
    muck: tuple[Card, ...] = ()
    """Discards and folded hands, available to a reshuffle."""
    phase: Phase = Phase.DEALING
    round: int = -1
    """The current or latest betting round, from 0."""
    draw: int = -1
    """The current or latest draw, from 0."""
    to_act: int | None = None
    current_bet: int = 0
    """The highest round total anyone must match."""
    full_level: int = 0
    """The round total set by the last full bet or raise (fixed limit
    raises are made from here, ignoring short all-ins)."""
    min_raise: int = 0
    """The size of the last full bet or raise this round."""
    bets: int = 0
    """Full bets and raises this round, for the fixed-limit cap."""
    aggressor: int | None = None
    """Who bet or raised last in this round."""
    blind_level: int = 0
    """The largest blind (the over blind if posted, else the big blind)."""
    largest_blind: int | None = None
    """Who posted the largest blind."""
    parole_by: int | None = None
    """Who offered Parole (only once a hand)."""
    parole_agreed: bool = False
    """Everyone accepted: the pots are split without a showdown."""
    reshuffles: int = 0
    commitment: Commitment = Commitment.MERKLE
    roots: tuple[str, ...] = ()
    """The published commitments, one per tree: the deck, then each reshuffle."""
    trees: tuple[tuple[Card, ...], ...] = ()
    """The committed orders (secret): the deck, then each reshuffle's stub."""
    receipts: tuple[Receipt, ...] = ()
    """Every card dealt or drawn, in order (secret but to its owner)."""
    showdown_order: tuple[int, ...] = ()
    rake: Rake | None = None
    """What the house takes from the pots (RULES.md 8; None: nothing)."""
    raked: int = 0
    """The chips the house took (``HandRaked``): in no stack and no award."""
    awards: tuple[PotAwarded, ...] = ()
    version: int = 0
    """How many events made this state."""

    @property
    def complete(self) -> bool:
        """Every pot is awarded."""
        return self.phase is Phase.COMPLETE

    @property
    def pot(self) -> int:
        """All chips put in this hand, current bets included."""
        return sum(p.total + p.dead for p in self.players)

    def left_of(self, start: int) -> range:
        """Player positions clockwise after ``start``, ending with ``start``."""
        n = len(self.players)
        return range(start + 1, start + 1 + n)

    def position(self, index: int) -> int:
        """``index`` folded into the table (for ``left_of`` results)."""
        return index % len(self.players)

    def in_hand(self) -> list[int]:
        """Positions still contesting a pot."""
        return [i for i, p in enumerate(self.players) if p.in_hand]

    def can_bet(self) -> list[int]:
        """Positions that can still put chips in."""
        return [i for i, p in enumerate(self.players) if p.can_bet]
