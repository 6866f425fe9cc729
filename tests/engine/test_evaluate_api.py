"""The evaluators' public face: one value scale per ranking, picked by name."""

from __future__ import annotations

import subprocess
import sys

import pytest

from poker.engine.cards import cards
from poker.engine.errors import ErrorCode
from poker.engine.evaluate import (
    RANK_FUNCTIONS,
    Category,
    HandError,
    Ranking,
    category,
    load_tables,
    rank,
)

HANDS = ("Ah Kh Qh Jh Th", "Ah 7c 8d 9s Th", "Kh Kc Kd Ks Ah", "9h 9s Jc Jd Ts", "Qc Jd 9h 8s 7c")


def test_every_ranking_has_a_rank_function() -> None:
    assert set(RANK_FUNCTIONS) == set(Ranking)


def test_rank_functions_cannot_be_swapped_out() -> None:
    with pytest.raises(TypeError):
        RANK_FUNCTIONS[Ranking.HIGH] = len  # type: ignore[index]


@pytest.mark.parametrize("ranking", list(Ranking))
def test_rank_dispatches_to_the_rankings_function(ranking: Ranking) -> None:
    for hand in HANDS:
        assert rank(cards(hand), ranking) == RANK_FUNCTIONS[ranking](cards(hand))


def test_ranking_values_are_stable_names() -> None:
    assert {r.value for r in Ranking} == {
        "32-card",
        "32-card-split",
        "high",
        "2-7",
        "a-5",
        "joker-high",
    }


def test_category_values_are_stable_names() -> None:
    assert Category.FULL_HOUSE.value == "full-house"
    assert Category("five-of-a-kind") is Category.FIVE_OF_A_KIND
    assert len(Category) == 11


def test_deuce_to_seven_reports_straights_and_flushes() -> None:
    assert category(cards("6c 5d 4h 3s 2c"), Ranking.DEUCE_TO_SEVEN) is Category.STRAIGHT
    assert category(cards("8h 6h 4h 3h 2h"), Ranking.DEUCE_TO_SEVEN) is Category.FLUSH


def test_ace_to_five_reports_only_pairs_and_high_cards() -> None:
    assert category(cards("5h 4h 3h 2h Ah"), Ranking.ACE_TO_FIVE) is Category.HIGH_CARD
    assert category(cards("5h 5c 3h 3d Ah"), Ranking.ACE_TO_FIVE) is Category.TWO_PAIR


def test_thirty_two_card_hands_report_house_categories() -> None:
    hand = cards("Ah 7c 8d 9s Th")
    assert category(hand, Ranking.THIRTY_TWO) is Category.STRAIGHT
    assert category(hand, Ranking.THIRTY_TWO_SPLIT) is Category.STRAIGHT
    assert category(hand, Ranking.HIGH) is Category.HIGH_CARD


@pytest.mark.parametrize("ranking", list(Ranking))
@pytest.mark.parametrize("codes", ["Ah Kh Qh Jh", "Ah Kh Qh Jh Th 9h"])
def test_a_hand_is_five_cards_in_every_ranking(ranking: Ranking, codes: str) -> None:
    with pytest.raises(HandError) as raised:
        rank(cards(codes), ranking)
    assert raised.value.code is ErrorCode.MALFORMED


def test_errors_name_no_card() -> None:
    with pytest.raises(HandError) as raised:
        rank(cards("Ah Kh Qh Jh 2h"), Ranking.THIRTY_TWO)
    assert not any(code in str(raised.value) for code in ("Ah", "Kh", "2h"))


def test_tables_load_on_demand_and_once() -> None:
    load_tables()
    load_tables(Ranking.HIGH, Ranking.THIRTY_TWO)
    assert rank(cards("Ah Kh Qh Jh Th"), Ranking.HIGH) > rank(cards("Kh Kc Kd Ks Ah"), Ranking.HIGH)


def test_importing_builds_no_table() -> None:
    """Processes pay for a game's table only when they first evaluate one of its hands."""
    probe = (
        "import poker.engine.evaluate.thirtytwo as t, poker.engine.evaluate.high as h;"
        "print(len(t._TABLE), len(h.TABLES.plain))"
    )
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["0", "0"]


def test_the_engine_imports_nothing_from_django() -> None:
    probe = (
        "import sys, poker.engine.evaluate; print(any(m.startswith('django') for m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
