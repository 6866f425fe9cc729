"""The casino table around a round (poker.engine.casino.table): boxes, bets,
the deal, the settlement, and the room's choices of docs/rules.md section 5."""

from __future__ import annotations

import pytest

from poker.engine.casino import CasinoRules, PayTable
from poker.engine.casino.table import (
    Bet,
    BetPlaced,
    BetWithdrawn,
    BoxPaid,
    CasinoTableConfig,
    Close,
    FinishRound,
    Leave,
    LeaveQueued,
    PlayerLeft,
    PlayerSatOut,
    RoundDealt,
    RoundFinished,
    Sit,
    SitOut,
    StartRound,
    TableClosed,
    TableClosing,
    exposure,
    open_table,
    play_table,
    replay_table,
    round_cover,
    table_event_from_json,
    table_event_to_json,
)
from poker.engine.errors import EngineError, ErrorCode


def table(*players: str, **config: object):
    state = replay_table(open_table(CasinoTableConfig("T", **config)))
    for box, player in enumerate(players):
        state, _ = play_table(state, Sit(box, player))
    return state


def refused(state, command) -> ErrorCode:
    with pytest.raises(EngineError) as caught:
        play_table(state, command)
    return caught.value.code


def test_a_round_covers_nine_original_bets():
    assert round_cover(10) == 90  # BONUS, two exchanges, BET of 2 x ANTE of 3 B


def test_a_box_exposes_the_house_to_its_ante_and_bet_at_the_top_line():
    assert exposure(10, CasinoRules()) == 60 * 20
    assert exposure(10, CasinoRules(pay_table=PayTable(five_of_a_kind=50))) == 60 * 50
    assert exposure(10, CasinoRules(jokers=0)) == 60 * 10, "no five of a kind without a joker"


def test_a_bet_outside_the_tables_bounds_is_refused():
    state = table("1", min_bet=10, max_bet=100)
    assert refused(state, Bet(0, 9, 90)) is ErrorCode.BAD_AMOUNT
    assert refused(state, Bet(0, 101, 909)) is ErrorCode.BAD_AMOUNT
    assert refused(state, Bet(0, 10, 91)) is ErrorCode.BAD_AMOUNT  # holds more than a round takes
    assert refused(state, Bet(0, 10, 9)) is ErrorCode.BAD_AMOUNT  # cannot cover his BONUS


def test_a_box_is_taken_once_and_a_player_sits_once():
    state = table("1")
    assert refused(state, Sit(0, "2")) is ErrorCode.SEAT_TAKEN
    assert refused(state, Sit(1, "1")) is ErrorCode.SEAT_TAKEN
    assert refused(state, Sit(4, "2")) is ErrorCode.MALFORMED


def test_the_table_is_ready_when_every_player_not_sitting_out_has_bet():
    state = table("1", "2")
    state, _ = play_table(state, Bet(0, 10, 90))
    assert not state.ready and state.exposure() == exposure(10, CasinoRules())
    state, events = play_table(state, SitOut(1))
    assert events == [PlayerSatOut(1)] and state.ready
    state, events = play_table(state, StartRound())
    assert events == [RoundDealt(1, (0,))] and state.round_running


def test_no_bet_while_a_round_runs_and_a_leave_waits_for_its_end():
    state = table("1", "2")
    state, _ = play_table(state, Bet(0, 10, 90))
    state, _ = play_table(state, StartRound())
    assert refused(state, Bet(1, 10, 90)) is ErrorCode.ILLEGAL_ACTION
    state, events = play_table(state, Leave(0))
    assert events == [LeaveQueued(0)] and 0 in state.seats
    paid = (BoxPaid(0, "1", 90, 30, 0),)
    state, events = play_table(state, FinishRound(paid))
    assert events == [RoundFinished(1, paid), PlayerLeft(0)]
    assert not state.round_running and 0 not in state.seats and state.held == 0


def test_sitting_out_or_leaving_before_the_deal_takes_the_bet_back():
    state = table("1", "2")
    state, _ = play_table(state, Bet(0, 10, 50))
    _, events = play_table(state, SitOut(0))
    assert events == [BetWithdrawn(0, 50), PlayerSatOut(0)]
    _, events = play_table(state, Leave(0))
    assert events == [BetWithdrawn(0, 50), PlayerLeft(0)]


def test_the_settlement_must_name_every_box_of_the_round_in_order():
    state = table("1", "2")
    state, _ = play_table(state, Bet(0, 10, 90))
    state, _ = play_table(state, Bet(1, 10, 90))
    state, _ = play_table(state, StartRound())
    wrong = (BoxPaid(1, "2", 90, 10, 0), BoxPaid(0, "1", 90, 10, 0))
    assert refused(state, FinishRound(wrong)) is ErrorCode.MALFORMED


def test_closing_during_a_round_closes_at_its_end():
    state = table("1")
    state, _ = play_table(state, Bet(0, 10, 90))
    state, _ = play_table(state, StartRound())
    state, events = play_table(state, Close())
    assert events == [TableClosing()] and state.closing
    assert refused(state, Sit(1, "2")) is ErrorCode.TABLE_CLOSED
    paid = (BoxPaid(0, "1", 90, 10, 20),)
    state, events = play_table(state, FinishRound(paid))
    assert events[-2:] == [PlayerLeft(0), TableClosed()] and state.closed
    assert refused(state, Sit(0, "1")) is ErrorCode.TABLE_CLOSED


def test_a_configuration_out_of_bounds_is_refused():
    with pytest.raises(EngineError):
        open_table(CasinoTableConfig("T", min_bet=50, max_bet=10))
    with pytest.raises(EngineError):
        open_table(CasinoTableConfig("T", boxes=5))


def test_table_events_round_trip_through_json_by_their_stored_names():
    config = CasinoTableConfig("T", min_bet=5)
    events = [
        *open_table(config),
        BetPlaced(0, 10, 90),
        RoundFinished(1, (BoxPaid(0, "1", 90, 30, 70),)),
    ]
    for event in events:
        data = table_event_to_json(event)
        assert data["type"].startswith("casino_table.")
        assert table_event_from_json(data) == event
