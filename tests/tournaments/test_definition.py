"""Tournament definitions: what they hold, what they refuse (with codes and
fields), and the hand rules of each level."""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

import pytest

from poker.engine.rules import VARIANTS, AnteBy, Betting, Game, Rules, TieBreak
from tests.tournaments.support import definition, structure
from tournaments.rules import (
    InvalidDefinition,
    PayoutTable,
    PayoutTier,
    Rebuys,
    Satellite,
    TournamentErrorCode,
)
from tournaments.rules.codec import definition_from_json, definition_to_json
from tournaments.rules.codec import tournament_event_from_json as decode
from tournaments.rules.codec import tournament_event_to_json as encode
from tournaments.rules.errors import Malformed
from tournaments.rules.events import TournamentCreated


def refused(**changes: Any) -> InvalidDefinition:
    with pytest.raises(InvalidDefinition) as caught:
        definition(**changes)
    assert caught.value.code is TournamentErrorCode.INVALID_DEFINITION
    return caught.value


def test_defaults_are_a_freezeout_at_full_tables() -> None:
    d = definition()
    assert d.seats_per_table == 6  # five card draw: 2 to 6 players
    assert d.re_entry is False and d.rebuys is None and d.satellite is None
    assert d.entry_price == 110
    assert d.rebuy_threshold == d.starting_stack


def test_table_size_is_bounded_by_the_game() -> None:
    assert definition(table_size=4).seats_per_table == 4
    assert refused(table_size=7).field == "table_size"
    d32 = definition(game=Game.THIRTY_TWO_CARD_DRAW)
    assert d32.seats_per_table == 5
    assert refused(game=Game.THIRTY_TWO_CARD_DRAW, table_size=6).field == "table_size"


def test_a_refused_definition_names_its_reason_by_key_with_its_figures() -> None:
    """The key and values word the reason in any language
    (``tournaments.refusals.DEFINITION_REASONS``); the English stays for logs."""
    too_big = refused(table_size=7)
    assert (too_big.key, dict(too_big.values)) == ("whole_number_range", {"low": 2, "high": 6})
    assert too_big.reason == "a whole number from 2 to 6"
    nested = too_big.within("template")
    assert (nested.field, nested.key, nested.values, nested.reason) == (
        "template.table_size", too_big.key, too_big.values, too_big.reason,
    )  # fmt: skip


@pytest.mark.parametrize("game", list(Game), ids=lambda g: g.value)
def test_every_game_defines_a_tournament_that_survives_its_codec(game: Game) -> None:
    """Every game the engine deals, the two added last (issue 11) among
    them, sets a tournament up and comes back from its stored JSON."""
    d = definition(game=game, betting=Betting.FIXED_LIMIT)
    assert d.seats_per_table == VARIANTS[game].max_players
    assert definition_from_json(json.loads(json.dumps(definition_to_json(d)))) == d


def test_heads_up_tables_seat_only_a_heads_up_tournament() -> None:
    assert definition(table_size=2, max_players=2).seats_per_table == 2
    assert refused(table_size=2, max_players=3).field == "max_players"


@pytest.mark.parametrize(
    ("changes", "field"),
    [
        ({"starting_stack": 0}, "starting_stack"),
        ({"buy_in": -1}, "buy_in"),
        ({"fee": 1.5}, "fee"),
        ({"min_players": 1}, "min_players"),
        ({"min_players": 10, "max_players": 9}, "max_players"),
        ({"late_registration_level": 7}, "late_registration_level"),
        ({"late_registration_level": 0}, "late_registration_level"),
        ({"re_entries": -1, "late_registration_level": 2}, "re_entries"),
        ({"game": "poker"}, "game"),
        ({"betting": "spread"}, "betting"),
        ({"sit_and_go": 1}, "sit_and_go"),
        ({"rebuys": Rebuys(7, 1000, 100)}, "rebuys.until_level"),
    ],
)
def test_nonsense_is_refused_naming_the_field(changes: dict[str, Any], field: str) -> None:
    assert refused(**changes).field == field


def test_re_entry_needs_late_registration() -> None:
    assert refused(re_entries=2).field == "re_entries"
    d = definition(re_entries=2, late_registration_level=3)
    assert d.re_entry
    assert definition(re_entries=None, late_registration_level=3).re_entry  # unlimited


def test_rebuy_threshold_defaults_to_the_starting_stack_and_is_configurable() -> None:
    assert definition(rebuys=Rebuys(2, 1000, 100)).rebuy_threshold == 1000
    assert definition(rebuys=Rebuys(2, 1000, 100, threshold=500)).rebuy_threshold == 500


@pytest.mark.parametrize(
    ("args", "field"),
    [
        ((0, 1000, 100), "until_level"),
        ((2, 0, 100), "chips"),
        ((2, 1000, -1), "price"),
        ((2, 1000, 100, 0), "max_rebuys"),
        ((2, 1000, 100, None, -1), "threshold"),
        ((2, 1000, 100, None, None, 0, 50), "add_on_price"),
    ],
)
def test_rebuy_options_are_validated(args: tuple[Any, ...], field: str) -> None:
    with pytest.raises(InvalidDefinition) as caught:
        Rebuys(*args)
    assert caught.value.field == field


@pytest.mark.parametrize(
    ("args", "field"),
    [(("", 1000), "target"), (("main", 0), "target_buy_in"), (("main", 1000, 0), "seats")],
)
def test_satellite_options_are_validated(args: tuple[Any, ...], field: str) -> None:
    with pytest.raises(InvalidDefinition) as caught:
        Satellite(*args)
    assert caught.value.field == field


def test_a_satellite_pays_seats_not_a_payout_table() -> None:
    table = PayoutTable((PayoutTier(2, (10_000,)),))
    assert refused(satellite=Satellite("main", 1000), payouts=table).field == "payouts"


def test_rules_at_a_level_are_the_engine_rules_with_its_blinds_and_ante() -> None:
    d = definition(ante_by=AnteBy.BIG_BLIND, tie_break=TieBreak.SPLIT)
    assert d.rules_at(3) == Rules(
        Game.FIVE_CARD_DRAW, Betting.NO_LIMIT, 30, 60, 0, AnteBy.BIG_BLIND, TieBreak.SPLIT
    )


def test_a_definition_round_trips_through_json() -> None:
    d = definition(
        structure=structure(4),
        late_registration_level=2,
        re_entries=None,
        rebuys=Rebuys(2, 1000, 100, 3, 800, 2000, 150),
        payouts=PayoutTable((PayoutTier(2, (10_000,)), PayoutTier(6, (7_000, 3_000)))),
        sit_and_go=True,
    )
    event = TournamentCreated(d, "Sunday", 1234)
    assert decode(encode(event)) == event
    satellite = TournamentCreated(replace(d, payouts=None, satellite=Satellite("m", 500, 2)))
    assert decode(encode(satellite)) == satellite


def test_a_definition_alone_round_trips_and_nonsense_is_malformed() -> None:
    d = definition(rebuys=Rebuys(2, 1000, 100), late_registration_level=2)
    data = json.loads(json.dumps(definition_to_json(d)))
    assert "type" not in data
    assert definition_from_json(data) == d
    data["table_size"] = 9
    with pytest.raises(Malformed):
        definition_from_json(data)
