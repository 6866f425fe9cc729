"""Button and blinds from hand to hand (RULES.md 1, TDA dead button).

The big blind advances exactly one seat a hand; the small blind is due where
the big blind was and the button where the small blind was, dead when that
seat is empty.  Heads-up the dealer posts the big blind.  32 Card Draw with
4-5 players dealt in adds the over blind left of the big blind.
"""

from __future__ import annotations

from poker.engine.events import Blind, BlindPosted
from poker.engine.hand import begin
from poker.engine.table import (
    FinishHand,
    Leave,
    Sit,
    SitOut,
    StartHand,
    began,
    plan_hand,
    play_table,
)
from tests.engine.table_support import FIVE, THIRTY_TWO, deal, finish, hands, positions, run, table


def test_first_hand_button_on_first_seat_blinds_next_to_it() -> None:
    state = table(FIVE, {2: "A", 4: "B", 5: "C", 6: "D"})
    _, event = deal(state)
    assert positions(event) == (2, 4, 5, None)
    assert event.dealt_in == (2, 4, 5, 6) and event.posts == () and not event.button_dead


def test_big_blind_advances_one_seat_each_hand() -> None:
    state = table(FIVE, {1: "A", 2: "B", 4: "C", 6: "D"})
    _, events = hands(state, 5)
    assert [positions(e) for e in events] == [
        (1, 2, 4, None),
        (2, 4, 6, None),
        (4, 6, 1, None),
        (6, 1, 2, None),
        (1, 2, 4, None),
    ]


def test_big_blind_skips_seats_sitting_out_and_nobody_posts_it_twice() -> None:
    state = table(FIVE, {1: "A", 2: "B", 3: "C", 4: "D"})
    state, _ = hands(state, 1)  # button 1, blinds 2 and 3
    state = run(state, SitOut(4))
    state, (event,) = hands(state, 1)
    assert positions(event) == (2, 3, 1, None)


def test_dead_small_blind_when_small_blind_seat_emptied() -> None:
    state = table(FIVE, {1: "A", 2: "B", 3: "C", 4: "D"})
    state, _ = hands(state, 2)  # second hand: button 2, blinds 3 and 4
    state = run(state, Leave(4))
    state, event = deal(state)
    # The big blind moves on to seat 1; nobody posts the small blind.
    assert positions(event) == (3, None, 1, None)
    assert not event.button_dead and event.dealt_in == (1, 2, 3)


def test_dead_button_when_button_seat_emptied() -> None:
    state = table(FIVE, {1: "A", 2: "B", 3: "C", 4: "D"})
    state, _ = hands(state, 2)  # second hand: button 2, blinds 3 and 4
    state = run(state, Leave(3))
    plan = plan_hand(state)
    assert plan is not None
    # The button stays on the empty seat 3; B (seat 2) is the last player before it.
    assert (plan.button_seat, plan.button_dead) == (3, True)
    assert plan.seats == (1, 2, 4) and plan.button == 1
    state, event = deal(state)
    assert positions(event) == (3, 4, 1, None) and event.button_dead


def test_dead_button_deals_from_the_player_after_the_empty_seat() -> None:
    state = table(FIVE, {1: "A", 2: "B", 3: "C", 4: "D"})
    state, _ = hands(state, 2)
    state = run(state, Leave(3))
    plan = plan_hand(state)
    assert plan is not None
    hand, opening = begin(plan.to_deal(FIVE, FIVE.variant.deck, 1))
    blinds = [(e.player, e.blind) for e in opening if isinstance(e, BlindPosted)]
    assert blinds == [(2, Blind.SMALL), (0, Blind.BIG)]  # D small, A big
    assert hand.button_dead and hand.to_act == 1  # B acts first, left of the big blind


def test_dead_small_blind_posts_only_the_big_blind_in_the_hand() -> None:
    state = table(FIVE, {1: "A", 2: "B", 3: "C", 4: "D"})
    state, _ = hands(state, 2)
    state = run(state, Leave(4))
    plan = plan_hand(state)
    assert plan is not None
    _, opening = begin(plan.to_deal(FIVE, FIVE.variant.deck, 1))
    assert [(e.player, e.blind) for e in opening if isinstance(e, BlindPosted)] == [(0, Blind.BIG)]


