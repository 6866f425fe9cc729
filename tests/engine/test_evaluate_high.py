"""52-card high poker (RULES.md section 3), over every hand and against treys and eval7."""

from __future__ import annotations

import random
from collections import Counter
from itertools import combinations, pairwise

import eval7  # type: ignore[import-untyped]
import pytest
import treys  # type: ignore[import-untyped]

from poker.engine.cards import Card, cards, deck_52
from poker.engine.evaluate import Category, HandError, Ranking, category, rank_high
from tests.engine.evaluate_support import one_hand_per_class

Hand = tuple[Card, ...]


@pytest.fixture(scope="module")
def value_counts() -> Counter[int]:
    return Counter(map(rank_high, combinations(deck_52(), 5)))


def test_every_hand_takes_one_of_7462_values(value_counts: Counter[int]) -> None:
    assert sum(value_counts.values()) == 2_598_960
    assert len(value_counts) == 7_462


def test_category_counts(value_counts: Counter[int]) -> None:
    by_value = {rank_high(hand): hand for hand in one_hand_per_class()}
    assert by_value.keys() == value_counts.keys()
    counts: Counter[Category] = Counter()
    for value, n in value_counts.items():
        counts[category(by_value[value], Ranking.HIGH)] += n
    assert counts == {
        Category.ROYAL_FLUSH: 4,
        Category.STRAIGHT_FLUSH: 36,
        Category.FOUR_OF_A_KIND: 624,
        Category.FULL_HOUSE: 3_744,
        Category.FLUSH: 5_108,
        Category.STRAIGHT: 10_200,
        Category.THREE_OF_A_KIND: 54_912,
        Category.TWO_PAIR: 123_552,
        Category.ONE_PAIR: 1_098_240,
        Category.HIGH_CARD: 1_302_540,
    }


def _same_order(ours: list[int], theirs: list[int]) -> bool:
    """Sorted by our value, theirs never goes the other way and ties exactly where ours do."""
    pairs = sorted(zip(ours, theirs, strict=True))
    return all((a0 < b0) == (a1 < b1) and a1 <= b1 for (a0, a1), (b0, b1) in pairwise(pairs))


def _sample_and_classes(n: int, seed: int) -> list[Hand]:
    rng = random.Random(seed)
    deck = deck_52()
    return [tuple(rng.sample(deck, 5)) for _ in range(n)] + one_hand_per_class()


def test_orders_hands_like_treys() -> None:
    evaluator = treys.Evaluator()
    hands = _sample_and_classes(5_000, seed=52)
    theirs = []
    for hand in hands:
        ints = [treys.Card.new(str(c)) for c in hand]
        theirs.append(-evaluator.evaluate(ints[:2], ints[2:]))  # treys: lower is better
    assert _same_order(list(map(rank_high, hands)), theirs)


def test_orders_hands_like_eval7() -> None:
    hands = _sample_and_classes(5_000, seed=7)
    theirs = [eval7.evaluate([eval7.Card(str(c)) for c in hand]) for hand in hands]
    assert _same_order(list(map(rank_high, hands)), theirs)


def test_ace_to_five_is_the_lowest_straight() -> None:
    wheel = rank_high(cards("Ah 2c 3d 4s 5h"))
    assert category(cards("Ah 2c 3d 4s 5h"), Ranking.HIGH) is Category.STRAIGHT
    assert wheel < rank_high(cards("2c 3d 4s 5h 6h"))
    assert wheel > rank_high(cards("Ah Ad Ac Kh Qh"))


def test_ace_to_five_suited_is_the_lowest_straight_flush() -> None:
    assert rank_high(cards("Ah 2h 3h 4h 5h")) < rank_high(cards("2s 3s 4s 5s 6s"))
    assert rank_high(cards("Ah 2h 3h 4h 5h")) > rank_high(cards("As Ad Ac Ah Kh"))


def test_identical_ranks_tie_whatever_the_suits() -> None:
    assert rank_high(cards("Ah Kc Qc Jc 9c")) == rank_high(cards("As Kh Qh Jh 9d"))


def test_kickers_count_high_to_low() -> None:
    assert rank_high(cards("9h 9s Ac 4c 3d")) > rank_high(cards("9d 9c Kh Qh Jh"))
    assert rank_high(cards("9h 9s Ac Kc 3d")) > rank_high(cards("9d 9c Ah Qh Jh"))


def test_a_joker_is_refused() -> None:
    with pytest.raises(HandError):
        rank_high(cards("Ah Kh Qh Jh X1"))
