"""Casino Draw Poker: the house's numbers, and how fast rounds go.

Why: the pay table and the dealer's rules fix what the house earns; the
operator needs the figure (and its uncertainty) before opening a table, and
a table server needs the engine's rounds per second next to the pot games'
hands per second.

The work:

- the house: ``poker.engine.casino.report`` for the default table (2
  jokers, RULES.md 5's pay table): the best response by expected value
  (``poker.engine.casino.solve``) and the simple reference strategies, each
  played for ``rounds`` seeded rounds through the engine's dealer and
  settlement (``poker.engine.casino.simulate``; a test checks it against
  decide/evolve round by round) in ``processes`` worker processes; per
  strategy the house edge per original bet and per chip staked with 95%
  intervals, SD per round, folds and exchanges, each line's frequency and
  share of the winnings, the dealer's qualification; the largest payout of
  a round; and the sensitivity table (full run only).  The same command is
  ``manage.py casino_math``, for any table's settings.
- the engine: ``ENGINE_ROUNDS`` whole rounds through ``begin`` / ``play``
  (decide and evolve, every event) with a random legal policy, for 1 and 4
  boxes, and in the same run as many hands of ``bench.engine``'s 32 Card
  Draw through the pot engine the same way; best of ``RUNS``
  (``time.perf_counter``), with the ratio of each to the pot hands/s.

``python -m bench.casino`` runs it; ``--quick`` runs it at a size for
tests (``QUICK``), in this process.
"""

from __future__ import annotations

import random
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass

from bench import engine as pot
from poker.engine.casino import (
    Act,
    Action,
    CasinoRules,
    Deal,
    Entrant,
    begin,
    legal_actions,
    play,
    report,
)
from poker.engine.rules import Betting, Game, Rules


@dataclass(frozen=True)
class Size:
    """How much work a run does."""

    house: report.Size
    """The game math's size."""
    engine_rounds: int
    """Rounds (and pot hands) through the event engines per timing run."""
    runs: int
    """Timing runs of the event engines; the best counts."""


FULL = Size(house=report.FULL, engine_rounds=2_000, runs=3)
QUICK = Size(house=report.QUICK, engine_rounds=40, runs=1)
SEED = report.SEED


def main(size: Size = FULL) -> None:
    """The game math of the default table, then the engines' speed."""
    started = time.perf_counter()
    for line in report.lines(CasinoRules(), size.house):
        print(line, flush=True)
    print(f"\n  game math: {time.perf_counter() - started:.0f} s wall clock")
    print_engine(size)


def print_engine(size: Size) -> None:
    """Casino rounds/s through the event engine beside pot hands/s, both
    measured here, and their ratios."""
    print(f"\n  event engines, {size.engine_rounds:,} whole rounds or hands, best of {size.runs}:")
    nl_32 = Rules(Game.THIRTY_TWO_CARD_DRAW, Betting.NO_LIMIT, *pot.BLINDS)
    pot_rate = best(size, lambda rng: pot.engine_hands(rng, nl_32, 5, size.engine_rounds))
    print(
        f"    {'32 Card Draw NL, 5 players':<30}{pot_rate:>10,.0f} hands/s (bench.engine's policy)"
    )
    for boxes in (1, 4):
        rate = best(size, lambda rng, n=boxes: casino_rounds(rng, n, size.engine_rounds))
        name = f"casino draw, {boxes} box{'es' if boxes > 1 else ''}"
        print(f"    {name:<30}{rate:>10,.0f} rounds/s = {rate / pot_rate:.2f}x the pot hands/s")


def best(size: Size, work: Callable[[random.Random], object]) -> float:
    """The best of ``size.runs`` runs of ``size.engine_rounds`` rounds, per second."""
    fastest = float("inf")
    for _ in range(size.runs):
        rng = random.Random(SEED)
        start = time.perf_counter()
        work(rng)
        fastest = min(fastest, time.perf_counter() - start)
    return size.engine_rounds / fastest


def casino_rounds(rng: random.Random, boxes: int, rounds: int) -> None:
    """Whole rounds through the engine, each box choosing at random among
    its legal actions (exchanging a random 1 to the most cards)."""
    rules = CasinoRules()
    entrants = tuple(Entrant(f"P{i}", 1_000, 10) for i in range(boxes))
    deck = list(rules.deck)
    for _ in range(rounds):
        rng.shuffle(deck)
        state, _ = begin(Deal(rules, entrants, tuple(deck), rng.getrandbits(32)))
        while not state.complete:
            legal = legal_actions(state)
            assert legal is not None
            action = rng.choice(legal.actions)
            thrown = ()
            if action is Action.EXCHANGE and legal.max_exchange is not None:
                count = rng.randint(1, legal.max_exchange)
                thrown = tuple(rng.sample(state.boxes[legal.box].cards, count))
            state, _ = play(state, Act(legal.box, action, thrown))


if __name__ == "__main__":
    main(QUICK if "--quick" in sys.argv[1:] else FULL)
