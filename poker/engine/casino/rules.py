"""A casino table's settings for one round, and what the game fixes."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Final

from poker.engine.cards import Card, deck_with_jokers
from poker.engine.casino.paytable import DEFAULT_PAY_TABLE, PayTable
from poker.engine.evaluate.shape import HIGH_RULES, value
from poker.engine.settings import bounded

GAME: Final = "casino-draw"
"""The game's name in the API and in hand scripts."""
MAX_BOXES: Final = 4
"""RULES.md 5: one to four players, one box each."""
HAND_SIZE: Final = 5
MAX_JOKERS: Final = 4
"""Room's choice (RULES.md 5 only says "configurable"): at most four jokers,
the most any casino deck carries; more would make five of a kind, the top
line of the pay table, an everyday hand."""
QUALIFYING: Final = value((11, 11, 4, 3, 2), False, HIGH_RULES)
"""The least hand the dealer qualifies with: a pair of jacks (RULES.md 5),
as a ``rank_joker_high`` value."""


@dataclass(frozen=True, slots=True)
class CasinoRules:
    """What a casino table configures (bounds in each field's metadata,
    ``poker.engine.settings``): the jokers in the deck and the pay table.
    Each box's original bet comes with the box (``Entrant.original``)."""

    jokers: int = field(default=2, metadata=bounded(0, MAX_JOKERS))
    pay_table: PayTable = DEFAULT_PAY_TABLE

    @property
    def deck(self) -> tuple[Card, ...]:
        """The 52 cards and the jokers, in card order."""
        return deck_with_jokers(self.jokers)
