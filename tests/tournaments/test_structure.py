"""Blind structures: levels, breaks, validation, and the presets."""

from __future__ import annotations

import pytest

from poker.engine.rules import Betting, Game
from tournaments.rules import BlindLevel, Break, InvalidDefinition, Structure, TournamentErrorCode
from tournaments.rules.presets import (
    standard_structure,
    thirty_two_card_draw_satellite,
    thirty_two_card_draw_satellite_structure,
)


def test_a_level_names_small_blind_big_blind_ante_and_minutes() -> None:
    level = BlindLevel(50, 100, 10, 15)
    assert (level.small_blind, level.big_blind, level.ante, level.minutes) == (50, 100, 10, 15)


def test_the_big_blind_is_twice_the_small_blind() -> None:
    with pytest.raises(InvalidDefinition) as refused:
        BlindLevel(50, 120)
    assert refused.value.code is TournamentErrorCode.INVALID_DEFINITION
    assert refused.value.field == "big_blind"


@pytest.mark.parametrize(
    ("small", "big", "ante", "minutes", "field"),
    [
        (0, 0, 0, 10, "small_blind"),
        (-5, -10, 0, 10, "small_blind"),
        (True, 2, 0, 10, "small_blind"),
        (5, 10, -1, 10, "ante"),
        (5, 10, 11, 10, "ante"),
        (5, 10, 0, 0, "minutes"),
        (5, 10, 0, 241, "minutes"),
        (5, 10, 0, 1.5, "minutes"),
    ],
)
def test_a_nonsense_level_is_refused_naming_the_field(
    small: int, big: int, ante: int, minutes: int, field: str
) -> None:
    with pytest.raises(InvalidDefinition) as refused:
        BlindLevel(small, big, ante, minutes)
    assert refused.value.field == field


def test_blinds_never_go_down() -> None:
    with pytest.raises(InvalidDefinition) as refused:
        Structure((BlindLevel(20, 40), BlindLevel(10, 20)))
    assert (refused.value.field, refused.value.key) == ("levels[1].big_blind", "blinds_ascending")


def test_a_structure_has_at_least_one_level() -> None:
    with pytest.raises(InvalidDefinition) as refused:
        Structure(())
    assert refused.value.field == "levels"


@pytest.mark.parametrize(
    "breaks",
    [
        (Break(3),),  # after the last level
        (Break(2), Break(1)),  # out of order
        (Break(1), Break(1)),  # two after one level
    ],
)
def test_breaks_follow_levels_in_order_and_never_the_last(breaks: tuple[Break, ...]) -> None:
    levels = (BlindLevel(10, 20), BlindLevel(20, 40), BlindLevel(30, 60))
    with pytest.raises(InvalidDefinition) as refused:
        Structure(levels, breaks)
    assert refused.value.field.startswith("breaks[")


def test_break_after_finds_the_break_following_a_level() -> None:
    s = Structure((BlindLevel(10, 20), BlindLevel(20, 40), BlindLevel(30, 60)), (Break(2, 5),))
    assert s.break_after(2) == Break(2, 5)
    assert s.break_after(1) is None
    assert s.level(3) == BlindLevel(30, 60)


def test_the_over_blind_is_implied_by_the_game_as_twice_the_big_blind() -> None:
    d = thirty_two_card_draw_satellite("main", 1000, 100)
    for number, level in enumerate(d.structure.levels, start=1):
        rules = d.rules_at(number)
        assert rules.over_blind(4) == rules.over_blind(5) == 2 * level.big_blind
        assert rules.over_blind(3) == 0


def test_the_32_card_draw_satellite_preset_is_valid_and_has_no_ante() -> None:
    s = thirty_two_card_draw_satellite_structure()
    assert len(s.levels) == 20
    assert s.levels[0] == BlindLevel(10, 20, 0, 10)
    assert all(level.ante == 0 for level in s.levels)
    assert [b.after_level for b in s.breaks] == [6, 12]
    d = thirty_two_card_draw_satellite("main", 1000, 100, 10, seats=3)
    assert d.game is Game.THIRTY_TWO_CARD_DRAW and d.betting is Betting.POT_LIMIT
    assert d.seats_per_table == 5
    assert d.satellite is not None and d.satellite.seats == 3


def test_the_standard_preset_has_antes_from_level_five() -> None:
    s = standard_structure()
    assert [level.ante for level in s.levels[:5]] == [0, 0, 0, 0, 25]
    assert all(level.minutes == 20 for level in s.levels)
