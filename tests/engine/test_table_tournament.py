"""Tournament tables: the same table rules in tournament mode (RULES.md 6;
TDA where it is silent).  The tournament seats and unseats players with
their chips, adds chips for rebuys, and gives each hand its level."""

from __future__ import annotations

import pytest

from poker.engine.errors import ErrorCode, Malformed
from poker.engine.events import AntePosted, Blind, BlindPosted
from poker.engine.hand import begin
from poker.engine.rules import Betting, Game, Rules
from poker.engine.table import (
    AddChips,
    ButtonDrawn,
    ChipsAdded,
    Close,
    CloseQueued,
    DrawButton,
    FinishHand,
    Leave,
    PlayerArrived,
    PlayerUnseated,
    SatOut,
    Seat,
    Sit,
    SitIn,
    SitOut,
    Stakes,
    StartHand,
    TableClosed,
    TableCommand,
    TableConfig,
    TableState,
    TopUp,
    Unseat,
    UnseatReason,
    plan_hand,
    play_table,
)
from tests.engine.table_support import (
    FIVE,
    deal,
    finish,
    hands,
    positions,
    refused,
    run,
    table,
    tournament_table,
)

LEVEL_1 = Rules(Game.FIVE_CARD_DRAW, Betting.NO_LIMIT, small_blind=10, big_blind=20)
LEVEL_2 = Rules(Game.FIVE_CARD_DRAW, Betting.NO_LIMIT, small_blind=25, big_blind=50, ante=5)
THIRTY_TWO_1 = Rules(Game.THIRTY_TWO_CARD_DRAW, Betting.NO_LIMIT, small_blind=10, big_blind=20)
THIRTY_TWO_5 = Rules(Game.THIRTY_TWO_CARD_DRAW, Betting.NO_LIMIT, small_blind=100, big_blind=200)


def test_tournament_table_never_deals_by_itself() -> None:
    config = TableConfig.for_tournament(7, LEVEL_1, 6, table=3)
    assert config.is_tournament and not config.deals_by_itself
    assert (config.tournament, config.tournament_table) == (7, 3)
    cash = TableConfig.create(FIVE)
    assert cash.deals_by_itself and not cash.is_tournament
    for tournament, number in [(0, None), ("7", None), (None, 2), (7, 0)]:
        with pytest.raises(Malformed):
            TableConfig(LEVEL_1, 6, 1, tournament=tournament, tournament_table=number)  # type: ignore[arg-type]


def test_seat_brings_tournament_chips_whatever_the_buy_in_bounds() -> None:
    state = tournament_table(LEVEL_1, {})
    state, events = play_table(state, Seat(2, "ann", 5))
    assert events == [PlayerArrived(2, "ann", 5)]
    state, _ = play_table(state, Seat(4, "bob", 1_000_000))
    assert state.chips == 1_000_005 and state.seat_of("bob") == 4
    # A player out of chips who may still rebuy is moved with none.
    state, events = play_table(state, Seat(5, "cy", 0))
    assert events == [PlayerArrived(5, "cy", 0)] and state.seats[5].stack == 0


def test_seat_refuses_a_taken_seat_a_seated_player_and_nonsense() -> None:
    state = tournament_table(LEVEL_1, {1: "ann"})
    assert refused(state, Seat(1, "bob", 100)) is ErrorCode.SEAT_TAKEN
    assert refused(state, Seat(2, "ann", 100)) is ErrorCode.SEAT_TAKEN
    assert refused(state, Seat(7, "bob", 100)) is ErrorCode.MALFORMED
    assert refused(state, Seat(2, "", 100)) is ErrorCode.MALFORMED
    assert refused(state, Seat(2, "bob", -1)) is ErrorCode.MALFORMED
    assert refused(state, Seat(2, "bob", True)) is ErrorCode.MALFORMED


def test_cash_commands_are_refused_at_a_tournament_table() -> None:
    state = tournament_table(LEVEL_1, {1: "ann", 2: "bob"})
    commands: list[TableCommand] = [Sit(3, "cy", 400), TopUp(1, 100), Leave(1)]
    for command in commands:
        assert refused(state, command) is ErrorCode.ILLEGAL_ACTION, command


def test_tournament_commands_are_refused_at_a_cash_table() -> None:
    state = table(FIVE, {1: "ann", 2: "bob"})
    commands: list[TableCommand] = [
        Seat(3, "cy", 100),
        Unseat(1, UnseatReason.MOVED),
        AddChips(1, 100),
        StartHand(LEVEL_2),
    ]
    for command in commands:
        assert refused(state, command) is ErrorCode.ILLEGAL_ACTION, command
    assert play_table(state, StartHand(FIVE))[1][0] == play_table(state, StartHand())[1][0]


