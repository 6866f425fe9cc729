"""Casino Draw Poker with jokers (RULES.md section 5): wild cards, five of a kind on top."""

from __future__ import annotations

from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from poker.engine.cards import JOKER_BASE, Card, cards, deck_52
from poker.engine.evaluate import (
    Category,
    HandError,
    Ranking,
    category,
    rank_high,
    rank_joker_high,
)


def _joker(hand: str) -> int:
    return rank_joker_high(cards(hand))


def test_four_aces_and_a_joker_are_five_of_a_kind() -> None:
    assert category(cards("Ah Ad Ac As X1"), Ranking.JOKER_HIGH) is Category.FIVE_OF_A_KIND


def test_five_of_a_kind_beats_a_royal_flush() -> None:
    assert _joker("2h 2d 2c X1 X2") > _joker("Ah Kh Qh Jh Th")
    assert _joker("2h 2d 2c X1 X2") > _joker("Ah Kh Qh Jh X1")


def test_five_of_a_kind_ranks_by_its_rank() -> None:
    assert _joker("Ah Ad Ac As X1") > _joker("Kh Kd Kc Ks X1")


def test_a_joker_completes_a_flush_with_the_highest_missing_card() -> None:
    assert _joker("Ah Kh 9h 5h X1") == rank_high(cards("Ah Kh Qh 9h 5h"))


def test_a_joker_completes_a_straight_at_the_top() -> None:
    assert _joker("9c Td Jh Qs X1") == rank_high(cards("9c Td Jh Qs Kc"))


def test_a_joker_fills_an_inside_straight() -> None:
    assert _joker("5c 6d 8h 9s X1") == rank_high(cards("5c 6d 7h 8h 9s"))


def test_a_joker_completes_a_royal_flush() -> None:
    assert category(cards("Ah Kh Qh Jh X1"), Ranking.JOKER_HIGH) is Category.ROYAL_FLUSH


def test_two_jokers_make_four_of_a_kind_from_a_pair() -> None:
    assert _joker("Ah Ad 5c X1 X2") == rank_high(cards("Ah Ad Ac As 5c"))


def test_two_jokers_prefer_a_straight_flush_to_four_of_a_kind() -> None:
    assert _joker("7s 7h 8h X1 X2") < _joker("6h 7h 8h X1 X2")
    assert category(cards("6h 7h 8h X1 X2"), Ranking.JOKER_HIGH) is Category.STRAIGHT_FLUSH


def test_four_jokers_make_five_of_the_last_cards_rank() -> None:
    assert category(cards("2c X1 X2 X3 X4"), Ranking.JOKER_HIGH) is Category.FIVE_OF_A_KIND
    assert _joker("2c X1 X2 X3 X4") == _joker("2c 2d 2h 2s X1")


def test_five_jokers_are_five_aces() -> None:
    assert _joker("X1 X2 X3 X4 X5") == _joker("Ah Ad Ac As X1")


def test_a_hand_without_jokers_is_valued_as_in_high_poker() -> None:
    for hand in ("Ah Kh Qh Jh Th", "Ah 2c 3d 4s 5h", "9h 9s Ac 4c 3d", "Kc Qd 9h 5s 3c"):
        assert _joker(hand) == rank_high(cards(hand))


def test_a_hand_is_five_cards() -> None:
    with pytest.raises(HandError):
        _joker("Ah Kh Qh X1")


def _best_natural(naturals: list[Card]) -> int:
    """The best natural hand the naturals can be completed to, trying every card."""
    spare = [c for c in deck_52() if c not in naturals]
    return max(rank_high([*naturals, *extra]) for extra in combinations(spare, 5 - len(naturals)))


@settings(max_examples=60, deadline=None)
@given(
    naturals=st.lists(st.sampled_from(deck_52()), min_size=3, max_size=4, unique=True),
)
def test_a_hand_with_jokers_equals_the_best_natural_hand_it_makes(naturals: list[Card]) -> None:
    jokers = [Card(JOKER_BASE + i) for i in range(5 - len(naturals))]
    value = rank_joker_high([*naturals, *jokers])
    if len({c.rank for c in naturals}) == 1:
        assert category([*naturals, *jokers], Ranking.JOKER_HIGH) is Category.FIVE_OF_A_KIND
    else:
        assert value == _best_natural(naturals)


def test_joker_order_does_not_matter() -> None:
    assert _joker("X1 Ah X2 Kh Qh") == _joker("Ah Kh Qh X2 X1") == _joker("Ah Kh Qh Jh Th")
