"""Hand throughput: the engine against PokerKit 0.7.7, random legal hands.

Why: a table server plays every hand through the engine, so its speed caps
how many tables one process can run; PokerKit is the reference point (the
goal is an engine at least 10x faster on the comparable game).

The work: ``HANDS`` hands per configuration, each played from a fresh deal to
the end by one random policy (same odds for fold, raise and each discard
count) that picks from each library's own legal-action queries, the way a
user drives it:

- engine: ``Deal`` with a deck shuffled by a seeded ``random.Random``, then
  ``begin``, and ``legal_actions`` / ``play`` until the hand is complete
  (showdown shows and mucks are decisions here, as in the service);
- PokerKit: ``create_state`` with every automation (it shuffles, burns,
  deals, shows and pays by itself), then ``can_*`` queries and the chosen
  operation until ``state.status`` is False.

Configurations: the engine on 32 Card Draw (5 players, no limit) and on 2-7
triple draw (6 players, fixed limit); PokerKit on its fixed-limit 2-7 triple
draw, 6 players, the one game both implement. Each runs ``RUNS`` times from
the same seed and the best time counts (``time.perf_counter``). Actions are
the betting and draw decisions; time includes everything from the deal on.
"""

from __future__ import annotations

import random
import time
import warnings
from collections.abc import Callable
from dataclasses import dataclass

from pokerkit import Automation, FixedLimitDeuceToSevenLowballTripleDraw
from pokerkit import State as PkState

from poker.engine.betting import Legal, legal_actions
from poker.engine.commands import Act, Action, Deal
from poker.engine.hand import begin, play
from poker.engine.rules import Betting, Game, Rules
from poker.engine.state import HandState

HANDS = 1_000
RUNS = 3
SEED = 20_240_602
GOAL = 10.0
"""Engine hands per second over PokerKit's, on fixed-limit 2-7 triple draw."""

FOLD = 0.15
"""Chance to fold when facing a bet."""
RAISE = 0.25
"""Chance to bet or raise when allowed."""
DISCARDS = (0, 0, 1, 1, 1, 2, 2, 3, 4, 5)
"""Discard counts drawn uniformly from here (capped by what the game allows)."""
BLINDS = (1, 2)
STACK = 200

PK_AUTOMATIONS = (
    Automation.ANTE_POSTING,
    Automation.BET_COLLECTION,
    Automation.BLIND_OR_STRADDLE_POSTING,
    Automation.CARD_BURNING,
    Automation.HOLE_DEALING,
    Automation.HOLE_CARDS_SHOWING_OR_MUCKING,
    Automation.HAND_KILLING,
    Automation.CHIPS_PUSHING,
    Automation.CHIPS_PULLING,
)


@dataclass(frozen=True)
class Result:
    """One configuration's best run."""

    name: str
    hands: int
    actions: int
    seconds: float

    @property
    def hands_per_second(self) -> float:
        """Whole hands, deal to payout, per second."""
        return self.hands / self.seconds

    @property
    def actions_per_second(self) -> float:
        """Betting and draw decisions per second."""
        return self.actions / self.seconds


def main() -> None:
    """Time the three configurations and print them with the ratios."""
    print(f"{HANDS:,} random legal hands per configuration, best of {RUNS} runs")
    fl_27 = Rules(Game.DEUCE_TO_SEVEN_TRIPLE_DRAW, Betting.FIXED_LIMIT, *BLINDS)
    nl_32 = Rules(Game.THIRTY_TWO_CARD_DRAW, Betting.NO_LIMIT, *BLINDS)
    reference = measure("PokerKit 2-7 triple draw FL, 6p", pokerkit_hands)
    results = [
        measure("engine 32 Card Draw NL, 5p", lambda rng: engine_hands(rng, nl_32, 5)),
        measure("engine 2-7 triple draw FL, 6p", lambda rng: engine_hands(rng, fl_27, 6)),
        reference,
    ]
    print_table(results, reference)
    print("  (PokerKit has no 32 Card Draw: that ratio is against its 2-7 triple draw)")
    ratio = results[1].hands_per_second / reference.hands_per_second
    verdict = "met" if ratio >= GOAL else "NOT met"
    print(
        f"\nsame game (2-7 triple draw FL, 6p): engine/PokerKit = {ratio:.1f}x, goal {GOAL:.0f}x "
        f"{verdict}"
    )


