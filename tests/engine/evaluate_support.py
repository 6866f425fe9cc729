"""Shared helpers of the evaluator tests."""

from __future__ import annotations

from itertools import combinations_with_replacement

from poker.engine.cards import Card, make_card
from poker.engine.cards import Suit as S

Hand = tuple[Card, ...]


def one_hand_per_class() -> list[Hand]:
    """One hand for each multiset of ranks (mixed suits) and each flush: every value class."""
    hands = []
    for ranks in combinations_with_replacement(range(2, 15), 5):
        if ranks[0] == ranks[4]:
            continue
        suits = [ranks[:i].count(r) for i, r in enumerate(ranks)]  # repeats take new suits
        if len(set(ranks)) == 5:
            hands.append(tuple(make_card(r, S.SPADES) for r in ranks))
            suits[4] = 1
        hands.append(tuple(make_card(r, S(s)) for r, s in zip(ranks, suits, strict=True)))
    return hands
