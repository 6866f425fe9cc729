"""Seats, buy-ins, top-ups, leaving and closing (RULES.md 1, table stakes and
buy-ins), and every refusal with its typed error code."""

from __future__ import annotations

import pytest

from poker.engine.commands import TimeOut
from poker.engine.errors import EngineError, ErrorCode
from poker.engine.hand import begin, play
from poker.engine.table import (
    Close,
    CloseQueued,
    DealtIn,
    FinishHand,
    Leave,
    LeaveQueued,
    PlayerLeft,
    PlayerSeated,
    SatIn,
    SatOut,
    Sit,
    SitIn,
    SitOut,
    StartHand,
    TableClosed,
    TableCommand,
    TableState,
    ToppedUp,
    TopUp,
    TopUpQueued,
    dealt_in,
    hand_result,
    open_table,
    plan_hand,
    play_table,
    replay_table,
)
from tests.engine.table_support import FIVE, deal, finish, refused, run, table


def test_sit_takes_an_empty_seat_with_a_buy_in_within_bounds() -> None:
    state = table(FIVE, {})
    state, events = play_table(state, Sit(3, "ann", 150, wait_for_big_blind=True))
    assert events == [PlayerSeated(3, "ann", 150, True)]
    seat = state.seats[3]
    assert (seat.player, seat.stack, seat.waiting, seat.new) == ("ann", 150, True, True)
    assert state.seat_of("ann") == 3 and state.chips == 150


def test_sit_during_a_hand_does_not_join_it() -> None:
    state, _ = deal(table(FIVE, {1: "A", 2: "B"}))
    state, _ = play_table(state, Sit(3, "C", 100))
    assert not state.seats[3].in_hand
    state, events = play_table(state, TopUp(3, 50))
    assert events == [ToppedUp(3, 50)]  # not in the hand: at once
    state, events = play_table(state, Leave(3))
    assert events == [PlayerLeft(3, 150)]


def test_a_player_seated_mid_hand_is_told_when_the_rules_will_deal_him_in() -> None:
    state, _ = deal(table(FIVE, {1: "A", 2: "B", 4: "C"}))  # button 1, blinds 2 and 4
    state = run(state, Sit(3, "D", 100), Sit(5, "E", 100, True), Sit(6, "F", 100, True))
    told = dealt_in(state)
    assert told == {
        1: DealtIn.NEXT_HAND,
        2: DealtIn.NEXT_HAND,
        3: DealtIn.AFTER_BUTTON,  # between the next button (2) and small blind (4)
        4: DealtIn.NEXT_HAND,
        5: DealtIn.NEXT_HAND,  # waits for the big blind, and the next hand brings it
        6: DealtIn.AT_BIG_BLIND,
    }
    state, began = deal(finish(state))  # what the rules then do
    assert set(began.dealt_in) == {n for n, when in told.items() if when is DealtIn.NEXT_HAND}
    assert dealt_in(state) == dict.fromkeys(range(1, 7), DealtIn.NEXT_HAND)
    assert dealt_in(run(state, SitOut(3))).keys() == {1, 2, 4, 5, 6}  # not to be dealt in


def test_top_up_between_hands_is_immediate() -> None:
    state = table(FIVE, {1: "A", 2: "B"}, stack=50)
    state, events = play_table(state, TopUp(1, 150))
    assert events == [ToppedUp(1, 150)] and state.seats[1].stack == 200


def test_top_up_during_hand_is_queued() -> None:
    state, _ = deal(table(FIVE, {1: "A", 2: "B"}, stack=100))
    state, events = play_table(state, TopUp(1, 60))
    assert events == [TopUpQueued(1, 60)] and state.seats[1].stack == 100
    state, events = play_table(state, TopUp(1, 40))
    assert state.seats[1].queued_top_up == 100
    assert refused(state, TopUp(1, 1)) is ErrorCode.BAD_AMOUNT  # 100 + 100 + 1 > 200
    state, events = play_table(state, FinishHand({1: 50, 2: 150}))
    assert events[1:] == [ToppedUp(1, 100)]
    assert state.seats[1].stack == 150 and state.seats[1].queued_top_up == 0


