"""New and returning players: posting to come in, waiting for the big blind,
missed blinds (RULES.md 1, cash tables; Robert's Rules where it is silent).
"""

from __future__ import annotations

from poker.engine.events import Blind, BlindPosted
from poker.engine.hand import begin
from poker.engine.table import (
    FinishHand,
    Leave,
    SeatPost,
    Sit,
    SitIn,
    SitOut,
    TopUp,
    plan_hand,
    play_table,
)
from tests.engine.table_support import FIVE, THIRTY_TWO, deal, finish, hands, run, table


def test_no_posts_in_first_hand() -> None:
    state = table(FIVE, {})
    state = run(state, Sit(1, "A", 100), Sit(3, "B", 100, wait_for_big_blind=True))
    state = run(state, Sit(5, "C", 100))
    _, event = deal(state)
    assert event.dealt_in == (1, 3, 5) and event.posts == ()


def test_new_player_posts_largest_blind_or_waits() -> None:
    state = table(FIVE, {1: "A", 2: "B", 3: "C", 4: "D"})
    state, _ = hands(state, 1)  # button 1, blinds 2 and 3
    state = run(state, Sit(6, "E", 100), Sit(5, "F", 100, wait_for_big_blind=True))
    state, event = deal(state)
    assert event.dealt_in == (1, 2, 3, 4, 6)  # F waits for the big blind
    assert event.posts == (SeatPost(6, live=2),)  # E posts a big blind to play at once
    state = finish(state)
    _, event = deal(state)
    assert event.big == 5 and 5 in event.dealt_in  # the big blind reached F
    assert event.posts == ()


def test_new_player_posts_over_blind_when_four_or_five_play_32_card_draw() -> None:
    state = table(THIRTY_TWO, {1: "A", 2: "B", 3: "C", 4: "D"})
    state, _ = hands(state, 4)  # the fourth hand: button 4, blinds 1, 2 and 3
    state = run(state, Sit(5, "E", 100))
    plan = plan_hand(state)
    assert plan is not None and plan.seats == (1, 2, 3, 4, 5)
    state, event = deal(state)
    assert (event.button, event.small, event.big, event.over) == (1, 2, 3, 4)
    assert event.posts == (SeatPost(5, live=12),)
    # The post is live: it counts as E's bet and the others call the over blind.
    hand, opening = begin(plan.to_deal(THIRTY_TWO, THIRTY_TWO.variant.deck, 1))
    assert BlindPosted(4, Blind.EXTRA, 12) in opening
    assert hand.current_bet == 12 and hand.players[4].bet == 12


def test_new_player_in_big_blind_posts_only_the_blind() -> None:
    state = table(FIVE, {1: "A", 2: "B", 3: "C"})
    state, _ = hands(state, 1)  # button 1, blinds 2 and 3
    state = run(state, Sit(4, "D", 100))
    _, event = deal(state)
    assert event.big == 4 and event.posts == ()


def test_new_player_between_button_and_small_blind_waits_for_button_to_pass() -> None:
    state = table(FIVE, {1: "A", 2: "B", 4: "C", 5: "D"})
    state, _ = hands(state, 1)  # button 1, blinds 2 and 4
    state = run(state, Sit(3, "E", 100))
    state, event = deal(state)
    # Button 2, small blind 4: seat 3 is between them, E is not dealt in.
    assert (event.button, event.small, event.big) == (2, 4, 5)
    assert 3 not in event.dealt_in and event.posts == ()
    state = finish(state)
    _, event = deal(state)
    assert (event.button, event.small, event.big) == (4, 5, 1)
    assert event.posts == (SeatPost(3, live=2),)


def test_returning_player_missed_small_posts_big() -> None:
    state = table(FIVE, {1: "A", 2: "B", 3: "C", 4: "D", 5: "E"})
    state, _ = hands(state, 1)  # C posts the big blind in seat 3
    state = run(state, SitOut(3))
    state, event = deal(state)
    assert event.small is None  # due from C, who sits out
    state = run(finish(state), SitIn(3))
    assert state.seats[3].missed == {Blind.SMALL}
    state, event = deal(state)
    assert event.button == 3 and 3 not in event.dealt_in  # no entry on the button
    state = finish(state)
    _, event = deal(state)
    assert event.posts == (SeatPost(3, live=2),)


def test_returning_player_missed_small_and_big_posts_big_plus_dead_small() -> None:
    state = table(FIVE, {1: "A", 2: "B", 3: "C", 4: "D", 5: "E"})
    state, _ = hands(state, 1)  # button 1, blinds 2 and 3
    state = run(state, SitOut(4))
    state, _ = hands(state, 2)  # the big blind passes seat 4, then the small blind
    state = run(state, SitIn(4))
    assert state.seats[4].missed == {Blind.SMALL, Blind.BIG}
    plan = plan_hand(state)
    assert plan is not None
    state, event = deal(state)
    assert event.posts == (SeatPost(4, live=2, dead=1),)
    hand, opening = begin(plan.to_deal(FIVE, FIVE.variant.deck, 1))
    assert BlindPosted(3, Blind.EXTRA, 1, dead=True) in opening
    assert hand.players[3].bet == 2 and hand.pot == 1 + 2 + 2 + 1
    assert state.seats[4].missed == frozenset()  # paid


