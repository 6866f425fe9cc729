"""Deuce-to-seven lowball (RULES.md section 4): aces high, straights and flushes count."""

from __future__ import annotations

import random
from itertools import pairwise

import pytest
from pokerkit import StandardLowHand

from poker.engine.cards import Card, cards, deck_52
from poker.engine.evaluate import Category, Ranking, category, rank_27
from tests.engine.evaluate_support import one_hand_per_class

Hand = tuple[Card, ...]


@pytest.fixture(scope="module")
def classes() -> list[Hand]:
    return one_hand_per_class()


def _worst_and_best(hands: list[Hand], wanted: Category) -> tuple[int, int]:
    mine = [rank_27(h) for h in hands if category(h, Ranking.DEUCE_TO_SEVEN) is wanted]
    return min(mine), max(mine)


def test_seven_five_four_three_two_unsuited_is_the_best(classes: list[Hand]) -> None:
    best = max(classes, key=rank_27)
    assert sorted(c.rank for c in best) == [2, 3, 4, 5, 7]
    assert rank_27(cards("7c 5d 4h 3s 2c")) == rank_27(best)
    assert sorted(map(rank_27, classes))[-2] < rank_27(best)  # and alone at the top


def test_ace_to_five_is_ace_high_not_a_straight() -> None:
    wheel = cards("Ah 2c 3d 4s 5h")
    assert category(wheel, Ranking.DEUCE_TO_SEVEN) is Category.HIGH_CARD
    assert rank_27(wheel) < rank_27(cards("Kh 5c 4d 3s 2h"))
    assert rank_27(wheel) > rank_27(cards("2h 2c 3d 4s 5h"))


def test_a_straight_is_worse_than_any_three_of_a_kind(classes: list[Hand]) -> None:
    best_straight = _worst_and_best(classes, Category.STRAIGHT)[1]
    assert best_straight == rank_27(cards("6c 5d 4h 3s 2c"))
    assert best_straight < _worst_and_best(classes, Category.THREE_OF_A_KIND)[0]


def test_a_flush_is_worse_than_any_straight(classes: list[Hand]) -> None:
    best_flush = _worst_and_best(classes, Category.FLUSH)[1]
    assert best_flush == rank_27(cards("7h 5h 4h 3h 2h"))
    assert best_flush < _worst_and_best(classes, Category.STRAIGHT)[0]


def test_any_pair_is_worse_than_no_pair(classes: list[Hand]) -> None:
    best_pair = _worst_and_best(classes, Category.ONE_PAIR)[1]
    assert best_pair == rank_27(cards("2h 2c 3d 4s 5h"))
    assert best_pair < _worst_and_best(classes, Category.HIGH_CARD)[0]


def test_identical_ranks_tie_whatever_the_suits() -> None:
    assert rank_27(cards("8h 6c 4d 3s 2c")) == rank_27(cards("8s 6d 4h 3c 2h"))


def test_orders_hands_like_pokerkit(classes: list[Hand]) -> None:
    rng = random.Random(27)
    hands = classes + [tuple(rng.sample(deck_52(), 5)) for _ in range(3_000)]
    ranked = sorted((rank_27(h), StandardLowHand("".join(map(str, h)))) for h in hands)
    for (ours_a, theirs_a), (ours_b, theirs_b) in pairwise(ranked):
        assert (ours_a < ours_b) == (theirs_a < theirs_b)
        assert (ours_a == ours_b) == (theirs_a == theirs_b)
