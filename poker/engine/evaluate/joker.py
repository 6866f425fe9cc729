"""Casino Draw Poker: 52 cards plus wild jokers, five of a kind on top.

A joker stands for whatever card makes the best hand, a card already in the
hand included (four aces and a joker are five aces).  A hand made with jokers
is worth exactly what the best natural hand it can become is worth, so the
value is the maximum over substitutions, on the scale of :func:`rank_high`.

The search is bounded: the jokers only need ranks, taken as a multiset
(``combinations_with_replacement``: at most 1,820 tries for four jokers, and
6,188 for five), and one suit each: the suit of the natural cards when those
are all one suit (the only case where a flush is possible), else any.  Results
are cached by (natural ranks, all one suit): at most a few thousand keys.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from itertools import combinations_with_replacement

from poker.engine.cards import JOKER_BASE, Card
from poker.engine.evaluate.high import rank_high
from poker.engine.evaluate.keys import RANKS
from poker.engine.evaluate.shape import HIGH_RULES, HandError, value


def rank_joker_high(hand: Sequence[Card]) -> int:
    """The high value of five cards of which any may be jokers; higher is better.

    Five of a kind beats a royal flush; otherwise as :func:`rank_high`, which
    gives the same int for a hand without jokers.
    """
    if len(hand) != 5:
        raise HandError("a hand is five cards")
    naturals = [card for card in hand if card < JOKER_BASE]
    if len(naturals) == 5:
        return rank_high(hand)
    ranks = tuple(sorted(card // 4 + 2 for card in naturals))
    one_suit = len({card & 3 for card in naturals}) <= 1
    return _best_with_jokers(ranks, one_suit)


@cache
def _best_with_jokers(ranks: tuple[int, ...], one_suit: bool) -> int:
    """The best value the natural ``ranks`` make with jokers for the missing cards."""
    jokers = 5 - len(ranks)
    return max(
        value(ranks + extra, one_suit, HIGH_RULES)
        for extra in combinations_with_replacement(RANKS, jokers)
    )
