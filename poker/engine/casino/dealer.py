"""The dealer's exchange (RULES.md 5): which of his five cards he changes.

He takes the first rule that fits his hand, jokers wild throughout:

1. straight or better: stands pat;
2. two pair: changes the odd card;
3. three of a kind: changes the two others;
4. four to a flush: changes the fifth card;
5. four to an open-ended straight: changes the fifth card;
6. a pair: changes the three others;
7. four to an inside straight: changes the fifth card;
8. otherwise: changes all five.

A joker is never changed.  It is wild in the exchange too: the hand's
category is its joker-high value, so a joker makes a pair with the highest
card, three of a kind with a pair, four to a flush with three of a suit,
and fills a missing rank in a straight draw.  A four to a straight is
open-ended when two different ranks complete it (2-3-4-5: ace or six), else
inside (A-2-3-4 and J-Q-K-A: one rank).  Of several fours in one class he
keeps the one making the higher straight; of two making the same straight
(J-J-T-9-8), he changes the later-dealt card of the pair.

The function is the hot path of the house simulation (``simulate``), so it
works on the cards' ints directly and looks straight draws up by rank mask.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import Final

from poker.engine.cards import JOKER_BASE, Card
from poker.engine.evaluate import rank_joker_high
from poker.engine.evaluate.shape import CATEGORY_SHIFT, HIGH_ORDER, Category

_STRAIGHT: Final = HIGH_ORDER.index(Category.STRAIGHT)
_THREE: Final = HIGH_ORDER.index(Category.THREE_OF_A_KIND)
_TWO_PAIR: Final = HIGH_ORDER.index(Category.TWO_PAIR)
_PAIR: Final = HIGH_ORDER.index(Category.ONE_PAIR)
_ALL: Final = (0, 1, 2, 3, 4)

_WINDOWS: Final = tuple(
    (top, sum(1 << (r % 13) for r in range(top - 4, top + 1))) for top in range(3, 13)
)
"""Each straight as (index of its top rank, mask of its ranks by index
0 = deuce .. 12 = ace); the five-high straight's ace is index 12, written
as -1 = 12 mod 13."""


def dealer_discards(hand: Sequence[Card]) -> tuple[int, ...]:
    """The positions (0-4, in deal order) of the cards the dealer changes."""
    value = rank_joker_high(hand)
    code = value >> CATEGORY_SHIFT
    if code >= _STRAIGHT:
        return ()
    if code == _TWO_PAIR:
        return _keep_ranks(hand, value >> 16 & 0xF, value >> 8 & 0xF)
    top = value >> 16 & 0xF  # the rank of the largest group
    if code == _THREE:
        return _keep_ranks(hand, top, top)
    # A pair or less: at most one joker (two make three of a kind).
    flush = _flush_draw(hand)
    if flush is not None:
        return (flush,)
    open_ended, inside = _straight_draws(hand)
    if open_ended is not None:
        return (open_ended,)
    if code == _PAIR:
        return _keep_ranks(hand, top, top)
    if inside is not None:
        return (inside,)
    return _ALL


def _keep_ranks(hand: Sequence[Card], first: int, second: int) -> tuple[int, ...]:
    """Positions of the natural cards of neither rank: jokers stay."""
    return tuple(
        i
        for i, c in enumerate(hand)
        if c < JOKER_BASE and (r := (c >> 2) + 2) != first and r != second
    )


def _flush_draw(hand: Sequence[Card]) -> int | None:
    """The position of the card off four to a flush (a joker fills a suit)."""
    jokers = sum(1 for c in hand if c >= JOKER_BASE)
    counts = [0, 0, 0, 0]
    for c in hand:
        if c < JOKER_BASE:
            counts[c & 3] += 1
    for suit, n in enumerate(counts):
        if n + jokers == 4:
            return next(i for i, c in enumerate(hand) if c < JOKER_BASE and c & 3 != suit)
    return None


def _straight_draws(hand: Sequence[Card]) -> tuple[int | None, int | None]:
    """The card to change for the best open-ended and the best inside draw.

    Each candidate four is the hand but one natural card (jokers are kept);
    it must hold no rank twice.  The best is the one completing to the
    highest straight, then the one whose thrown card came later in the deal.
    """
    bits = [0 if c >= JOKER_BASE else 1 << (c >> 2) for c in hand]
    ranks = 0
    for bit in bits:
        ranks |= bit
    naturals = len(bits) - bits.count(0)
    distinct = ranks.bit_count()
    if distinct == naturals:  # no pair: throwing a card drops its rank
        fours = [(i, ranks ^ bit) for i, bit in enumerate(bits) if bit]
    elif distinct == naturals - 1:  # one pair: only throwing a card of it leaves four ranks
        fours = [(i, ranks) for i, bit in enumerate(bits) if bit and bits.count(bit) == 2]
    else:
        return None, None
    best_open = best_inside = (-1, -1)
    for i, mask in fours:
        ways, top = _completions(mask)
        if ways >= 2:
            best_open = max(best_open, (top, i))
        elif ways == 1:
            best_inside = max(best_inside, (top, i))
    return (
        None if best_open[1] < 0 else best_open[1],
        None if best_inside[1] < 0 else best_inside[1],
    )


@cache
def _completions(mask: int) -> tuple[int, int]:
    """How many ranks complete the ranks ``mask`` (jokers filling the rest)
    to a straight, and the top rank index of the highest straight made."""
    ways, best = 0, -1
    for rank in range(13):
        bit = 1 << rank
        if mask & bit:
            continue
        tops = [top for top, window in _WINDOWS if (mask | bit) & ~window == 0]
        if tops:
            ways += 1
            best = max(best, *tops)
    return ways, best
