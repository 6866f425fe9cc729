"""The table's clocks (RULES.md 1): who is on the clock, for how long, the
32 Card Draw bet window, the time bank and the pause between hands."""

from __future__ import annotations

from dataclasses import replace

import pytest

from poker.engine.betting import Legal, legal_actions
from poker.engine.commands import Act, Action
from poker.engine.errors import BadAmount, ErrorCode, Malformed
from poker.engine.hand import begin, play
from poker.engine.state import HandState, Phase
from poker.engine.table import (
    TableConfig,
    TableState,
    TimeBankUsed,
    UseTimeBank,
    plan_hand,
    play_table,
)
from poker.engine.table.clock import (
    BetWindowClosed,
    ClockKind,
    bank_used,
    check_bet_window,
    legal_at,
    next_hand_clock,
    turn_clock,
)
from tests.engine.table_support import FIVE, THIRTY_TWO, deal, finish, table

T0 = 1_700_000_000.0


def dealt(rules=THIRTY_TWO, players=3) -> tuple[TableState, HandState]:
    """A table whose first hand was just dealt, and that hand."""
    return deal_from(table(rules, {n: f"p{n}" for n in range(1, players + 1)}))


def deal_from(state: TableState) -> tuple[TableState, HandState]:
    """Deal ``state``'s next hand: the table after it, and the hand."""
    plan = plan_hand(state)
    assert plan is not None
    rules = state.config.rules
    state, _ = deal(state)
    return state, begin(plan.to_deal(rules, rules.variant.deck, 1))[0]


def test_the_player_to_act_is_on_the_action_clock_from_the_last_event() -> None:
    state, hand = dealt()
    clock = turn_clock(state, hand, T0)
    assert clock is not None and clock.kind is ClockKind.ACTION
    assert clock.seat == state.hand_seats[hand.to_act]
    assert clock.deadline == T0 + 30
    assert clock.expires == T0 + 30 + state.config.time_bank_seconds


def test_32_card_draw_allows_a_bet_or_raise_only_in_the_first_ten_seconds() -> None:
    state, hand = dealt()
    clock = turn_clock(state, hand, T0)
    assert clock is not None and clock.bet_until == T0 + 10
    check_bet_window(clock, Action.RAISE, T0 + 10)
    with pytest.raises(BetWindowClosed) as refused:
        check_bet_window(clock, Action.RAISE, T0 + 10.5)
    assert refused.value.code is ErrorCode.BET_WINDOW_CLOSED
    for action in (Action.CALL, Action.FOLD, Action.CHECK):
        check_bet_window(clock, action, T0 + 29)


def test_the_menu_drops_the_bet_and_raise_the_bet_window_would_refuse() -> None:
    state, hand = dealt()
    clock = turn_clock(state, hand, T0)
    legal = legal_actions(hand)
    assert clock is not None and legal is not None and Action.RAISE in legal.actions
    assert legal_at(legal, clock.bet_until, T0 + 10) == legal
    late = legal_at(legal, clock.bet_until, T0 + 10.5)
    assert late.actions == tuple(a for a in legal.actions if a not in (Action.BET, Action.RAISE))
    assert (late.min_raise_to, late.max_raise_to) == (None, None)
    for action in late.actions:  # everything still offered is accepted
        check_bet_window(clock, action, T0 + 10.5)


def test_other_games_have_no_bet_window() -> None:
    state, hand = dealt(FIVE)
    clock = turn_clock(state, hand, T0)
    assert clock is not None and clock.bet_until is None
    check_bet_window(clock, Action.RAISE, T0 + 29)


def test_the_draw_has_its_own_clock() -> None:
    state, hand = dealt(FIVE, players=2)
    while hand.phase is Phase.BETTING:
        legal = _legal(hand)
        action = Action.CHECK if Action.CHECK in legal.actions else Action.CALL
        hand = play(hand, Act(legal.player, action))[0]
    assert hand.phase is Phase.DRAW
    state = replace(state, config=replace(state.config, draw_seconds=20))
    clock = turn_clock(state, hand, T0)
    assert clock is not None and clock.kind is ClockKind.DRAW
    assert clock.deadline == T0 + 20 and clock.bet_until is None


