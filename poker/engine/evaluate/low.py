"""Lowball (52 cards): deuce-to-seven and ace-to-five, one dict lookup per hand.

A low value is ``LOW_CEILING`` minus the hand's value as a *high* hand under
the game's reading of the ranks, so higher is better here too and showdowns
compare every game with ``>``.  The tables are as small as the high game's and,
like them, filled on first use.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from poker.engine.cards import Card
from poker.engine.evaluate.keys import CARD_KEYS, SUIT_BITS, SUIT_MASK, LazyTables
from poker.engine.evaluate.shape import (
    ACE_TO_FIVE_RULES,
    CATEGORY_SHIFT,
    DEUCE_TO_SEVEN_RULES,
    HIGH_ORDER,
    Category,
    Rules,
    category_of,
    value,
)

LOW_CEILING: Final = 1 << (CATEGORY_SHIFT + 4)
"""Above every high value, so ``LOW_CEILING - value`` is positive and order-reversing."""


def _low(rules: Rules) -> LazyTables:
    """A game's tables with every value turned upside down."""
    return LazyTables(lambda ranks, suited: LOW_CEILING - value(ranks, suited, rules))


DEUCE_TO_SEVEN_TABLES: Final = _low(DEUCE_TO_SEVEN_RULES)
ACE_TO_FIVE_TABLES: Final = _low(ACE_TO_FIVE_RULES)
_27_PLAIN: Final = DEUCE_TO_SEVEN_TABLES.plain
_27_FLUSH: Final = DEUCE_TO_SEVEN_TABLES.flush
_A5_PLAIN: Final = ACE_TO_FIVE_TABLES.plain  # flushes do not count: the plain table is enough
_KEYS: Final = CARD_KEYS


def rank_27(hand: Sequence[Card]) -> int:
    """The deuce-to-seven value of five distinct standard cards; higher is a better low.

    Aces are always high, straights and flushes count against the hand
    (A-2-3-4-5 is an ace-high no-pair hand), so 7-5-4-3-2 in mixed suits is the
    best hand.  Identical ranks tie.
    """
    keys = _KEYS
    try:
        a, b, c, d, e = hand
        ka = keys[a]
        kb = keys[b]
        kc = keys[c]
        kd = keys[d]
        ke = keys[e]
        if ka & kb & kc & kd & ke & SUIT_MASK:
            return _27_FLUSH[(ka + kb + kc + kd + ke) >> SUIT_BITS]
        return _27_PLAIN[(ka + kb + kc + kd + ke) >> SUIT_BITS]
    except (KeyError, IndexError, ValueError):
        return DEUCE_TO_SEVEN_TABLES.first_use(hand)


def rank_a5(hand: Sequence[Card]) -> int:
    """The ace-to-five value of five distinct standard cards; higher is a better low.

    Aces are low and straights and flushes do not count; pairs do (no pair,
    then one pair, two pair, trips, full house, quads), and within a kind the
    ranks compare high to low in group order.  5-4-3-2-A is the best hand.
    """
    keys = _KEYS
    try:
        a, b, c, d, e = hand
        return _A5_PLAIN[(keys[a] + keys[b] + keys[c] + keys[d] + keys[e]) >> SUIT_BITS]
    except (KeyError, IndexError, ValueError):
        return ACE_TO_FIVE_TABLES.first_use(hand)


def low_category(low_value: int) -> Category:
    """The high-hand category behind a low value (2-7 counts straights and flushes)."""
    return category_of(LOW_CEILING - low_value, HIGH_ORDER)
