"""A round of Casino Draw Poker (RULES.md 5), one test per rule.

Rounds are dealt from hands written out in full: ``_round(["box A's five",
...], "dealer's five", "the stub's top")``; the rest of the deck follows in
card order.
"""

from __future__ import annotations

import json

import pytest

from poker.engine.cards import JOKER_BASE, Card, cards, codes
from poker.engine.casino import (
    SPECTATOR,
    Act,
    Action,
    CasinoRules,
    CasinoState,
    Deal,
    Entrant,
    PayTable,
    Phase,
    Result,
    TimeOut,
    begin,
    legal_actions,
    play,
    redact,
    view,
)
from poker.engine.casino.events import DealerExchanged, DiscardsReshuffled
from poker.engine.errors import EngineError, Malformed

A, B = 0, 1
STAND, PLAY, FOLD = Action.STAND, Action.PLAY, Action.FOLD


def _deck(hands: list[str], dealer: str, stub: str, jokers: int) -> tuple[Card, ...]:
    """One card at a time to each box in seat order, then the dealer."""
    held = [cards(h) for h in hands] + [cards(dealer)]
    top = [hand[k] for k in range(5) for hand in held] + list(cards(stub))
    assert len(set(top)) == len(top), "a test deck repeats a card"
    rest = [c for c in CasinoRules(jokers=jokers).deck if c not in set(top)]
    return tuple(top + rest)


def _round(
    hands: list[str],
    dealer: str,
    stub: str = "",
    *,
    bet: int = 10,
    stacks: list[int] | None = None,
    jokers: int = 2,
    pay_table: PayTable | None = None,
    seed: int = 1,
) -> CasinoState:
    rules = CasinoRules(jokers=jokers, pay_table=pay_table or PayTable())
    names = "ABCDE"
    boxes = tuple(
        Entrant(names[i], (stacks or [1000] * len(hands))[i], bet) for i in range(len(hands))
    )
    return begin(Deal(rules, boxes, _deck(hands, dealer, stub, jokers), seed))[0]


def _do(state: CasinoState, *commands: Act | TimeOut) -> CasinoState:
    for command in commands:
        state, _ = play(state, command)
    return state


def _refused(state: CasinoState, command: Act | TimeOut) -> str:
    with pytest.raises(EngineError) as refused:
        play(state, command)
    return refused.value.code.value


def _exchange(box: int, thrown: str) -> Act:
    return Act(box, Action.EXCHANGE, cards(thrown))


BOX1 = "Ah Jd 9c 2s Kd"
"""Ace high, no draw."""
BOX2 = "9h 9d 8c 5d 4s"
"""A pair of nines."""
QUEENS = "Qs Qc 8d 5c 3s"
"""A dealer's pair of queens: he changes three and, from QUEENS_DRAW, keeps queens."""
QUEENS_DRAW = "Tc 7c 4h"
NOTHING = "2c 5d 9s Jh Qc"
"""A dealer's hand with no draw: he changes all five, and from NOTHING_DRAW has ace high."""
NOTHING_DRAW = "Ah Kc 9d 6s 3h"


# --------------------------------------------------------------------------
# Stakes and the order of play


def test_each_box_stakes_its_original_bet_on_bonus_before_the_deal() -> None:
    state = _round(["8h 8s 4c 4s Kd", "2h 3h 4h 5h 7s"], QUEENS, stacks=[100, 50])
    assert [(b.stack, b.ante) for b in state.boxes] == [(90, 10), (40, 10)]


def test_cards_go_one_at_a_time_to_each_box_then_the_dealer() -> None:
    rules = CasinoRules()
    deck = rules.deck
    state, _ = begin(Deal(rules, (Entrant("A", 100, 1), Entrant("B", 100, 1)), deck, 1))
    assert state.boxes[A].cards == deck[0:15:3]
    assert state.boxes[B].cards == deck[1:15:3]
    assert state.dealer == deck[2:15:3]


def test_ante_is_the_original_bet_times_one_plus_the_exchanges() -> None:
    state = _round([BOX1, BOX2], QUEENS, "4h 7d 3c")
    state = _do(state, _exchange(A, "9c Kd"), Act(B, STAND), _exchange(A, "2s"))
    assert [b.ante for b in state.boxes] == [30, 10]
    assert [b.stack for b in state.boxes] == [970, 990]


