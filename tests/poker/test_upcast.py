"""Old shapes read as today's: the upcaster of a kind of stream runs its
steps from the schema a row was written in to the current one."""

from __future__ import annotations

import pytest

from kernel.upcast import SCHEMA, Step, Upcaster, current
from poker.engine.table import PlayerSeated, ToppedUp, table_event_from_json
from poker.upcast import TABLE_V1, TABLES
from tournaments.upcast import TOURNAMENTS


def test_schema_1_class_names_read_as_the_stable_names_of_their_stream() -> None:
    assert TABLES("HandFinished", {"number": 3}, 1) == ("table.hand_finished", {"number": 3})
    assert TOURNAMENTS("HandFinished", {}, 1)[0] == "tournament.hand_finished"
    started = {"seed": 1, "deck": ["Ah", "Kd"]}
    assert current("hand-1-2", "HandStarted", started, 1)[0] == "hand.started"
    assert current("tournament-4", "HandStarted", {}, 1)[0] == "tournament.hand_started"


def test_a_current_row_is_read_as_it_is() -> None:
    data = {"seat": 1, "amount": 5}
    assert current("table-1", "table.topped_up", data, SCHEMA) == ("table.topped_up", data)


def test_a_renamed_field_is_read_under_its_new_name() -> None:
    # A synthetic past: schema 1 called PlayerSeated's buy-in "chips".
    renamed = Step(types=TABLE_V1.types, fields={"table.player_seated": {"chips": "buy_in"}})
    old = Upcaster({1: renamed})
    kind, data = old("PlayerSeated", {"seat": 2, "player": "7", "chips": 100}, 1)
    assert (kind, data) == ("table.player_seated", {"seat": 2, "player": "7", "buy_in": 100})
    assert table_event_from_json({"type": kind, **data}) == PlayerSeated(2, "7", 100)


def test_steps_chain_from_the_written_schema_to_the_current_one() -> None:
    # A synthetic future: schema 3 renames a type and a field of it; schema
    # 1 rows take both steps, schema 2 rows only the second.
    later = Step(types={"table.topped_up": "table.chips_topped_up"},
                 fields={"table.chips_topped_up": {"amount": "chips"}})  # fmt: skip
    chain = Upcaster({1: TABLE_V1, 2: later})
    want = ("table.chips_topped_up", {"seat": 1, "chips": 5})
    assert chain("ToppedUp", {"seat": 1, "amount": 5}, 1, to=3) == want
    assert chain("table.topped_up", {"seat": 1, "amount": 5}, 2, to=3) == want
    assert chain.stored_names("table.chips_topped_up", to=3) == {
        "ToppedUp", "table.topped_up", "table.chips_topped_up"
    }  # fmt: skip


def test_a_step_may_convert_data_beyond_renames() -> None:
    halved = Step(convert=lambda kind, data: {**data, "amount": data["amount"] // 2})
    chain = Upcaster({1: TABLE_V1, 2: halved})
    assert chain("ToppedUp", {"seat": 1, "amount": 10}, 1, to=3)[1] == {"seat": 1, "amount": 5}
    assert table_event_from_json({"type": "table.topped_up", "seat": 1, "amount": 5}) == ToppedUp(
        1, 5
    )


def test_a_row_newer_than_the_code_is_refused() -> None:
    with pytest.raises(ValueError, match="newer"):
        TABLES("table.topped_up", {}, SCHEMA + 1)


def test_an_old_row_of_an_unknown_kind_of_stream_is_refused() -> None:
    with pytest.raises(LookupError):
        current("nowhere-1", "Thing", {}, 1)