def test_a_parole_offer_is_answered_on_the_parole_clock() -> None:
    state, hand = dealt(players=3)
    while hand.phase is not Phase.PAROLE:
        legal = _legal(hand)
        if Action.PAROLE in legal.actions:
            action = Action.PAROLE
        else:
            action = next(
                a for a in (Action.CHECK, Action.CALL, Action.STAND) if a in legal.actions
            )
        hand = play(hand, Act(legal.player, action))[0]
    clock = turn_clock(state, hand, T0)
    assert clock is not None and clock.kind is ClockKind.PAROLE
    assert clock.deadline == T0 + state.config.parole_seconds and clock.bet_until is None


def test_nobody_is_on_the_clock_when_the_hand_is_over() -> None:
    state, hand = dealt(FIVE, players=2)
    legal = _legal(hand)
    hand = play(hand, Act(legal.player, Action.FOLD))[0]
    assert hand.complete and turn_clock(state, hand, T0) is None


def test_the_time_bank_runs_once_the_clock_has_run_out() -> None:
    state, hand = dealt()
    clock = turn_clock(state, hand, T0)
    assert clock is not None
    assert bank_used(clock, T0 + 30) == 0
    assert bank_used(clock, T0 + 30.2) == 1  # a started second counts
    assert bank_used(clock, T0 + 42) == 12
    assert bank_used(clock, T0 + 500) == state.config.time_bank_seconds


def test_using_the_time_bank_takes_it_off_the_seat() -> None:
    state = table(THIRTY_TWO, {1: "a", 2: "b"})
    assert state.seats[1].bank == 30
    state, events = play_table(state, UseTimeBank(1, 12))
    assert events == [TimeBankUsed(1, 12)]
    assert state.seats[1].bank == 18


def test_a_player_cannot_use_more_than_his_time_bank() -> None:
    state = table(THIRTY_TWO, {1: "a", 2: "b"})
    for seconds in (0, 31, -1):
        with pytest.raises(BadAmount):
            play_table(state, UseTimeBank(1, seconds))


def test_an_empty_time_bank_leaves_only_the_clock() -> None:
    state, _ = play_table(table(THIRTY_TWO, {1: "a", 2: "b", 3: "c"}), UseTimeBank(1, 30))
    state, _ = play_table(state, UseTimeBank(2, 30))
    state, _ = play_table(state, UseTimeBank(3, 30))
    state, hand = deal_from(state)
    clock = turn_clock(state, hand, T0)
    assert clock is not None and clock.expires == clock.deadline


def test_time_banks_are_refilled_every_so_many_hands() -> None:
    state = table(THIRTY_TWO, {1: "a", 2: "b"})
    config = replace(state.config, time_bank_refill_hands=3)
    state = replace(state, config=config)
    state, _ = play_table(state, UseTimeBank(1, 20))
    for number in (1, 2):
        state, _ = deal(state)
        state = finish(state)
        assert state.seats[1].bank == 10, number
    state, _ = deal(state)  # hand 3
    assert state.seats[1].bank == 30


def test_the_next_hand_is_dealt_after_the_pause() -> None:
    state = table(THIRTY_TWO, {1: "a", 2: "b"})
    clock = next_hand_clock(state, T0)
    assert clock.kind is ClockKind.NEXT_HAND and clock.seat is None
    assert clock.expires == T0 + state.config.pause_seconds


@pytest.mark.parametrize(
    "changes",
    [
        {"bet_seconds": 31},
        {"bet_seconds": 0},
        {"parole_seconds": 0},
        {"time_bank_seconds": -1},
        {"pause_seconds": 3601},
        {"time_bank_refill_hands": 1.5},
    ],
)
def test_clock_settings_out_of_bounds_are_refused(changes: dict[str, object]) -> None:
    with pytest.raises(Malformed):
        replace(TableConfig.create(THIRTY_TWO), **changes)


def _legal(hand: HandState) -> Legal:
    legal = legal_actions(hand)
    assert legal is not None
    return legal