def test_a_card_drawn_takes_the_place_of_the_one_thrown() -> None:
    state = _round([BOX1], QUEENS, "4h 7d")
    state = _do(state, _exchange(A, "Kd 9c"))
    assert codes(state.boxes[A].cards) == ["Ah", "Jd", "4h", "2s", "7d"]


def test_the_second_exchange_is_only_for_boxes_that_exchanged_in_the_first() -> None:
    state = _round([BOX1, BOX2], QUEENS, "4h")
    state = _do(state, Act(A, STAND), _exchange(B, "4s"))
    assert state.phase is Phase.SECOND_EXCHANGE and state.to_act == B
    assert _refused(state, Act(A, STAND)) == "out_of_turn"


def test_without_a_first_exchange_there_is_no_second() -> None:
    state = _do(_round([BOX1], QUEENS), Act(A, STAND))
    assert state.phase is Phase.DECISION
    legal = legal_actions(state)
    assert legal is not None and legal.actions == (PLAY, FOLD) and legal.stake == 20


def test_the_first_exchange_changes_one_to_five_cards() -> None:
    state = _round([BOX1], QUEENS)
    assert _refused(state, Act(A, Action.EXCHANGE)) == "bad_cards"
    state = _do(state, _exchange(A, BOX1))
    assert state.phase is Phase.SECOND_EXCHANGE


def test_the_second_exchange_changes_exactly_one_card() -> None:
    state = _do(_round([BOX1], QUEENS, "4h"), _exchange(A, "9c"))
    assert _refused(state, _exchange(A, "2s Kd")) == "bad_cards"
    assert _refused(state, Act(A, Action.EXCHANGE)) == "bad_cards"
    legal = legal_actions(state)
    assert legal is not None and legal.max_exchange == 1


def test_only_cards_he_holds_can_be_exchanged_each_once() -> None:
    state = _round([BOX1], QUEENS)
    assert _refused(state, _exchange(A, "3c")) == "bad_cards"
    assert _refused(state, Act(A, Action.EXCHANGE, cards("Ah Ah"))) == "bad_cards"


def test_play_stakes_twice_the_ante() -> None:
    state = _round([BOX1], QUEENS, "4h 7d")
    state = _do(state, _exchange(A, "9c Kd"), Act(A, STAND), Act(A, PLAY))
    box = state.boxes[A]
    assert (box.ante, box.bet) == (20, 40)


def test_decisions_go_in_seat_order_and_a_skipped_turn_is_out_of_turn() -> None:
    state = _round([BOX1, BOX2], QUEENS)
    assert _refused(state, Act(B, STAND)) == "out_of_turn"
    assert _refused(state, Act(A, PLAY)) == "illegal_action"


def test_a_box_that_cannot_cover_its_bet_is_refused_before_the_deal() -> None:
    with pytest.raises(EngineError) as refused:
        _round([BOX1], QUEENS, stacks=[9])
    assert refused.value.code.value == "illegal_action"


def test_an_exchange_he_cannot_cover_is_refused() -> None:
    state = _round([BOX1], QUEENS, stacks=[15])
    legal = legal_actions(state)
    assert legal is not None and legal.actions == (STAND,)
    assert _refused(state, _exchange(A, "9c")) == "illegal_action"


def test_a_play_he_cannot_cover_is_refused() -> None:
    state = _do(_round([BOX1], QUEENS, stacks=[25]), Act(A, STAND))
    legal = legal_actions(state)
    assert legal is not None and legal.actions == (FOLD,)
    assert _refused(state, Act(A, PLAY)) == "illegal_action"


def test_one_to_four_boxes() -> None:
    with pytest.raises(Malformed):
        _round([], QUEENS)
    five = ["2c 2d 2h 2s 3c", "3d 3h 3s 4c 4d", "4h 4s 5c 5d 5h", "5s 6c 6d 6h 6s"]
    five.append("7c 7d 7h 7s 8c")
    with pytest.raises(Malformed):
        _round(five, "Ac Ad Ah As Kc")


def test_a_clock_that_runs_out_stands_in_an_exchange_and_folds_at_the_decision() -> None:
    state = _do(_round([BOX1], QUEENS), TimeOut(A))
    assert state.phase is Phase.DECISION and state.boxes[A].exchanges == 0
    state = _do(state, TimeOut(A))
    assert state.complete and state.boxes[A].result is Result.FOLD


# --------------------------------------------------------------------------
# Settlement


