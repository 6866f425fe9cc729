"""A cash table's settings: default buy-ins (RULES.md 1) and validation."""

from __future__ import annotations

import pytest

from poker.engine.errors import ErrorCode, Malformed
from poker.engine.rules import Betting, Game, Rules
from poker.engine.table import TableConfig


def test_buy_in_bounds_default() -> None:
    for game in Game:
        limit = Rules(game, Betting.FIXED_LIMIT, 3, 6)
        pot = Rules(game, Betting.POT_LIMIT, 3, 6)
        no_limit = Rules(game, Betting.NO_LIMIT, 3, 6)
        assert TableConfig.default_buy_ins(limit) == (60, None)  # 10 x BB, no maximum
        assert TableConfig.default_buy_ins(pot) == (60, 600)  # 20 x SB to 100 x BB
        assert TableConfig.default_buy_ins(no_limit) == (60, 600)
    rules = Rules(Game.FIVE_CARD_DRAW, Betting.NO_LIMIT, 5, 10)
    assert TableConfig.default_buy_ins(rules) == (100, 1000)


def test_create_uses_defaults_and_every_seat_of_the_game() -> None:
    rules = Rules(Game.THIRTY_TWO_CARD_DRAW, Betting.FIXED_LIMIT, 3, 6)
    assert TableConfig.create(rules) == TableConfig(rules, 5, 60, None)
    assert TableConfig.create(rules, 3).seats == 3
    five = Rules(Game.FIVE_CARD_DRAW, Betting.POT_LIMIT, 1, 2)
    assert TableConfig.create(five) == TableConfig(five, 6, 20, 200)


def test_buy_ins_are_configurable() -> None:
    rules = Rules(Game.FIVE_CARD_DRAW, Betting.NO_LIMIT, 1, 2)
    assert TableConfig(rules, 4, 1, 10_000).max_buy_in == 10_000
    assert TableConfig(rules, 4, 50, 50).min_buy_in == 50


@pytest.mark.parametrize(
    ("seats", "low", "high", "rules"),
    [
        (1, 20, 200, Rules(Game.FIVE_CARD_DRAW, Betting.NO_LIMIT, 1, 2)),
        (7, 20, 200, Rules(Game.FIVE_CARD_DRAW, Betting.NO_LIMIT, 1, 2)),
        (6, 20, 200, Rules(Game.THIRTY_TWO_CARD_DRAW, Betting.NO_LIMIT, 1, 2)),
        (4, 0, 200, Rules(Game.FIVE_CARD_DRAW, Betting.NO_LIMIT, 1, 2)),
        (4, -20, None, Rules(Game.FIVE_CARD_DRAW, Betting.FIXED_LIMIT, 1, 2)),
        (4, 20, 19, Rules(Game.FIVE_CARD_DRAW, Betting.NO_LIMIT, 1, 2)),
        (4, 20.5, 200, Rules(Game.FIVE_CARD_DRAW, Betting.NO_LIMIT, 1, 2)),
        (4, 20, 200, Rules(Game.FIVE_CARD_DRAW, Betting.NO_LIMIT, 0, 2)),
        (4, 20, 200, Rules(Game.FIVE_CARD_DRAW, Betting.NO_LIMIT, 2, 1)),
        (4, 20, 200, Rules(Game.FIVE_CARD_DRAW, Betting.NO_LIMIT, 1, 2, ante=-1)),
        ("4", 20, 200, Rules(Game.FIVE_CARD_DRAW, Betting.NO_LIMIT, 1, 2)),
    ],
)
def test_config_refuses_nonsense(seats: object, low: object, high: object, rules: Rules) -> None:
    with pytest.raises(Malformed) as raised:
        TableConfig(rules, seats, low, high)  # type: ignore[arg-type]
    assert raised.value.code is ErrorCode.MALFORMED