def test_heads_up_dealer_posts_big_blind() -> None:
    state = table(FIVE, {2: "A", 5: "B"})
    state, events = hands(state, 3)
    # The dealer posts the big blind, the other player the small blind.
    assert [positions(e) for e in events] == [(2, 5, 2, None), (5, 2, 5, None), (2, 5, 2, None)]
    plan = plan_hand(state)
    assert plan is not None
    _, opening = begin(plan.to_deal(FIVE, FIVE.variant.deck, 1))
    blinds = [(e.player, e.blind) for e in opening if isinstance(e, BlindPosted)]
    assert blinds == [(0, Blind.SMALL), (1, Blind.BIG)] and plan.button == 1


def test_going_heads_up_nobody_posts_big_blind_twice() -> None:
    for leaver, expected in [
        (1, (2, 3, 2, None)),  # the button leaves: B, the small blind, takes the big
        (2, (1, 3, 1, None)),  # the small blind leaves: A goes from the button to the big
        (3, (1, 2, 1, None)),  # the big blind leaves: the button moves onto the big blind
    ]:
        state = table(FIVE, {1: "A", 2: "B", 3: "C"})
        state, (first,) = hands(state, 1)
        assert positions(first) == (1, 2, 3, None)
        state = run(state, Leave(leaver))
        _, event = deal(state)
        assert positions(event) == expected, leaver
        assert not event.button_dead


def test_from_heads_up_to_three_handed_button_goes_behind_small_blind() -> None:
    state = table(FIVE, {1: "A", 3: "B"})
    state, _ = hands(state, 1)  # A deals and posts the big blind
    state = run(state, Sit(2, "C", 100))
    _, event = deal(state)
    # The big blind reaches the newcomer C at once (no post); B, the last
    # small blind, takes the button.
    assert positions(event) == (3, 1, 2, None) and event.posts == ()


def test_from_heads_up_newcomer_behind_the_small_blind_waits_a_hand() -> None:
    state = table(FIVE, {1: "A", 3: "B"})
    state, _ = hands(state, 1)
    state = run(state, Sit(5, "C", 100))
    state, event = deal(state)
    # C would be on the button: he waits until it has passed him.
    assert event.dealt_in == (1, 3) and positions(event) == (3, 1, 3, None)
    state = finish(state)
    _, event = deal(state)
    assert positions(event) == (1, 3, 5, None) and event.posts == ()


def test_over_blind_only_with_four_or_more_dealt_in() -> None:
    for seated, over in [
        ({1: "A", 2: "B"}, None),
        ({1: "A", 2: "B", 3: "C"}, None),
        ({1: "A", 2: "B", 3: "C", 4: "D"}, 4),
        ({1: "A", 2: "B", 3: "C", 4: "D", 5: "E"}, 4),
    ]:
        _, event = deal(table(THIRTY_TWO, seated))
        assert event.over == over, seated
    _, event = deal(table(FIVE, {n: f"P{n}" for n in range(1, 7)}))
    assert event.over is None  # only 32 Card Draw has an over blind


def test_over_blind_advances_like_big_blind() -> None:
    state = table(THIRTY_TWO, {1: "A", 2: "B", 3: "C", 4: "D", 5: "E"})
    state, events = hands(state, 3)
    assert [positions(e) for e in events] == [(1, 2, 3, 4), (2, 3, 4, 5), (3, 4, 5, 1)]
    state = run(state, SitOut(2))
    _, event = deal(state)
    assert positions(event) == (4, 5, 1, 3)  # the over blind skips the empty place too


def test_over_blind_is_the_largest_blind_in_the_hand_engine() -> None:
    state = table(THIRTY_TWO, {1: "A", 2: "B", 3: "C", 4: "D"})
    plan = plan_hand(state)
    assert plan is not None
    hand, opening = begin(plan.to_deal(THIRTY_TWO, THIRTY_TWO.variant.deck, 1))
    posted = [(e.player, e.blind, e.amount) for e in opening if isinstance(e, BlindPosted)]
    assert posted == [(1, Blind.SMALL, 3), (2, Blind.BIG, 6), (3, Blind.OVER, 12)]
    assert hand.largest_blind == 3 and hand.to_act == 0


def test_start_hand_numbers_hands_and_matches_the_plan() -> None:
    state = table(FIVE, {1: "A", 2: "B"})
    state, events = hands(state, 2)
    assert [e.number for e in events] == [1, 2]
    plan = plan_hand(state)
    assert plan is not None
    state, (event,) = play_table(state, StartHand())
    assert event == began(plan, 3) and state.hand_running
    assert plan_hand(state) is None  # nothing to plan while a hand runs
    state, _ = play_table(state, FinishHand({1: 200, 2: 0}))
    assert plan_hand(state) is None  # B has no chips: one player ready
