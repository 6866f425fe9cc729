"""The draw games of RULES.md sections 3 and 4, each played through one hand.

Why: the engine reads every game from ``VARIANTS`` and never tests a game by
name, so a new game is only as right as its row. Each 52-card game plays the
same fixed-limit hand: three players, button A, everybody bets or calls in
every betting round and stands pat in every draw. The test reads off what
the game's row decides: who acts first, how many draws and betting rounds
there are, the fixed-limit bet of each round, how many cards a draw may
throw, and who wins with the game's ranking. The three hands are chosen so
that each ranking picks a different winner (A holds the wheel, B 7-5-4-3-2,
C a full house).
"""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from poker.engine.betting import legal_actions
from poker.engine.cards import Card, cards
from poker.engine.commands import Act, Action, Deal
from poker.engine.events import BetPlaced, BettingStarted, DrawStarted, Event, Raised
from poker.engine.hand import play, replay, start
from poker.engine.rules import VARIANTS, AnteBy, Betting, Game, Rules
from poker.engine.state import HandState, Phase

A, B, C = 0, 1, 2
HANDS = {A: "As 2c 3d 4s 5c", B: "7c 5d 4c 3s 2d", C: "Kc Kd Ks 9c 9d"}
"""The wheel (best A-5 low, a straight high), the best 2-7 low, a full house."""


@dataclass(frozen=True)
class Expected:
    """What RULES.md says one game does with the hand above."""

    draws: int
    bets: tuple[int, ...]
    """The fixed-limit bet of each betting round, blinds 1-2."""
    winner: int


GAMES = {
    Game.FIVE_CARD_DRAW: Expected(1, (2, 4), C),
    Game.FIVE_CARD_TRIPLE_DRAW: Expected(3, (2, 2, 4, 4), C),
    Game.DEUCE_TO_SEVEN_SINGLE_DRAW: Expected(1, (2, 4), B),
    Game.DEUCE_TO_SEVEN_TRIPLE_DRAW: Expected(3, (2, 2, 4, 4), B),
    Game.ACE_TO_FIVE_SINGLE_DRAW: Expected(1, (2, 4), A),
    Game.ACE_TO_FIVE_TRIPLE_DRAW: Expected(3, (2, 2, 4, 4), A),
}
"""Every 52-card pot game: triple draw has small bets in rounds 1-2 and big
bets in 3-4 (RULES.md 1), single draw a big bet after its draw."""


def deal(game: Game, ante: int = 0, ante_by: AnteBy = AnteBy.ALL) -> HandState:
    """HANDS dealt one card at a time from left of the button (B, C, A)."""
    rules = Rules(game, Betting.FIXED_LIMIT, 1, 2, ante=ante, ante_by=ante_by)
    held = {p: cards(h.split()) for p, h in HANDS.items()}
    top = [held[p][k] for k in range(5) for p in (B, C, A)]
    deck = tuple(top) + tuple(c for c in rules.variant.deck if c not in set(top))
    players = (("A", 100), ("B", 100), ("C", 100))
    return replay(start(Deal(rules, players, A, deck, seed=1)))


@dataclass
class Playthrough:
    """One hand played as the module says, with what was seen on the way."""

    state: HandState
    events: list[Event]
    first_to_act: list[int]
    """The first player asked in each betting round and each draw, in order."""
    max_discards: list[int]
    bet_sizes: list[int]
    """The only bet (or raise, in round 1) the menu allowed, per round."""

    def step(self, command: Act) -> None:
        self.state, more = play(self.state, command)
        self.events += more


def play_through(game: Game) -> Playthrough:
    """Raise once in round 1 and bet once in every later round; the others
    call, and nobody draws."""
    hand = Playthrough(deal(game), [], [], [], [])
    while hand.state.phase is not Phase.SHOWDOWN and not hand.state.complete:
        if hand.state.phase is Phase.DRAW:
            draw_round(hand)
        else:
            betting_round(hand)
    while not hand.state.complete:
        assert hand.state.to_act is not None
        hand.step(Act(hand.state.to_act, Action.SHOW))
    return hand


def betting_round(hand: Playthrough) -> None:
    """The first player asked bets or raises the one size he may; the
    others call."""
    legal = legal_actions(hand.state)
    assert legal is not None
    hand.first_to_act.append(legal.player)
    raising = legal.min_bet_to is None
    low = legal.min_raise_to if raising else legal.min_bet_to
    high = legal.max_raise_to if raising else legal.max_bet_to
    assert low is not None and low == high, "fixed limit: one size"
    hand.bet_sizes.append(low - hand.state.current_bet if raising else low)
    hand.step(Act(legal.player, Action.RAISE if raising else Action.BET, amount=low))
    while hand.state.phase is Phase.BETTING and (legal := legal_actions(hand.state)):
        hand.step(Act(legal.player, Action.CALL))


