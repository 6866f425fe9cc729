"""A tournament's tables are named after it and their number, cut to what a
table name may hold (``TableConfig``'s declared bound)."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from poker.engine.rules import Betting, Game, Rules
from poker.engine.table import TableConfig
from poker.engine.table.config import setting
from tournaments.play import _named

CONFIG = TableConfig.for_tournament(7, Rules(Game.FIVE_CARD_DRAW, Betting.NO_LIMIT, 1, 2), 6, 3)
LONGEST = setting("name").bounds.high or 0


def named(tournament_name: str, number: int = 3) -> str:
    return _named(CONFIG, SimpleNamespace(name=tournament_name), number).name  # type: ignore[arg-type]


def test_a_table_is_named_after_its_tournament_and_number() -> None:
    assert named("Sunday Major") == "Sunday Major #3"


def test_a_table_of_a_nameless_tournament_is_named_by_its_number() -> None:
    assert named("") == "Table 3"


@pytest.mark.parametrize("number", [1, 12, 345])
def test_a_long_tournament_name_is_cut_so_the_number_still_shows(number: int) -> None:
    name = named("x" * LONGEST, number)
    assert len(name) == LONGEST and name.endswith(f" #{number}")