def test_moved_player_takes_his_stack_to_the_other_table() -> None:
    here = tournament_table(LEVEL_1, {1: "ann", 2: "bob", 3: "cy"})
    there = tournament_table(LEVEL_1, {1: "dan", 2: "eve"})
    here, _ = deal(here)
    here = finish(here, s1=700, s2=1300)
    before = here.chips + there.chips
    here, (gone,) = play_table(here, Unseat(2, UnseatReason.MOVED))
    assert gone == PlayerUnseated(2, 1300, UnseatReason.MOVED) and 2 not in here.seats
    there, (came,) = play_table(there, Seat(4, "bob", gone.stack))
    assert came == PlayerArrived(4, "bob", 1300)
    assert here.chips + there.chips == before


def test_nobody_is_unseated_during_his_hand() -> None:
    state, _ = deal(tournament_table(LEVEL_1, {1: "ann", 2: "bob"}))
    state = run(state, Seat(3, "cy", 500))  # arrives during the hand, not dealt in
    assert not state.seats[3].in_hand
    assert refused(state, Unseat(1, UnseatReason.MOVED)) is ErrorCode.ILLEGAL_ACTION
    state, events = play_table(state, Unseat(3, UnseatReason.MOVED))
    assert events == [PlayerUnseated(3, 500, UnseatReason.MOVED)]
    assert refused(state, Unseat(1, UnseatReason.CLOSED)) is ErrorCode.MALFORMED
    assert refused(state, Unseat(5, UnseatReason.MOVED)) is ErrorCode.NOT_SEATED


def test_busted_player_is_reported_and_stays_until_the_tournament_unseats_him() -> None:
    state, _ = deal(tournament_table(LEVEL_1, {1: "ann", 2: "bob", 3: "cy"}))
    state, events = play_table(state, FinishHand({1: 2000, 2: 0, 3: 1000}))
    assert events[0].busted == (2,)  # type: ignore[union-attr]
    assert state.seats[2].stack == 0  # he may still rebuy: the tournament knows
    plan = plan_hand(state)
    assert plan is not None and plan.seats == (1, 3)
    assert refused(state, Unseat(1, UnseatReason.BUSTED)) is ErrorCode.ILLEGAL_ACTION
    state, events = play_table(state, Unseat(2, UnseatReason.BUSTED))
    assert events == [PlayerUnseated(2, 0, UnseatReason.BUSTED)] and 2 not in state.seats


def test_rebuy_adds_chips_between_his_hands_and_deals_him_back_in() -> None:
    state, _ = deal(tournament_table(LEVEL_1, {1: "ann", 2: "bob", 3: "cy", 4: "dan"}))
    state = finish(state, s1=0, s2=2000)
    state, events = play_table(state, AddChips(1, 1000))
    assert events == [ChipsAdded(1, 1000)] and state.seats[1].stack == 1000
    state, event = deal(state)
    assert 1 in event.dealt_in
    assert refused(state, AddChips(1, 500)) is ErrorCode.ILLEGAL_ACTION  # in the hand
    assert refused(state, AddChips(1, 0)) is ErrorCode.BAD_AMOUNT


def test_disqualified_player_leaves_with_his_chips_out_of_play() -> None:
    state = tournament_table(LEVEL_1, {1: "ann", 2: "bob", 3: "cy"})
    state, events = play_table(state, Unseat(3, UnseatReason.DISQUALIFIED))
    assert events == [PlayerUnseated(3, 1000, UnseatReason.DISQUALIFIED)]
    assert state.chips == 2000


def test_sitting_out_player_is_dealt_in_and_blinded_off() -> None:
    state = tournament_table(LEVEL_1, {1: "ann", 2: "bob", 3: "cy"})
    state = run(state, SitOut(2))
    assert state.away(2) and not state.away(1)
    state, event = deal(state)
    assert event.dealt_in == (1, 2, 3) and event.posts == ()
    assert state.away(2)  # the service checks or folds for him
    state = run(finish(state), SitIn(2))
    assert not state.away(2)
    cash = run(table(FIVE, {1: "ann", 2: "bob", 3: "cy"}), SitOut(2))
    assert not cash.away(2)


def test_timed_out_player_is_sat_out_and_blinded_off() -> None:
    state, _ = deal(tournament_table(LEVEL_1, {1: "ann", 2: "bob", 3: "cy"}))
    state, _ = play_table(state, FinishHand({1: 1000, 2: 1000, 3: 1000}, timed_out=(3,)))
    assert state.seats[3].sitting_out and state.away(3)
    _, event = deal(state)
    assert 3 in event.dealt_in