def draw_round(hand: Playthrough) -> None:
    """Everybody stands pat; the first drawer and the discard limit are noted."""
    legal = legal_actions(hand.state)
    assert legal is not None and legal.max_discard is not None
    hand.first_to_act.append(legal.player)
    hand.max_discards.append(legal.max_discard)
    while hand.state.phase is Phase.DRAW and (legal := legal_actions(hand.state)):
        hand.step(Act(legal.player, Action.STAND))


@pytest.fixture(params=list(GAMES), ids=lambda g: g.value)
def game(request: pytest.FixtureRequest) -> Game:
    return request.param  # type: ignore[no-any-return]


def test_every_52_card_pot_game_is_covered() -> None:
    assert set(GAMES) == set(Game) - {Game.THIRTY_TWO_CARD_DRAW}


def test_draws_and_betting_rounds_come_from_the_game(game: Game) -> None:
    """Single draw: one draw, two betting rounds; triple draw: three and four."""
    events = play_through(game).events
    draws = [e.draw for e in events if isinstance(e, DrawStarted)]
    rounds = [e.round for e in events if isinstance(e, BettingStarted)]
    assert len(draws) == GAMES[game].draws == VARIANTS[game].draws
    assert len(rounds) == GAMES[game].draws  # round 1 starts with the deal
    assert max(rounds) == GAMES[game].draws


def test_round_one_starts_left_of_the_big_blind_the_rest_left_of_the_button(game: Game) -> None:
    """A (button, left of C's big blind) opens; every draw and every later
    betting round starts with B, the first active player left of the button."""
    first = play_through(game).first_to_act
    assert first == [A] + [B] * (2 * GAMES[game].draws)


def test_fixed_limit_bets_are_small_then_big(game: Game) -> None:
    """Small bet (the big blind) in round 1 (and 2 in triple draw), big bet
    (twice it) after."""
    hand = play_through(game)
    assert tuple(hand.bet_sizes) == GAMES[game].bets
    raised = [e.to for e in hand.events if isinstance(e, BetPlaced | Raised)]
    assert raised == [2 + 2, *GAMES[game].bets[1:]]


def test_a_draw_may_throw_all_five_cards(game: Game) -> None:
    """Discard 0 to 5 in every draw of every 52-card game (RULES.md 3, 4)."""
    assert play_through(game).max_discards == [5] * GAMES[game].draws


def test_the_winner_is_the_best_hand_by_the_games_ranking(game: Game) -> None:
    """High: C's full house; 2-7: B's 7-5-4-3-2; A-5: A's wheel. He takes
    the pot of 3 x (4 + the later bets)."""
    hand = play_through(game)
    expected = GAMES[game]
    paid = 4 + sum(expected.bets[1:])
    stacks = [p.stack for p in hand.state.players]
    assert stacks == [100 - paid + (3 * paid if p == expected.winner else 0) for p in (A, B, C)]


@pytest.mark.parametrize("ante_by", list(AnteBy), ids=lambda a: a.value)
def test_a5_single_draw_takes_an_ante_as_the_triple_draw(ante_by: AnteBy) -> None:
    """RULES.md 4: the optional A-5 ante, by the big blind alone or by all,
    is dead money in the pot, as in A-5 triple draw."""
    single = deal(Game.ACE_TO_FIVE_SINGLE_DRAW, ante=1, ante_by=ante_by)
    triple = deal(Game.ACE_TO_FIVE_TRIPLE_DRAW, ante=1, ante_by=ante_by)
    assert [p.stack for p in single.players] == [p.stack for p in triple.players]
    posted = 1 if ante_by is AnteBy.BIG_BLIND else 3
    assert sum(100 - p.stack for p in single.players) == 1 + 2 + posted


def test_five_card_triple_draw_deals_replacements_for_five_cards() -> None:
    """Five Card Draw triple draw throws 0-5 as the single draw does: a
    five-card discard is dealt five new cards from the stub."""
    hand = Playthrough(deal(Game.FIVE_CARD_TRIPLE_DRAW), [], [], [], [])
    hand.step(Act(A, Action.CALL))
    hand.step(Act(B, Action.CALL))
    hand.step(Act(C, Action.CHECK))
    thrown: tuple[Card, ...] = hand.state.players[B].cards
    hand.step(Act(B, Action.DISCARD, cards=thrown))
    kept = hand.state.players[B].cards
    assert len(kept) == 5 and not set(kept) & set(thrown)