def test_queued_top_up_is_capped_at_the_maximum_buy_in_when_applied() -> None:
    state, _ = deal(table(FIVE, {1: "A", 2: "B"}, stack=100))
    state, _ = play_table(state, TopUp(1, 100))
    state, events = play_table(state, FinishHand({1: 170, 2: 30}))
    assert events[1:] == [ToppedUp(1, 30)] and state.seats[1].stack == 200


def test_leave_between_hands_cashes_out_at_once() -> None:
    state = table(FIVE, {1: "A", 2: "B"}, stack=80)
    state, events = play_table(state, Leave(2))
    assert events == [PlayerLeft(2, 80)] and 2 not in state.seats


def test_leave_during_hand_is_queued_and_cashes_out_final_stack() -> None:
    state, _ = deal(table(FIVE, {1: "A", 2: "B", 3: "C"}, stack=100))
    state, _ = play_table(state, TopUp(2, 20))
    state, events = play_table(state, Leave(2))
    assert events == [LeaveQueued(2)] and state.seats[2].leaving
    assert refused(state, Leave(2)) is ErrorCode.ILLEGAL_ACTION
    assert refused(state, TopUp(2, 10)) is ErrorCode.ILLEGAL_ACTION
    state, events = play_table(state, FinishHand({1: 90, 2: 140, 3: 70}))
    # He leaves with his final stack; his queued top-up is dropped.
    assert events[1:] == [PlayerLeft(2, 140)]
    assert 2 not in state.seats and state.chips == 160


def test_close_between_hands_everyone_leaves_at_once() -> None:
    state, _ = deal(table(FIVE, {1: "A", 4: "B"}, stack=100))
    state, events = play_table(finish(state, s1=120, s4=80), Close())
    assert events == [PlayerLeft(1, 120), PlayerLeft(4, 80), TableClosed()]
    assert state.closed and state.seats == {}
    assert refused(state, Sit(1, "C", 100)) is ErrorCode.TABLE_CLOSED
    assert refused(state, StartHand()) is ErrorCode.TABLE_CLOSED


def test_sit_out_and_sit_in() -> None:
    state = table(FIVE, {1: "A", 2: "B"})
    state, events = play_table(state, SitOut(2))
    assert events == [SatOut(2)] and state.seats[2].sitting_out
    assert refused(state, SitOut(2)) is ErrorCode.ILLEGAL_ACTION
    state, events = play_table(state, SitIn(2, wait_for_big_blind=True))
    assert events == [SatIn(2, True)] and state.seats[2].waiting
    state, events = play_table(state, SitIn(2))  # changes his mind: posts instead
    assert events == [SatIn(2, False)] and not state.seats[2].waiting
    assert refused(state, SitIn(2)) is ErrorCode.ILLEGAL_ACTION


def test_finish_hand_must_conserve_chips_and_name_the_seats_dealt_in() -> None:
    state, _ = deal(table(FIVE, {1: "A", 2: "B", 3: "C"}))
    state, _ = play_table(state, Sit(4, "D", 100))
    for command in [
        FinishHand({1: 100, 2: 100, 3: 101}),
        FinishHand({1: 100, 2: 200}),
        FinishHand({1: 100, 2: 100, 3: 100, 4: 0}),
        FinishHand({1: -1, 2: 201, 3: 100}),
        FinishHand({1: 100, 2: 100, 3: 100}, timed_out=(4,)),
    ]:
        assert refused(state, command) is ErrorCode.MALFORMED, command


def test_hand_result_from_the_hand_engine() -> None:
    state = table(FIVE, {1: "A", 2: "B", 3: "C"})
    plan = plan_hand(state)
    assert plan is not None
    state, _ = play_table(state, StartHand())
    hand, _ = begin(plan.to_deal(FIVE, FIVE.variant.deck, 1))
    # Button A (player 0) acts first three-handed: his clock runs out, then B's.
    hand, _ = play(hand, TimeOut(0))
    hand, _ = play(hand, TimeOut(1))
    assert hand.complete
    result = hand_result(state, hand)
    assert result == FinishHand({1: 100, 2: 99, 3: 101}, (1, 2))
    state, _ = play_table(state, result)
    assert state.seats[1].sitting_out and state.seats[2].sitting_out
    assert plan_hand(state) is None


