"""Table events are values: JSON round-trips, the fold is the state."""

from __future__ import annotations

import json
from typing import Any

import pytest

from poker.engine.errors import Malformed
from poker.engine.rules import AnteBy, Betting, Game, Rules, TieBreak
from poker.engine.table import (
    TABLE_EVENT_TYPES,
    ButtonDrawn,
    ChipsAdded,
    CloseQueued,
    HandBegan,
    HandFinished,
    LeaveQueued,
    PlayerArrived,
    PlayerLeft,
    PlayerSeated,
    PlayerUnseated,
    SatIn,
    SatOut,
    SeatPost,
    SeatStack,
    Stakes,
    TableClosed,
    TableConfig,
    TableEvent,
    TableOpened,
    TimeBankUsed,
    ToppedUp,
    TopUpQueued,
    UnseatReason,
    evolve_table,
    replay_table,
    table_event_from_json,
    table_event_to_json,
)

RULES = Rules(
    Game.THIRTY_TWO_CARD_DRAW,
    Betting.POT_LIMIT,
    3,
    6,
    ante=1,
    ante_by=AnteBy.BIG_BLIND,
    tie_break=TieBreak.SPLIT,
)
EVERY_EVENT: list[TableEvent] = [
    TableOpened(TableConfig(RULES, 5, 60, None)),
    PlayerSeated(2, "ann", 100, wait_for_big_blind=True),
    ToppedUp(2, 20),
    TopUpQueued(2, 30),
    SatOut(2),
    SatIn(2, wait_for_big_blind=True),
    LeaveQueued(2),
    PlayerLeft(2, 150),
    HandBegan(7, 3, (1, 2, 4, 5), None, 4, 5, (SeatPost(2, 12, 9),), button_dead=True),
    HandFinished(7, (SeatStack(1, 0), SeatStack(2, 200)), timed_out=(1,)),
    TimeBankUsed(2, 7),
    CloseQueued(),
    TableClosed(),
    PlayerArrived(3, "bob", 1500),
    PlayerUnseated(3, 0, UnseatReason.BUSTED),
    ChipsAdded(3, 1000),
    ButtonDrawn(3),
]
TOURNAMENT_EVENTS: list[TableEvent] = [
    TableOpened(TableConfig.for_tournament(17, RULES, 5, table=2)),
    HandBegan(3, 1, (1, 2), 2, 1, stakes=Stakes(50, 100, 10)),
    *(PlayerUnseated(4, 900, reason) for reason in UnseatReason),
]


def test_every_table_event_round_trips_json() -> None:
    assert {type(e) for e in EVERY_EVENT} == set(TABLE_EVENT_TYPES.values())
    for event in EVERY_EVENT + TOURNAMENT_EVENTS:
        data = json.loads(json.dumps(table_event_to_json(event)))
        assert TABLE_EVENT_TYPES[data["type"]] is type(event)
        assert table_event_from_json(data) == event


def test_bad_table_event_json_is_malformed() -> None:
    bad: list[dict[str, Any]] = [
        {"type": "Nope"},
        {"type": "table.player_seated", "seat": 1, "player": "ann"},
        {"type": "table.player_seated", "seat": "1", "player": "ann", "buy_in": 10},
        {"type": "table.hand_began", "number": 1, "button": 1, "dealt_in": 3, "small": 1, "big": 2},
        {"type": "table.opened", "config": {"rules": {}, "seats": 5, "min_buy_in": 1}},
    ]
    for data in bad:
        with pytest.raises(Malformed):
            table_event_from_json(data)
    opened = table_event_to_json(EVERY_EVENT[0])
    opened["config"]["seats"] = 9  # more seats than 32 Card Draw allows
    with pytest.raises(Malformed):
        table_event_from_json(opened)


def test_events_apply_only_after_the_table_opened() -> None:
    with pytest.raises(Malformed):
        evolve_table(None, SatOut(1))
    state = replay_table(EVERY_EVENT[:1])
    with pytest.raises(Malformed):
        evolve_table(state, EVERY_EVENT[0])
    with pytest.raises(Malformed):
        replay_table([])


def test_version_counts_events() -> None:
    state = replay_table(EVERY_EVENT[:3])
    assert state.version == 3 and state.seats[2].stack == 120