def _played(box: str, dealer: str, stub: str, **kwargs: object) -> CasinoState:
    """One box of B 10 that stands and plays: ANTE 10, BET 20."""
    state = _round([box], dealer, stub, **kwargs)  # type: ignore[arg-type]
    state = _do(state, Act(A, STAND), Act(A, PLAY))
    assert state.complete
    return state


def test_a_dealer_without_jacks_or_better_pays_ante_two_to_three_rounded_down() -> None:
    """ANTE 10 wins 6 (6.67 rounded down); BET 20 comes back."""
    state = _played("2h 2d 4c 7s Kd", NOTHING, NOTHING_DRAW)
    box = state.boxes[A]
    assert (box.result, box.won, box.stack) == (Result.NOT_QUALIFIED, 10 + 6 + 20, 1006)


def test_a_pair_of_tens_does_not_qualify_the_dealer() -> None:
    state = _played("2h 2d 4c 7s Kd", "Ts Tc 8d 5c 3s", "9d 6c 2s")
    assert state.boxes[A].result is Result.NOT_QUALIFIED


def test_a_higher_hand_gets_the_ante_back_and_wins_the_bet_by_the_pay_table() -> None:
    """Full house against queens: ANTE 10 returned unpaid, BET 20 wins 2 x 20."""
    state = _played("Kh Kd Ks 4c 4d", QUEENS, QUEENS_DRAW)
    box = state.boxes[A]
    assert (box.result, box.hand, box.won) == (Result.WIN, "full-house", 10 + 20 + 40)
    assert box.stack == 1000 - 30 + 70


def test_five_of_a_kind_pays_twenty_to_one() -> None:
    state = _played("Kh Kd Ks Kc X1", QUEENS, QUEENS_DRAW)
    assert state.boxes[A].won == 10 + 20 + 20 * 20


def test_a_pay_table_is_configurable_and_keeps_the_default_for_lines_left_out() -> None:
    table = PayTable.from_json({"full-house": 4})
    assert (table.full_house, table.four_of_a_kind) == (4, 3)
    state = _played("Kh Kd Ks 4c 4d", QUEENS, QUEENS_DRAW, pay_table=table)
    assert state.boxes[A].won == 10 + 20 + 4 * 20
    state = _played("Kh Kd Ks Kc X1", QUEENS, QUEENS_DRAW, pay_table=table)
    assert state.boxes[A].won == 10 + 20 + 20 * 20


def test_a_pay_table_names_only_known_hands_with_whole_payouts() -> None:
    with pytest.raises(Malformed):
        PayTable.from_json({"three-pair": 2})
    with pytest.raises(Malformed):
        PayTable.from_json({"pair": 0})
    with pytest.raises(Malformed):
        PayTable.from_json({"pair": 1.5})


def test_a_higher_dealer_takes_ante_and_bet() -> None:
    state = _played("9h 9d 4c 7s 2d", QUEENS, QUEENS_DRAW)
    box = state.boxes[A]
    assert (box.result, box.won, box.stack) == (Result.LOSE, 0, 970)


def test_equal_hands_are_decided_by_the_next_highest_card() -> None:
    """Queens with T-7-5 beat queens with T-7-4: pair pays 1:1."""
    state = _played("Qh Qd Th 7d 5h", QUEENS, QUEENS_DRAW)
    box = state.boxes[A]
    assert (box.result, box.won) == (Result.WIN, 10 + 40)


def test_hands_equal_to_the_last_card_push() -> None:
    state = _played("Qh Qd Th 7d 4c", QUEENS, QUEENS_DRAW)
    box = state.boxes[A]
    assert (box.result, box.won, box.stack) == (Result.PUSH, 30, 1000)


def test_a_hand_made_with_a_joker_equals_the_same_hand_without() -> None:
    state = _played("Qh X1 Th 7d 4c", QUEENS, QUEENS_DRAW)
    assert state.boxes[A].result is Result.PUSH


def test_folding_loses_the_ante() -> None:
    state = _round([BOX1], QUEENS, "4h 7d 3c")
    state = _do(state, _exchange(A, "9c Kd"), _exchange(A, "2s"), Act(A, FOLD))
    box = state.boxes[A]
    assert (box.result, box.won, box.stack) == (Result.FOLD, 0, 970)


