"""Leaving mid-hand: the hand is folded at once, out of turn (Forfeit)."""

from __future__ import annotations

import pytest

from poker.engine.cards import deck_52, seeded_shuffle
from poker.engine.commands import Act, Action, Deal, Forfeit
from poker.engine.errors import IllegalAction
from poker.engine.events import Folded, PotAwarded
from poker.engine.hand import begin, play
from poker.engine.rules import Betting, Game, Rules
from poker.engine.state import HandState, Phase

RULES = Rules(Game.FIVE_CARD_DRAW, Betting.NO_LIMIT, 1, 2)


def hand(stacks: tuple[int, ...] = (100, 100, 100, 100)) -> HandState:
    """Button A (0), B small blind, C big blind, D first to act."""
    players = tuple((name, stack) for name, stack in zip("ABCD", stacks, strict=False))
    state, _ = begin(Deal(RULES, players, 0, seeded_shuffle(deck_52(), 1, 0), 1))
    return state


def test_forfeit_folds_at_once_and_the_turn_stays_put() -> None:
    state = hand()
    assert state.to_act == 3
    state, events = play(state, Forfeit(1))
    assert events == [Folded(1)]
    assert state.players[1].folded
    assert state.to_act == 3


def test_forfeit_on_his_own_turn_passes_the_turn() -> None:
    state, _ = play(hand(), Forfeit(3))
    assert state.to_act == 0


def test_forfeit_leaving_one_player_ends_the_hand() -> None:
    state = hand((100, 100, 100))
    state, _ = play(state, Act(0, Action.RAISE, amount=10))
    state, _ = play(state, Forfeit(2))
    state, events = play(state, Forfeit(1))
    assert state.complete
    awards = [e for e in events if isinstance(e, PotAwarded)]
    assert [s.player for a in awards for s in a.shares] == [0]
    assert sum(p.stack for p in state.players) == 300


def test_forfeit_of_the_last_player_to_answer_ends_the_round() -> None:
    state = hand((100, 100, 100))
    state, _ = play(state, Act(0, Action.CALL))
    state, _ = play(state, Act(1, Action.CALL))
    assert state.to_act == 2  # the big blind's option
    state, _ = play(state, Forfeit(2))
    assert state.phase is Phase.DRAW


def test_forfeit_during_the_draw_skips_his_draw() -> None:
    state = hand()
    for player in (3, 0, 1):
        state, _ = play(state, Act(player, Action.CALL))
    state, _ = play(state, Act(2, Action.CHECK))
    assert state.phase is Phase.DRAW and state.to_act == 1
    state, _ = play(state, Forfeit(2))
    state, _ = play(state, Act(1, Action.STAND))
    assert state.to_act == 3


def test_forfeit_refused_for_an_all_in_hand() -> None:
    state = hand((100, 100, 100, 5))
    state, _ = play(state, Act(3, Action.RAISE, amount=5))
    with pytest.raises(IllegalAction, match="all-in"):
        play(state, Forfeit(3))


def test_forfeit_refused_for_a_player_out_of_the_hand() -> None:
    state, _ = play(hand(), Act(3, Action.FOLD))
    with pytest.raises(IllegalAction, match="not in the hand"):
        play(state, Forfeit(3))


def test_the_blinds_leaving_give_their_chips_to_a_player_who_put_in_none() -> None:
    state = hand((100, 100, 100, 100))
    state, _ = play(state, Act(3, Action.FOLD))
    state, _ = play(state, Forfeit(2))  # the big blind leaves: his 2 chips are dead
    state, events = play(state, Forfeit(1))
    assert state.complete
    assert [p.stack for p in state.players] == [103, 99, 98, 100]
    assert not [e for e in events if type(e).__name__ == "BetReturned"]
