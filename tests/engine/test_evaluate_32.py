"""32 Card Draw's house ranking (RULES.md section 2), checked over every one of its hands."""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable
from itertools import combinations, pairwise

import pytest

from poker.engine.cards import Card, cards, deck_32
from poker.engine.evaluate import (
    Category,
    HandError,
    Ranking,
    category,
    rank_32,
    rank_32_split,
    rank_high,
)

Hand = tuple[Card, ...]

HOUSE_ORDER = (
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


@pytest.fixture(scope="module")
def every_hand() -> list[Hand]:
    return list(combinations(deck_32(), 5))


@pytest.fixture(scope="module")
def categories(every_hand: list[Hand]) -> list[Category]:
    return [category(hand, Ranking.THIRTY_TWO) for hand in every_hand]


@pytest.fixture(scope="module")
def values(every_hand: list[Hand]) -> list[int]:
    return list(map(rank_32, every_hand))


def _range_of(values: list[int], categories: list[Category], wanted: Category) -> tuple[int, int]:
    mine = [v for v, c in zip(values, categories, strict=True) if c is wanted]
    return min(mine), max(mine)


def test_there_are_201376_hands(every_hand: list[Hand]) -> None:
    assert len(every_hand) == 201_376


def test_category_counts(categories: list[Category]) -> None:
    assert Counter(categories) == {
        Category.ROYAL_FLUSH: 4,
        Category.STRAIGHT_FLUSH: 16,
        Category.FOUR_OF_A_KIND: 224,
        Category.FLUSH: 204,
        Category.FULL_HOUSE: 1_344,
        Category.STRAIGHT: 5_100,
        Category.THREE_OF_A_KIND: 10_752,
        Category.TWO_PAIR: 24_192,
        Category.ONE_PAIR: 107_520,
        Category.HIGH_CARD: 52_020,
    }


def test_categories_follow_the_house_order(values: list[int], categories: list[Category]) -> None:
    for lower, higher in pairwise(HOUSE_ORDER):
        assert _range_of(values, categories, lower)[1] < _range_of(values, categories, higher)[0]


def test_every_flush_beats_every_full_house(values: list[int], categories: list[Category]) -> None:
    best_full_house = _range_of(values, categories, Category.FULL_HOUSE)[1]
    worst_flush = _range_of(values, categories, Category.FLUSH)[0]
    assert worst_flush > best_full_house


def test_every_four_of_a_kind_beats_every_flush(
    values: list[int], categories: list[Category]
) -> None:
    best_flush = _range_of(values, categories, Category.FLUSH)[1]
    worst_quads = _range_of(values, categories, Category.FOUR_OF_A_KIND)[0]
    assert worst_quads > best_flush


def test_hands_of_one_deal_never_tie(every_hand: list[Hand], values: list[int]) -> None:
    """Equal values need the same most significant card, so only overlapping hands tie.

    Full distinctness does not hold: K♥ Q♠ J♠ 9♠ 7♠ and K♥ Q♣ J♠ 9♠ 7♠ tie, but both
    hold the K♥, so they cannot meet at a showdown.
    """
    shared: dict[int, set[Card]] = defaultdict(lambda: set(deck_32()))
    for hand, value in zip(every_hand, values, strict=True):
        shared[value].intersection_update(hand)
    assert len(shared) < len(every_hand)  # some hands do tie...
    assert all(shared.values())  # ...but every tie shares a card


def test_suit_tie_break_only_orders_equal_ranks(every_hand: list[Hand], values: list[int]) -> None:
    ordered = sorted(zip(values, map(rank_32_split, every_hand), strict=True))
    assert all(a[1] <= b[1] for a, b in pairwise(ordered))


def _is_ace_to_ten(hand: Iterable[Card]) -> bool:
    return {c.rank for c in hand} == {14, 7, 8, 9, 10}


def _agrees_in_order(pairs: list[tuple[int, int]]) -> bool:
    """Sorted by the first value, the second rises and ties exactly with it."""
    pairs.sort()
    return all((a0 < b0) == (a1 < b1) and a1 <= b1 for (a0, a1), (b0, b1) in pairwise(pairs))


@pytest.mark.parametrize("left_out", [Category.FLUSH, Category.FULL_HOUSE])
def test_split_orders_like_52_card_high_where_the_rules_agree(
    every_hand: list[Hand], categories: list[Category], left_out: Category
) -> None:
    """Leaving out one side of flush-versus-full-house and the A-7-8-9-T straights
    (a high card in 52-card poker), both rankings order every pair of hands alike."""
    pairs = [
        (rank_32_split(hand), rank_high(hand))
        for hand, cat in zip(every_hand, categories, strict=True)
        if cat is not left_out and not _is_ace_to_ten(hand)
    ]
    assert len(pairs) > 190_000
    assert _agrees_in_order(pairs)


def test_ace_to_ten_is_the_lowest_straight(
    every_hand: list[Hand], categories: list[Category]
) -> None:
    straights = [h for h, c in zip(every_hand, categories, strict=True) if c is Category.STRAIGHT]
    lowest = min(map(rank_32_split, straights))
    assert rank_32_split(cards("As 7c 8d 9h Ts")) == lowest
    assert rank_32(cards("As 7c 8d 9h Ts")) < rank_32(cards("7s 8s 9s Ts Jc"))
    assert rank_32(cards("As 7c 8d 9h Ts")) > rank_32(cards("Ah Ad Ac Kh Qh"))


def test_ace_to_ten_suited_is_a_straight_flush_not_royal() -> None:
    hand = cards("Ah 7h 8h 9h Th")
    assert category(hand, Ranking.THIRTY_TWO) is Category.STRAIGHT_FLUSH
    assert rank_32(hand) < rank_32(cards("7s 8s 9s Ts Js"))


def _beats(winner: str, loser: str) -> bool:
    return rank_32(cards(winner)) > rank_32(cards(loser))


def test_ranks_decide_before_suits() -> None:
    assert _beats("As Kc Qc Jc 9c", "Kh Qh Jh 9h 8d")


def test_suits_break_ties_hearts_diamonds_clubs_spades() -> None:
    assert _beats("Ah Kc Qc Jc 9c", "Ad Kh Qh Jh 9h")
    assert _beats("Ad Kc Qc Jc 9c", "Ac Kh Qh Jh 9h")
    assert _beats("Ac Kd Qd Jd 9d", "As Kh Qh Jh 9h")


def test_the_higher_pairs_best_suit_decides_two_pair() -> None:
    assert _beats("Kh Ks 8c 8d 7s", "Kd Kc 8h 8s 7h")


def test_the_ten_decides_ace_to_ten() -> None:
    assert _beats("Th 9s 8s 7s As", "Td 9h 8h 7h Ah")


def test_the_trips_decide_a_full_house() -> None:
    assert _beats("Qs Qc Qh 7s 7c", "Qs Qc Qd 7h 7d")


def test_the_pair_decides_one_pair() -> None:
    assert _beats("9h 9s Kc Qc Jc", "9d 9c Kh Qh Jh")


def test_split_option_ties_identical_ranks() -> None:
    hearts, spades = cards("Ah Kc Qc Jc 9c"), cards("As Kh Qh Jh 9h")
    assert rank_32_split(hearts) == rank_32_split(spades)
    assert rank_32(hearts) != rank_32(spades)


def test_split_option_keeps_rank_order() -> None:
    assert rank_32_split(cards("As Kc Qc Jc 9c")) > rank_32_split(cards("Kh Qh Jh 9h 8d"))


@pytest.mark.parametrize("codes", ["6h 7c 8d 9s Ts", "Ah Ah Kc Qd Js"])
def test_cards_outside_the_deck_or_repeated_are_refused(codes: str) -> None:
    with pytest.raises(HandError):
        rank_32(cards(codes))
    with pytest.raises(HandError):
        rank_32_split(cards(codes))
