"""The state of one casino round: an immutable value, the fold of its events.

Only ``casino.evolve`` builds new states; everything here is a plain value
or a question about one.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum, unique

from poker.engine.cards import Card
from poker.engine.casino.paytable import Hand
from poker.engine.casino.rules import CasinoRules
from poker.engine.casino.settle import Result


@unique
class Phase(StrEnum):
    """Where a round is."""

    DEALING = "dealing"
    """BONUS stakes and cards are going out; nobody may act yet."""
    FIRST_EXCHANGE = "first-exchange"
    """Each box in turn exchanges 1 to 5 cards (staking B on ANTE) or stands."""
    SECOND_EXCHANGE = "second-exchange"
    """Each box that exchanged in turn exchanges one card (B on BOX) or stands."""
    DECISION = "decision"
    """Each box in turn plays (BET = 2 x ANTE) or folds."""
    SHOWDOWN = "showdown"
    """The dealer's hand is up; he exchanges, then the boxes are settled."""
    COMPLETE = "complete"
    """Every box is settled."""


EXCHANGE_PHASES = (Phase.FIRST_EXCHANGE, Phase.SECOND_EXCHANGE)
"""The exchange rounds, by their number in ``ExchangeStarted``."""


@dataclass(frozen=True)
class Box:
    """One box's part of the round."""

    name: str
    stack: int
    """Chips behind, not staked."""
    original: int
    """The original bet B: each exchange stakes one more B."""
    cards: tuple[Card, ...] = ()
    """In deal order; a card drawn takes the place of the one thrown."""
    ante: int = 0
    """Staked before the decision: BONUS, ANTE and BOX gathered, so
    B x (1 + exchanges)."""
    bet: int = 0
    """Staked on BET when he played: 2 x ANTE."""
    exchanges: int = 0
    """Exchanges made, 0 to 2."""
    thrown: tuple[Card, ...] = ()
    """Cards thrown in the exchange under way, until their replacements come."""
    acted: bool = False
    """Took his turn in the current exchange or decision."""
    folded: bool = False
    result: Result | None = None
    hand: Hand | None = None
    """His final hand, once settled."""
    won: int = 0
    """What came back to him at the settlement."""

    @property
    def played(self) -> bool:
        """Staked BET against the dealer."""
        return self.bet > 0


@dataclass(frozen=True)
class CasinoState:
    """Everything about a round, hidden parts included (see ``casino.view``)."""

    rules: CasinoRules
    boxes: tuple[Box, ...]
    deck: tuple[Card, ...]
    seed: int
    stub: tuple[Card, ...]
    """Undealt cards, top first."""
    muck: tuple[Card, ...] = ()
    """Discards, available to a reshuffle."""
    dealer: tuple[Card, ...] = ()
    """The dealer's cards, in deal order."""
    dealer_shown: bool = False
    dealer_exchanged: bool = False
    dealer_discarded: tuple[Card, ...] = ()
    phase: Phase = Phase.DEALING
    to_act: int | None = None
    reshuffles: int = 0
    version: int = 0
    """How many events made this state."""

    @property
    def complete(self) -> bool:
        """Every box is settled."""
        return self.phase is Phase.COMPLETE

    @property
    def staked(self) -> int:
        """Chips on the layout now: every box's ANTE and BET until settled."""
        return sum(b.ante + b.bet for b in self.boxes if b.result is None)