def measure(name: str, work: Callable[[random.Random], int]) -> Result:
    """Best of ``RUNS`` runs of ``work`` (``HANDS`` hands; returns actions)."""
    best: Result | None = None
    for _ in range(RUNS):
        rng = random.Random(SEED)
        random.seed(SEED)  # PokerKit shuffles with the global generator
        start = time.perf_counter()
        actions = work(rng)
        seconds = time.perf_counter() - start
        if best is None or seconds < best.seconds:
            best = Result(name, HANDS, actions, seconds)
    assert best is not None
    return best


def print_table(results: list[Result], reference: Result) -> None:
    """Hands/s, actions/s and hands/s relative to PokerKit."""
    print(f"\n{'':<34}{'hands/s':>10}{'actions/s':>12}{'actions/hand':>14}{'vs PokerKit':>13}")
    for r in results:
        ratio = r.hands_per_second / reference.hands_per_second
        print(
            f"  {r.name:<32}{r.hands_per_second:>10,.0f}{r.actions_per_second:>12,.0f}"
            f"{r.actions / r.hands:>14.1f}{ratio:>12.1f}x"
        )


# --------------------------------------------------------------------------
# The engine


def engine_hands(rng: random.Random, rules: Rules, players: int, hands: int | None = None) -> int:
    """Play ``hands`` hands (``HANDS`` by default); the number of betting
    and draw decisions."""
    seats = tuple((f"P{i}", STACK) for i in range(players))
    deck = list(rules.variant.deck)
    actions = 0
    for hand in range(HANDS if hands is None else hands):
        rng.shuffle(deck)
        state, _ = begin(Deal(rules, seats, hand % players, tuple(deck), rng.getrandbits(32)))
        while not state.complete:
            legal = legal_actions(state)
            assert legal is not None
            command = engine_decision(rng, state, legal)
            actions += command.action not in (Action.SHOW, Action.MUCK)
            state, _ = play(state, command)
    return actions


def engine_decision(rng: random.Random, state: HandState, legal: Legal) -> Act:
    """The random policy on the engine's menu."""
    i, actions = legal.player, legal.actions
    if legal.max_discard is not None:
        count = min(rng.choice(DISCARDS), legal.max_discard)
        cards = tuple(rng.sample(state.players[i].cards, count))
        return Act(i, Action.DISCARD, cards=cards) if cards else Act(i, Action.STAND)
    if Action.CHECK not in actions and Action.CALL not in actions:
        return Act(i, rng.choice(actions))  # showdown and Parole answers
    roll = rng.random()
    if Action.FOLD in actions and roll < FOLD:
        return Act(i, Action.FOLD)
    if roll > 1 - RAISE:
        if Action.BET in actions and legal.min_bet_to is not None:
            return Act(i, Action.BET, amount=legal.min_bet_to)
        if Action.RAISE in actions and legal.min_raise_to is not None:
            assert legal.max_raise_to is not None
            to = legal.min_raise_to if rng.random() < 0.8 else legal.max_raise_to
            return Act(i, Action.RAISE, amount=to)
    return Act(i, Action.CALL if Action.CALL in actions else Action.CHECK)


# --------------------------------------------------------------------------
# PokerKit


def pokerkit_hands(rng: random.Random) -> int:
    """Play ``HANDS`` hands of PokerKit's fixed-limit 2-7 triple draw, 6
    players; the number of betting and draw decisions."""
    big = BLINDS[1]
    game = FixedLimitDeuceToSevenLowballTripleDraw(PK_AUTOMATIONS, True, 0, BLINDS, big, 2 * big)
    actions = 0
    with warnings.catch_warnings():
        # PokerKit warns each time it reshuffles discards into the deck.
        warnings.simplefilter("ignore")
        for _ in range(HANDS):
            state = game((STACK,) * 6, 6)
            while state.status:
                pokerkit_decision(rng, state)
                actions += 1
    return actions


def pokerkit_decision(rng: random.Random, state: PkState) -> None:
    """The same random policy through PokerKit's own queries."""
    if state.can_stand_pat_or_discard():
        hand = state.hole_cards[state.stand_patter_or_discarder_index]
        count = min(rng.choice(DISCARDS), len(hand))
        state.stand_pat_or_discard(rng.sample(hand, count))
        return
    roll = rng.random()
    if roll < FOLD and state.can_fold():
        state.fold()
    elif roll > 1 - RAISE and state.can_complete_bet_or_raise_to():
        state.complete_bet_or_raise_to()
    else:
        state.check_or_call()