def test_returning_player_missed_all_three_posts_over_plus_dead_small_and_big() -> None:
    state = table(THIRTY_TWO, {1: "A", 2: "B", 3: "C", 4: "D", 5: "E"})
    state, _ = hands(state, 1)  # button 1, blinds 2, 3 and 4
    state = run(state, SitOut(5))
    state, events = hands(state, 3)  # the over, big and small blinds pass seat 5
    assert [e.over for e in events] == [1, 2, 3]
    state = run(state, SitIn(5))
    assert state.seats[5].missed == {Blind.SMALL, Blind.BIG, Blind.OVER}
    _, event = deal(state)
    assert 5 in event.dealt_in and event.over is not None
    assert event.posts == (SeatPost(5, live=12, dead=3 + 6),)


def test_returning_player_owing_the_over_blind_posts_at_most_the_hands_largest_blind() -> None:
    state = table(THIRTY_TWO, {1: "A", 2: "B", 3: "C", 4: "D", 5: "E"})
    state, _ = hands(state, 1)
    state = run(state, SitOut(5))
    state, _ = hands(state, 3)
    state = run(state, SitIn(5), Leave(1), Leave(2))
    _, event = deal(state)
    # Three play: no over blind, so E's live post is a big blind.
    assert event.over is None
    assert event.posts == (SeatPost(5, live=6, dead=3 + 6),)


def test_returning_player_may_wait_for_big_blind_instead() -> None:
    state = table(FIVE, {1: "A", 2: "B", 3: "C", 4: "D", 5: "E"})
    state, _ = hands(state, 1)
    state = run(state, SitOut(4))
    state, _ = hands(state, 2)
    state = run(state, SitIn(4, wait_for_big_blind=True))
    state, events = hands(state, 4)
    assert [4 in e.dealt_in for e in events] == [False, False, True, True]
    assert events[2].big == 4 and all(e.posts == () for e in events)
    assert state.seats[4].missed == frozenset()


def test_sitting_out_between_hands_without_missing_a_blind_owes_nothing() -> None:
    state = table(FIVE, {1: "A", 2: "B", 3: "C", 4: "D"})
    state, _ = hands(state, 1)
    state = run(state, SitOut(4), SitIn(4))
    _, event = deal(state)
    assert 4 in event.dealt_in and event.posts == ()


def test_sitting_out_players_are_not_dealt_in() -> None:
    state = table(FIVE, {1: "A", 2: "B", 3: "C"})
    state = run(state, SitOut(2))
    _, event = deal(state)
    assert event.dealt_in == (1, 3)


def test_players_without_chips_are_not_dealt_in() -> None:
    state = table(FIVE, {1: "A", 2: "B", 3: "C", 4: "D"})
    state, _ = deal(state)  # button 1, blinds 2 and 3
    state = finish(state, s4=0, s1=200)
    assert state.seats[4].stack == 0
    state, event = deal(state)
    assert event.dealt_in == (1, 2, 3)
    state = run(finish(state), TopUp(4, 50))
    # The big blind passed seat 4 while D had no chips: he owes it.
    assert state.seats[4].missed == {Blind.BIG}
    state, event = deal(state)
    assert 4 not in event.dealt_in  # between the button and the small blind
    state = finish(state)
    assert state.seats[4].missed == {Blind.SMALL, Blind.BIG}  # the small blind passed too
    _, event = deal(state)
    assert event.posts == (SeatPost(4, live=2, dead=1),)


def test_timed_out_player_sits_out_from_next_hand() -> None:
    state = table(FIVE, {1: "A", 2: "B", 3: "C"})
    state, _ = deal(state)
    state, _ = play_table(state, FinishHand({1: 100, 2: 100, 3: 100}, timed_out=(2,)))
    assert state.seats[2].sitting_out
    _, event = deal(state)
    assert event.dealt_in == (1, 3)


def test_table_restarts_around_big_blind_rather_than_stall() -> None:
    state = table(FIVE, {1: "A", 2: "B", 3: "C"})
    state, _ = hands(state, 1)  # big blind in seat 3
    state = run(state, Leave(2), Leave(3), Sit(2, "D", 100, wait_for_big_blind=True))
    # The big blind is due on A; D waits for it, which would leave A alone.
    plan = plan_hand(state)
    assert plan is not None
    _, event = deal(state)
    assert (event.button, event.small, event.big) == (1, 2, 1) and event.posts == ()
