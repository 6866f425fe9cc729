"""52-card high poker (Five Card Draw): one dict lookup per hand."""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial
from typing import Final

from poker.engine.cards import Card
from poker.engine.evaluate.keys import CARD_KEYS, SUIT_BITS, SUIT_MASK, LazyTables
from poker.engine.evaluate.shape import HIGH_RULES, value

TABLES: Final = LazyTables(partial(value, rules=HIGH_RULES))
"""6,175 plain and 1,287 flush values, filled on first use."""
_PLAIN: Final = TABLES.plain
_FLUSH: Final = TABLES.flush
_KEYS: Final = CARD_KEYS


def rank_high(hand: Sequence[Card]) -> int:
    """The standard high value of five different standard cards; higher is better.

    Straight flush (royal included) > four of a kind > full house > flush >
    straight > three of a kind > two pair > one pair > high card; A-2-3-4-5 is
    the lowest straight.  Identical ranks tie.  This is the hot path: a card
    outside the deck raises :class:`HandError`, a repeated card is not detected
    (the cards come from one deck).
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
            return _FLUSH[(ka + kb + kc + kd + ke) >> SUIT_BITS]
        return _PLAIN[(ka + kb + kc + kd + ke) >> SUIT_BITS]
    except (KeyError, IndexError, ValueError):
        return TABLES.first_use(hand)