def test_refusals_sit() -> None:
    state = table(FIVE, {1: "A"})
    assert refused(state, Sit(1, "B", 100)) is ErrorCode.SEAT_TAKEN
    assert refused(state, Sit(2, "A", 100)) is ErrorCode.SEAT_TAKEN
    assert refused(state, Sit(0, "B", 100)) is ErrorCode.MALFORMED
    assert refused(state, Sit(7, "B", 100)) is ErrorCode.MALFORMED
    assert refused(state, Sit(2, "", 100)) is ErrorCode.MALFORMED
    assert refused(state, Sit(2, "B", 19)) is ErrorCode.BAD_AMOUNT
    assert refused(state, Sit(2, "B", 201)) is ErrorCode.BAD_AMOUNT
    assert refused(state, Sit(2, "B", 0)) is ErrorCode.BAD_AMOUNT
    assert refused(state, Sit(2, "B", 50.5)) is ErrorCode.BAD_AMOUNT  # type: ignore[arg-type]
    assert refused(state, Sit(2, "B", True)) is ErrorCode.BAD_AMOUNT


def test_refusals_commands_on_empty_or_missing_seats() -> None:
    state = table(FIVE, {1: "A"})
    empty: list[TableCommand] = [TopUp(2, 10), SitOut(2), SitIn(2), Leave(2)]
    for command in empty:
        assert refused(state, command) is ErrorCode.NOT_SEATED, command
    missing: list[TableCommand] = [TopUp(9, 10), SitOut(0), SitIn(-1), Leave(7)]
    for command in missing:
        assert refused(state, command) is ErrorCode.MALFORMED, command


def test_refusals_top_up_amounts() -> None:
    state = table(FIVE, {1: "A"}, stack=150)
    assert refused(state, TopUp(1, 0)) is ErrorCode.BAD_AMOUNT
    assert refused(state, TopUp(1, -5)) is ErrorCode.BAD_AMOUNT
    assert refused(state, TopUp(1, 51)) is ErrorCode.BAD_AMOUNT
    assert play_table(state, TopUp(1, 50))[1] == [ToppedUp(1, 50)]


def test_refusals_hand_start_and_finish() -> None:
    state = table(FIVE, {1: "A"})
    assert refused(state, StartHand()) is ErrorCode.ILLEGAL_ACTION  # one player
    assert refused(state, FinishHand({1: 100})) is ErrorCode.ILLEGAL_ACTION  # no hand
    state, _ = deal(run(state, Sit(2, "B", 100)))
    assert refused(state, StartHand()) is ErrorCode.ILLEGAL_ACTION  # one runs


def test_refused_commands_change_nothing() -> None:
    state = table(FIVE, {1: "A", 2: "B"})
    snapshot = replay_table([*open_table(state.config), *state_events(state)])
    commands: list[TableCommand] = [Sit(1, "C", 100), TopUp(1, 500), Leave(3), FinishHand({})]
    for command in commands:
        refused(state, command)
    assert state == snapshot


def state_events(state: TableState) -> list[PlayerSeated]:
    return [PlayerSeated(n, s.player, s.stack) for n, s in sorted(state.seats.items())]


def test_close_during_a_hand_waits_for_its_end_and_deals_no_more() -> None:
    state, _ = deal(table(FIVE, {1: "ann", 2: "bob"}))
    state, events = play_table(state, Close())
    assert events == [CloseQueued()]
    assert state.closing and not state.closed and plan_hand(state) is None
    with pytest.raises(EngineError):
        play_table(state, Close())
    with pytest.raises(EngineError):
        play_table(state, Sit(3, "cy", 100))
    state, events = play_table(state, FinishHand({1: 50, 2: 150}))
    assert events[1:] == [PlayerLeft(1, 50), PlayerLeft(2, 150), TableClosed()]
    assert state.closed and not state.seats