def test_no_posts_and_no_missed_blinds_in_a_tournament() -> None:
    state = tournament_table(LEVEL_1, {1: "ann", 2: "bob", 3: "cy", 4: "dan", 5: "eve"})
    state, _ = hands(state, 1)
    state = run(state, SitOut(4))
    state, events = hands(state, 2)  # he posts the big, then the small blind, away
    assert [(e.big, e.small) for e in events] == [(4, 3), (5, 4)]
    assert all(4 in e.dealt_in and e.posts == () for e in events)
    state = run(state, Seat(6, "fay", 1000))
    _, event = deal(state)
    assert 6 in event.dealt_in and event.posts == ()
    assert all(not s.missed for s in state.seats.values())


def test_nobody_waits_for_the_big_blind_in_a_tournament() -> None:
    state = run(tournament_table(LEVEL_1, {1: "ann", 2: "bob"}), SitOut(2))
    assert refused(state, SitIn(2, wait_for_big_blind=True)) is ErrorCode.ILLEGAL_ACTION
    assert play_table(state, SitIn(2))[1]


def test_each_hand_is_dealt_at_the_level_the_tournament_gives() -> None:
    state = tournament_table(LEVEL_1, {1: "ann", 2: "bob", 3: "cy"})
    plan = plan_hand(state, LEVEL_2)
    assert plan is not None and plan.stakes == Stakes(25, 50, 5)
    deal_ = plan.to_deal(state.config.rules, LEVEL_1.variant.deck, 1)
    assert deal_.rules == LEVEL_2
    _, opening = begin(deal_)
    assert [e.amount for e in opening if isinstance(e, AntePosted)] == [5, 5, 5]
    blinds = [(e.blind, e.amount) for e in opening if isinstance(e, BlindPosted)]
    assert blinds == [(Blind.SMALL, 25), (Blind.BIG, 50)]
    state, (event,) = play_table(state, StartHand(LEVEL_2))
    assert event.stakes == Stakes(25, 50, 5)  # type: ignore[union-attr]
    assert state.rules == LEVEL_2 and state.stakes == Stakes(25, 50, 5)


def test_the_level_in_force_stays_until_the_next_is_given() -> None:
    state = tournament_table(LEVEL_1, {1: "ann", 2: "bob"})
    state, first = deal(state)
    assert first.stakes == Stakes(10, 20, 0)  # the table's own rules: level 1
    state, _ = deal(finish(state), LEVEL_2)
    state, event = deal(finish(state))
    assert event.stakes == Stakes(25, 50, 5) and state.rules == LEVEL_2


def test_a_level_changes_the_blinds_and_ante_only() -> None:
    state = tournament_table(LEVEL_1, {1: "ann", 2: "bob"})
    for level in [
        Rules(Game.FIVE_CARD_DRAW, Betting.POT_LIMIT, 25, 50),
        Rules(Game.DEUCE_TO_SEVEN_SINGLE_DRAW, Betting.NO_LIMIT, 25, 50),
        Rules(Game.FIVE_CARD_DRAW, Betting.NO_LIMIT, 0, 50),
        Rules(Game.FIVE_CARD_DRAW, Betting.NO_LIMIT, 50, 25),
    ]:
        assert refused(state, StartHand(level)) is ErrorCode.MALFORMED, level


def test_over_blind_follows_the_levels_big_blind() -> None:
    seated = {1: "ann", 2: "bob", 3: "cy", 4: "dan"}
    state = tournament_table(THIRTY_TWO_1, seated)
    plan = plan_hand(state, THIRTY_TWO_5)
    assert plan is not None
    _, opening = begin(plan.to_deal(THIRTY_TWO_1, THIRTY_TWO_1.variant.deck, 1))
    posted = [(e.blind, e.amount) for e in opening if isinstance(e, BlindPosted)]
    assert posted == [(Blind.SMALL, 100), (Blind.BIG, 200), (Blind.OVER, 400)]


def test_arriving_player_is_dealt_in_at_once_in_the_blinds_or_on_the_button() -> None:
    seated = {1: "ann", 2: "bob", 3: "cy", 4: "dan"}
    for gone, expected in [
        (2, (2, 3, 4, None)),  # the seat the button is due on: he deals
        (3, (2, 3, 4, None)),  # the last big blind's seat: he posts the small blind
        (4, (2, 3, 4, None)),  # the big blind's seat: he posts it
    ]:
        state, _ = hands(tournament_table(LEVEL_1, seated), 1)  # button 1, blinds 2 and 3
        state = run(state, Unseat(gone, UnseatReason.MOVED), Seat(gone, "new", 800))
        _, event = deal(state)
        assert positions(event) == expected and gone in event.dealt_in, gone
        assert not event.button_dead and event.posts == ()
    state, _ = hands(tournament_table(LEVEL_1, seated), 1)
    _, event = deal(run(state, Seat(6, "new", 800)))
    assert 6 in event.dealt_in and event.posts == ()  # after the big blind, no post


