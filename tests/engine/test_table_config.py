"""A cash table's settings: default buy-ins (RULES.md 1), validation, and
the settings as declared once (read back by name, bounds, defaults)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings

from poker.engine.errors import ErrorCode, Malformed
from poker.engine.rules import Betting, Game, Rules
from poker.engine.table import TableConfig
from poker.engine.table.config import MAX_SEATS, SETTINGS, setting
from tests.engine.config_strategies import configs


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


# --------------------------------------------------------------------------
# The settings as declared (``poker.engine.settings``)


@given(configs())
@settings(max_examples=200, deadline=None)
def test_a_config_is_its_settings_read_back(config: TableConfig) -> None:
    assert TableConfig.from_settings(config.settings()) == config


def test_settings_are_plain_values_named_as_declared() -> None:
    config = TableConfig.create(Rules(Game.FIVE_CARD_DRAW, Betting.NO_LIMIT, 1, 2))
    values = config.settings()
    assert list(values) == [s.name for s in SETTINGS]
    assert values["game"] == "five-card-draw" and type(values["game"]) is str
    assert (values["ante_by"], values["tie_break"]) == ("all", "suit")


def test_settings_left_out_take_their_defaults_and_the_games_seats_and_buy_ins() -> None:
    given = {"game": "five-card-draw", "betting": "fixed-limit", "small_blind": 5, "big_blind": 10}
    config = TableConfig.from_settings(given)
    rules = Rules(Game.FIVE_CARD_DRAW, Betting.FIXED_LIMIT, 5, 10)
    assert config == TableConfig(rules, 6, 100, None)
    assert config.action_seconds == 30 and config.name == ""


def test_a_null_maximum_buy_in_is_no_maximum_and_a_missing_one_the_default() -> None:
    given = {"game": "five-card-draw", "betting": "no-limit", "small_blind": 1, "big_blind": 2}
    assert TableConfig.from_settings(given).max_buy_in == 200
    assert TableConfig.from_settings({**given, "max_buy_in": None}).max_buy_in is None


def test_only_settings_the_table_declares_are_taken() -> None:
    given = {"game": "five-card-draw", "betting": "no-limit", "small_blind": 1, "big_blind": 2}
    with pytest.raises(Malformed):
        TableConfig.from_settings({**given, "colour": "green"})
    with pytest.raises(Malformed):
        TableConfig.from_settings({k: v for k, v in given.items() if k != "big_blind"})
    with pytest.raises(ValueError):
        TableConfig.from_settings({**given, "game": "bridge"})


def test_derived_settings_are_those_derived_defaults_gives() -> None:
    rules = Rules(Game.FIVE_CARD_DRAW, Betting.NO_LIMIT, 1, 2)
    derived = {s.name for s in SETTINGS if s.bounds.derived}
    assert set(TableConfig.derived_defaults(rules)) == derived


@pytest.mark.parametrize(
    "name", [s.name for s in SETTINGS if s.kind is int and s.bounds.high is not None]
)
def test_each_bounded_setting_takes_its_bounds_and_nothing_beyond(name: str) -> None:
    low, high = setting(name).bounds.low, setting(name).bounds.high
    assert low is not None and high is not None
    widest = {"action_seconds": 600, "bet_seconds": 1, "tournament": 1}  # ties loosened
    rules = Rules(Game.FIVE_CARD_DRAW, Betting.NO_LIMIT, 1, 2)
    base = {**TableConfig.create(rules).settings(), **widest}
    edges = {"seats": rules.variant.max_players} if name == "seats" else {}
    for fits in (low, edges.get(name, high)):
        assert getattr(TableConfig.from_settings({**base, name: fits}), name) == fits
    for beyond in (low - 1, high + 1, str(low), float(low), True):
        with pytest.raises(Malformed):
            TableConfig.from_settings({**base, name: beyond})


def test_seats_the_declaration_allows_are_still_bound_by_the_game() -> None:
    rules = Rules(Game.THIRTY_TWO_CARD_DRAW, Betting.NO_LIMIT, 1, 2)
    with pytest.raises(Malformed, match="2 to 5 seats"):
        TableConfig.create(rules, MAX_SEATS)