def test_when_every_box_folds_the_dealer_does_not_exchange() -> None:
    state = _round([BOX1, BOX2], QUEENS)
    state, events = play(_do(state, Act(A, STAND), Act(B, STAND), Act(A, FOLD)), Act(B, FOLD))
    assert state.complete and state.dealer == cards(QUEENS)
    assert state.dealer_shown and not any(isinstance(e, DealerExchanged) for e in events)


def test_a_folded_box_does_not_stop_the_dealer_exchanging_for_one_that_plays() -> None:
    state = _round([BOX1, BOX2], QUEENS, QUEENS_DRAW)
    state = _do(state, Act(A, STAND), Act(B, STAND), Act(A, FOLD), Act(B, PLAY))
    assert codes(state.dealer_discarded) == ["8d", "5c", "3s"]
    assert [b.result for b in state.boxes] == [Result.FOLD, Result.LOSE]


def test_when_the_cards_run_out_the_discards_are_reshuffled_never_his_own() -> None:
    """No jokers and four boxes changing 5 then 1: 49 cards out, 3 left, and
    the dealer changes five.  He draws the three, then two of the boxes'
    reshuffled discards, whatever the seed."""
    hands = ["2c 3d 4h 5s 7c", "2d 3h 4s 5c 7d", "2h 3s 4c 5d 7h", "2s 3c 4d 5h 7s"]
    dealer = "9c Jd Kh 6c 8h"  # changes all five
    for seed in range(8):
        state = _round(hands, dealer, jokers=0, seed=seed)
        for i, hand in enumerate(hands):
            state = _do(state, _exchange(i, hand))
        last = [codes(state.boxes[i].cards)[0] for i in range(4)]
        for i in range(4):
            state = _do(state, _exchange(i, last[i]))
        stub = state.stub
        assert len(stub) == 3
        thrown = {c for h in hands for c in cards(h)} | set(cards(" ".join(last)))
        state, events = play(_do(state, Act(0, PLAY), Act(1, PLAY), Act(2, PLAY)), Act(3, PLAY))
        assert any(isinstance(e, DiscardsReshuffled) for e in events)
        drawn = [c for c in state.dealer if c not in cards(dealer)]
        assert drawn[:3] == list(stub) and set(drawn[3:]) <= thrown
        assert not set(state.dealer) & set(cards(dealer))


# --------------------------------------------------------------------------
# What each box sees


def test_a_box_sees_its_own_cards_and_the_dealers_only_once_turned_up() -> None:
    state = _round([BOX1, BOX2], QUEENS, QUEENS_DRAW)
    mine = view(state, A)
    assert mine["boxes"][A]["cards"] == ["Ah", "Jd", "9c", "2s", "Kd"]
    assert mine["boxes"][B]["cards"] is None and mine["dealer"]["cards"] is None
    assert mine["legal"] == {"actions": ["exchange", "stand"], "stake": 10, "max_exchange": 5}
    assert view(state, B)["legal"] is None
    hidden = {str(c) for b in state.boxes for c in b.cards} | {str(c) for c in state.dealer}
    text = json.dumps(view(state, SPECTATOR))
    assert not any(f'"{c}"' in text for c in hidden)
    state = _do(state, Act(A, STAND), Act(B, STAND), Act(A, PLAY), Act(B, FOLD))
    seen = view(state, SPECTATOR)
    assert seen["dealer"]["cards"] == ["Qs", "Qc", "Tc", "7c", "4h"]
    assert seen["boxes"][A]["cards"] is None and seen["boxes"][A]["hand"] == "high-card"
    assert seen["boxes"][B]["hand"] is None, "a folded hand is never shown"


def test_redacted_events_hide_other_boxes_cards_and_the_deck() -> None:
    rules = CasinoRules()
    deal = Deal(rules, (Entrant("A", 100, 1), Entrant("B", 100, 1)), rules.deck, 1)
    state, events = begin(deal)
    state, more = play(state, Act(A, Action.EXCHANGE, state.boxes[A].cards[:2]))
    for event in events + more:
        text = json.dumps(redact(event, B))
        for c in (*state.boxes[A].cards, *state.dealer, *state.stub):
            assert f'"{c}"' not in text, (event, c)


def test_jokers_are_configurable() -> None:
    assert sum(c >= JOKER_BASE for c in CasinoRules(jokers=4).deck) == 4
    with pytest.raises(Malformed):
        _round([BOX1], QUEENS, jokers=5)