def test_arriving_player_between_the_button_and_small_blind_waits_for_the_button() -> None:
    state = tournament_table(LEVEL_1, {1: "ann", 2: "bob", 4: "cy", 5: "dan"})
    state, _ = hands(state, 1)  # button 1, blinds 2 and 4
    state = run(state, Seat(3, "new", 800))
    state, event = deal(state)
    assert positions(event) == (2, 4, 5, None) and 3 not in event.dealt_in
    _, event = deal(finish(state))
    assert positions(event) == (4, 5, 1, None) and 3 in event.dealt_in


def test_button_and_blinds_move_as_in_cash_games_past_busted_seats() -> None:
    seated = {1: "ann", 2: "bob", 3: "cy", 4: "dan"}
    state, _ = hands(tournament_table(LEVEL_1, seated), 1)  # button 1, blinds 2 and 3
    state, _ = deal(state)  # button 2, blinds 3 and 4
    state = finish(state, s3=0, s1=2000)  # the small blind busts: a dead button next
    _, event = deal(state)
    assert positions(event) == (3, 4, 1, None) and event.button_dead
    state, _ = hands(tournament_table(LEVEL_1, seated), 1)
    state, _ = deal(state)
    state = run(finish(state, s4=0, s1=2000), Unseat(4, UnseatReason.BUSTED))
    _, event = deal(state)  # the big blind busted: a dead small blind next
    assert positions(event) == (3, None, 1, None)


def test_close_unseats_everyone_with_his_stack() -> None:
    state = tournament_table(LEVEL_1, {1: "ann", 2: "bob"})
    _, events = play_table(state, Close())
    out = [PlayerUnseated(n, 1000, UnseatReason.CLOSED) for n in (1, 2)]
    assert events == [*out, TableClosed()]
    state, _ = deal(state)
    state, events = play_table(state, Close())
    assert events == [CloseQueued()]
    state, events = play_table(state, FinishHand({1: 1500, 2: 500}))
    out = [PlayerUnseated(n, s, UnseatReason.CLOSED) for n, s in [(1, 1500), (2, 500)]]
    assert events[1:] == [*out, TableClosed()]
    assert state.closed and refused(state, Seat(1, "cy", 10)) is ErrorCode.TABLE_CLOSED


def test_nothing_comes_onto_a_closing_table() -> None:
    state, _ = deal(tournament_table(LEVEL_1, {1: "ann", 2: "bob", 3: "cy"}))
    state = run(state, SitOut(3), Close())
    commands: list[TableCommand] = [Seat(4, "dan", 10), AddChips(3, 10), SitIn(3)]
    for command in commands:
        assert refused(state, command) is ErrorCode.TABLE_CLOSED, command
    assert play_table(state, SitOut(1))[1] == [SatOut(1)]


def _redrawn() -> TableState:
    """A 32 Card Draw table after two hands, everyone unseated and three
    players seated afresh at seats 2, 4 and 5 (the final table's draw)."""
    state = tournament_table(THIRTY_TWO_1, {1: "a", 2: "b", 3: "c", 4: "d", 5: "e"})
    state, _ = hands(state, 2, THIRTY_TWO_1)
    for seat in sorted(state.seats):
        state = run(state, Unseat(seat, UnseatReason.MOVED))
    return run(state, Seat(2, "x", 1000), Seat(4, "y", 1000), Seat(5, "z", 1000), Seat(1, "w", 0))


def test_a_drawn_table_starts_from_the_drawn_button_with_live_blinds() -> None:
    state, events = play_table(_redrawn(), DrawButton(4))
    assert events == [ButtonDrawn(4)]
    state, began = deal(state, THIRTY_TWO_1)
    assert positions(began) == (4, 5, 2, None) and not began.button_dead
    assert began.dealt_in == (2, 4, 5) and began.posts == ()


def test_a_drawn_button_on_a_player_without_chips_goes_to_the_next_with_chips() -> None:
    state = run(_redrawn(), DrawButton(1))
    state, began = deal(state, THIRTY_TWO_1)
    assert positions(began) == (2, 4, 5, None) and not began.button_dead


def test_the_button_is_drawn_to_a_taken_seat_between_hands() -> None:
    state = _redrawn()
    assert refused(state, DrawButton(3)) is ErrorCode.NOT_SEATED
    state, _ = deal(run(state, DrawButton(2)), THIRTY_TWO_1)
    assert refused(state, DrawButton(2)) is ErrorCode.ILLEGAL_ACTION
    cash = table(FIVE, {1: "a", 2: "b"})
    assert refused(cash, DrawButton(1)) is ErrorCode.ILLEGAL_ACTION
