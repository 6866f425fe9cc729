"""Stacks too short for the forced bets."""

from __future__ import annotations

from poker.engine.betting import legal_actions
from poker.engine.cards import deck_52, seeded_shuffle
from poker.engine.commands import Act, Action, Deal
from poker.engine.hand import begin, play
from poker.engine.rules import Betting, Game, Rules


def test_a_big_blind_all_in_on_the_ante_still_sets_the_bet_unit_and_the_order() -> None:
    rules = Rules(Game.FIVE_CARD_DRAW, Betting.NO_LIMIT, 1, 2, ante=1)
    players = (("A", 50), ("B", 50), ("C", 1), ("D", 50))  # C, the big blind, antes his all
    state, _ = begin(Deal(rules, players, 0, seeded_shuffle(deck_52(), 3, 0), 3))
    legal = legal_actions(state)
    assert legal is not None and legal.player == 3  # left of the big blind
    assert legal.call == 2 and legal.min_raise_to == 4
    state, _ = play(state, Act(3, Action.CALL))
    state, _ = play(state, Act(0, Action.CALL))
    state, _ = play(state, Act(1, Action.CALL))
    legal = legal_actions(state)
    assert legal is not None and legal.actions == (Action.STAND, Action.DISCARD)
