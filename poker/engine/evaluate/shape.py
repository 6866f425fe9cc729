"""What five ranks are worth: the one definition every lookup table is built from.

Evaluating a hand fast means looking it up.  The tables are filled once by the
slow, readable functions here, called for every rank multiset, so each game's
rules are written down exactly once and the fast paths cannot disagree with them.

A value is an ``int``, higher is better: the category's place in the game's
order, then the five ranks in *group order* (the largest group first, equal
groups by rank, high to low), four bits each::

    value = code << 20 | r1 << 16 | r2 << 12 | r3 << 8 | r4 << 4 | r5

so plain integer comparison is the poker comparison and a value can be read back
(:func:`category_of`) for display.  An ace playing low is written as rank 1.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum, unique
from typing import Final

from poker.engine.errors import EngineError, ErrorCode

RANK_BITS: Final = 4
"""Bits per rank field: ranks 1 (a low ace) to 14 (a high ace) fit in a nibble."""
CATEGORY_SHIFT: Final = 5 * RANK_BITS
"""Where the category code starts: above the five rank fields."""


class HandError(EngineError, ValueError):
    """Cards that a ranking cannot evaluate: not five, or not from its deck.

    Only a bug upstream (a hand built from the wrong deck) can cause it, so it
    is a malformed set-up rather than a refused command.
    """

    code = ErrorCode.MALFORMED


@unique
class Category(StrEnum):
    """The named kinds of five-card hand, for display and pay tables."""

    FIVE_OF_A_KIND = "five-of-a-kind"
    """Five cards of one rank, only possible with jokers ("Poker")."""
    ROYAL_FLUSH = "royal-flush"
    """Ten to ace of one suit; named apart because pay tables pay it apart."""
    STRAIGHT_FLUSH = "straight-flush"
    """Five cards in sequence, all of one suit."""
    FOUR_OF_A_KIND = "four-of-a-kind"
    """Four cards of one rank."""
    FULL_HOUSE = "full-house"
    """Three cards of one rank and two of another."""
    FLUSH = "flush"
    """Five cards of one suit, not in sequence."""
    STRAIGHT = "straight"
    """Five cards in sequence, not all of one suit."""
    THREE_OF_A_KIND = "three-of-a-kind"
    """Three cards of one rank, the others unmatched."""
    TWO_PAIR = "two-pair"
    """Two pairs and an odd card."""
    ONE_PAIR = "one-pair"
    """One pair and three unmatched cards."""
    HIGH_CARD = "high-card"
    """Nothing above: the hand plays by its highest cards."""


HIGH_ORDER: Final = (
    Category.HIGH_CARD,
    Category.ONE_PAIR,
    Category.TWO_PAIR,
    Category.THREE_OF_A_KIND,
    Category.STRAIGHT,
    Category.FLUSH,
    Category.FULL_HOUSE,
    Category.FOUR_OF_A_KIND,
    Category.STRAIGHT_FLUSH,
    Category.ROYAL_FLUSH,
    Category.FIVE_OF_A_KIND,
)
"""Standard order, lowest first; the joker game's five of a kind tops it."""

THIRTY_TWO_ORDER: Final = (
    Category.HIGH_CARD,
    Category.ONE_PAIR,
    Category.TWO_PAIR,
    Category.THREE_OF_A_KIND,
    Category.STRAIGHT,
    Category.FULL_HOUSE,
    Category.FLUSH,
    Category.FOUR_OF_A_KIND,
    Category.STRAIGHT_FLUSH,
    Category.ROYAL_FLUSH,
)
"""32 Card Draw's house order: the flush (rarer with 32 cards) beats the full house."""


@dataclass(frozen=True)
class Rules:
    """How one game reads five ranks: which categories exist and in what order."""

    order: tuple[Category, ...]
    """The categories, lowest first; a category's index is its code in a value."""
    ace_low_straight: frozenset[int] = frozenset()
    """The ranks of the straight in which the ace plays low (empty: none)."""
    ace_low: bool = False
    """The ace is always low (rank 1): ace-to-five lowball."""
    straights_and_flushes: bool = True
    """Whether straights and flushes count at all (not in ace-to-five)."""


HIGH_RULES: Final = Rules(HIGH_ORDER, ace_low_straight=frozenset({14, 2, 3, 4, 5}))
"""52-card high (and, with jokers, its five of a kind): A-2-3-4-5 is the 5-high straight."""

THIRTY_TWO_RULES: Final = Rules(THIRTY_TWO_ORDER, ace_low_straight=frozenset({14, 7, 8, 9, 10}))
"""32 Card Draw: with sevens the lowest rank, A-7-8-9-T is the ten-high, lowest straight."""

DEUCE_TO_SEVEN_RULES: Final = Rules(HIGH_ORDER)
"""2-7 lowball ranks hands as high poker with the ace always high (no A-2-3-4-5 straight)."""

ACE_TO_FIVE_RULES: Final = Rules(HIGH_ORDER, ace_low=True, straights_and_flushes=False)
"""A-5 lowball: the ace is rank 1 and only the pair-type categories exist."""


def value(ranks: Sequence[int], suited: bool, rules: Rules) -> int:
    """The value of five ranks (2..14) under ``rules``; ``suited``: all one suit.

    A suited hand with a repeated rank (only a joker can make one) is no flush:
    five cards of one suit have five different ranks, so it is valued like the
    same ranks in mixed suits.
    """
    if rules.ace_low:
        ranks = [1 if r == 14 else r for r in ranks]
    category, ordered = _shape(ranks, suited, rules)
    return encode(rules.order.index(category), ordered)


def encode(code: int, ordered: Sequence[int]) -> int:
    """Pack a category code and five group-ordered ranks into one comparable int."""
    packed = code
    for rank in ordered:
        packed = packed << RANK_BITS | rank
    return packed


def category_of(packed: int, order: Sequence[Category]) -> Category:
    """The category written in a value (see the module docstring)."""
    return order[packed >> CATEGORY_SHIFT]


def _shape(ranks: Sequence[int], suited: bool, rules: Rules) -> tuple[Category, tuple[int, ...]]:
    """The category and the group-ordered ranks of five ranks."""
    counts = Counter(ranks)
    ordered = tuple(sorted(ranks, key=lambda r: (counts[r], r), reverse=True))
    shape = sorted(counts.values(), reverse=True)
    if shape != [1, 1, 1, 1, 1]:
        return _GROUPED[tuple(shape)], ordered
    if not rules.straights_and_flushes:
        return Category.HIGH_CARD, ordered
    straight = _straight(ordered, rules)
    if straight is None:
        return (Category.FLUSH if suited else Category.HIGH_CARD), ordered
    if not suited:
        return Category.STRAIGHT, straight
    royal = straight[0] == 14
    return (Category.ROYAL_FLUSH if royal else Category.STRAIGHT_FLUSH), straight


_GROUPED: Final = {
    (5,): Category.FIVE_OF_A_KIND,
    (4, 1): Category.FOUR_OF_A_KIND,
    (3, 2): Category.FULL_HOUSE,
    (3, 1, 1): Category.THREE_OF_A_KIND,
    (2, 2, 1): Category.TWO_PAIR,
    (2, 1, 1, 1): Category.ONE_PAIR,
}
"""Categories decided by the sizes of the rank groups alone."""


def _straight(descending: tuple[int, ...], rules: Rules) -> tuple[int, ...] | None:
    """The straight's ranks, top card first, if five distinct ranks make one."""
    if descending[0] - descending[4] == 4:
        return descending
    if set(descending) == rules.ace_low_straight:
        return (*descending[1:], 1)
    return None
