"""Ace-to-five lowball (RULES.md section 4): aces low, straights and flushes ignored."""

from __future__ import annotations

import random
from itertools import pairwise

import pytest
from pokerkit import RegularLowHand

from poker.engine.cards import Card, cards, deck_52
from poker.engine.evaluate import Category, Ranking, category, rank_a5
from tests.engine.evaluate_support import one_hand_per_class

Hand = tuple[Card, ...]

KINDS_WORST_FIRST = (
    Category.FOUR_OF_A_KIND,
    Category.FULL_HOUSE,
    Category.THREE_OF_A_KIND,
    Category.TWO_PAIR,
    Category.ONE_PAIR,
    Category.HIGH_CARD,
)


@pytest.fixture(scope="module")
def classes() -> list[Hand]:
    return one_hand_per_class()


def test_five_four_three_two_ace_is_the_best(classes: list[Hand]) -> None:
    best = rank_a5(cards("5c 4d 3h 2s Ac"))
    assert max(map(rank_a5, classes)) == best
    assert rank_a5(cards("5h 4h 3h 2h Ah")) == best  # a straight flush, for all that


def test_straights_do_not_count() -> None:
    assert category(cards("6c 5d 4h 3s 2c"), Ranking.ACE_TO_FIVE) is Category.HIGH_CARD
    assert rank_a5(cards("6c 5d 4h 3s 2c")) > rank_a5(cards("7c 4d 3h 2s Ac"))


def test_flushes_do_not_count() -> None:
    assert category(cards("8h 6h 4h 3h 2h"), Ranking.ACE_TO_FIVE) is Category.HIGH_CARD
    assert rank_a5(cards("8h 6h 4h 3h 2h")) == rank_a5(cards("8s 6h 4h 3h 2h"))


def test_pairs_count_worst_kind_first(classes: list[Hand]) -> None:
    kinds = {
        kind: [rank_a5(h) for h in classes if category(h, Ranking.ACE_TO_FIVE) is kind]
        for kind in KINDS_WORST_FIRST
    }
    assert sum(map(len, kinds.values())) == len(classes)
    for worse, better in pairwise(KINDS_WORST_FIRST):
        assert max(kinds[worse]) < min(kinds[better])


def test_aces_are_the_lowest_pair() -> None:
    assert rank_a5(cards("Ah Ac 4d 3s 2c")) > rank_a5(cards("2h 2c 5d 4s 3c"))


def test_kickers_compare_high_to_low() -> None:
    assert rank_a5(cards("8h 5c 4d 3s 2c")) > rank_a5(cards("8s 6d 3h 2c Ah"))


def test_identical_ranks_tie_whatever_the_suits() -> None:
    assert rank_a5(cards("8h 6c 4d 3s Ac")) == rank_a5(cards("8s 6d 4h 3c Ah"))


def test_orders_hands_like_pokerkit(classes: list[Hand]) -> None:
    rng = random.Random(15)
    hands = classes + [tuple(rng.sample(deck_52(), 5)) for _ in range(3_000)]
    ranked = sorted((rank_a5(h), RegularLowHand("".join(map(str, h)))) for h in hands)
    for (ours_a, theirs_a), (ours_b, theirs_b) in pairwise(ranked):
        assert (ours_a < ours_b) == (theirs_a < theirs_b)
        assert (ours_a == ours_b) == (theirs_a == theirs_b)
