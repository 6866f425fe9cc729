"""The dealer's exchange in Casino Draw Poker (RULES.md 5): the first rule
of his priority list that fits, jokers wild and always kept.

Hands are written in deal order; ``changes`` names the cards he throws."""

from __future__ import annotations

import pytest

from poker.engine.cards import cards
from poker.engine.casino import dealer_discards


def changes(hand: str) -> str:
    held = cards(hand)
    return " ".join(str(held[i]) for i in dealer_discards(held))


@pytest.mark.parametrize(
    "hand",
    ["4c 5d 6h 7s 8c", "2h 9h Jh 4h Kh", "7c 7d 7h Ks Kd", "9c 9d 9h 9s 2c", "Ah Kh Qh Jh X1"],
)
def test_a_straight_or_better_stands_pat(hand: str) -> None:
    assert changes(hand) == ""


def test_two_pair_changes_the_odd_card() -> None:
    assert changes("8h 8d Kd 4c 4s") == "Kd"


def test_three_of_a_kind_changes_two() -> None:
    assert changes("7h 2s 7d 7c 9h") == "2s 9h"


def test_four_to_a_flush_changes_one() -> None:
    assert changes("2h 9h Jh 4s Kh") == "4s"


def test_four_to_an_open_ended_straight_changes_one() -> None:
    assert changes("8c 9d Th Js 2c") == "2c"


def test_a_pair_changes_three() -> None:
    assert changes("Jc Js 7s 6c 3d") == "7s 6c 3d"


def test_four_to_an_inside_straight_changes_one() -> None:
    assert changes("8c 9d Jh Qs 2c") == "2c"


def test_otherwise_he_changes_all_five() -> None:
    assert changes("2c 5d 9s Jh Qc") == "2c 5d 9s Jh Qc"


def test_three_of_a_kind_comes_before_a_flush_draw() -> None:
    assert changes("7h 7d 7c 2c 9c") == "2c 9c"


def test_a_flush_draw_comes_before_a_pair() -> None:
    assert changes("9h 9s 5h 3h 2h") == "9s"


def test_an_open_ended_draw_comes_before_a_pair() -> None:
    assert changes("Jc 8d Ts 9h 3c") == "3c"


def test_a_pair_comes_before_an_inside_draw() -> None:
    assert changes("8c 8d 9h Ts Qc") == "9h Ts Qc"


def test_two_to_five_is_open_ended() -> None:
    """2-3-4-5 is completed by an ace or a six."""
    assert changes("2c 3d 4s 5h 5c") == "5c"


@pytest.mark.parametrize(
    ("hand", "thrown"), [("Ah 2c 3d 4s 4h", "Ah 2c 3d"), ("Jc Qd Ks Ah Ac", "Jc Qd Ks")]
)
def test_ace_to_four_and_jack_to_ace_are_inside_draws(hand: str, thrown: str) -> None:
    """Only one rank completes them, so the pair comes before them."""
    assert changes(hand) == thrown


def test_of_two_inside_draws_he_keeps_the_higher_straight() -> None:
    assert changes("5c 7d 8h 9s Jc") == "5c"


def test_of_an_open_and_an_inside_draw_the_open_one_comes_first() -> None:
    """4-5-6-7 (open, to an eight-high straight) over 5-6-7-9 (inside, nine-high)."""
    assert changes("4c 5d 6h 7s 9c") == "9c"


@pytest.mark.parametrize(("hand", "thrown"), [("Js 8h Jc Td 9s", "Jc"), ("Jc 8h Js Td 9s", "Js")])
def test_a_pair_inside_a_straight_draw_changes_the_later_dealt_card_of_the_pair(
    hand: str, thrown: str
) -> None:
    assert changes(hand) == thrown


def test_a_joker_is_never_changed() -> None:
    assert changes("X1 Kc 9d 5s 3h") == "9d 5s 3h"
    assert changes("X2 X1 Kh 9d 3s") == "9d 3s"


def test_a_joker_pairs_his_highest_card() -> None:
    assert changes("7d X1 Kc 5s 2h") == "7d 5s 2h"


def test_a_joker_makes_three_of_a_kind_with_a_pair() -> None:
    assert changes("X1 8h 8d 4c Ks") == "4c Ks"


def test_a_joker_fills_a_suit_for_a_flush_draw() -> None:
    assert changes("Kh X1 9h 2h 4s") == "4s"


def test_a_joker_fills_a_missing_rank_for_a_straight_draw() -> None:
    """X 8 9 J: the joker fills the ten, a seven or a queen completes it."""
    assert changes("X1 8d 9h Jc 2s") == "2s"


def test_with_a_joker_he_keeps_the_four_making_the_higher_straight() -> None:
    """X 6 9 T (to ten-high) over X 5 6 9 (to nine-high)."""
    assert changes("X1 5c 6d 9s Th") == "5c"


def test_the_deal_order_of_the_other_cards_does_not_change_his_choice() -> None:
    assert changes("2c Qs 3s Qc 8d") == "2c 3s 8d"
