"""Casino Draw Poker: the house's numbers, and how fast rounds go.

Why: the pay table and the dealer's rules fix what the house earns; the
operator needs the figure (and its uncertainty) before opening a table, and
a table server needs the engine's rounds per second next to the pot games'
hands per second.

The work:

- the house: ``ROUNDS`` rounds of one box against the dealer with the
  default table (2 jokers, RULES.md 5's pay table) and an original bet B of
  30 (the 2:3 on ANTE then pays without rounding), for each of
  ``STRATEGIES``: played by ``poker.engine.casino.simulate`` (the engine's
  dealer, evaluator and settlement without the events; a test checks it
  against decide/evolve round by round) in ``PROCESSES`` worker processes,
  each from its own seed, their tallies added.  The same seeds serve every
  strategy, so they meet the same decks.
  Printed: the strategy in words; the house edge on the original bet (the
  house's win per round over B) with its 95% confidence interval, the same
  per chip staked; the share of rounds in which the dealer's final hand
  qualifies; for each pay-table line how often the box ends with that hand,
  how often it is paid, and its share of all winnings paid; and the
  simulation's rounds per second (wall clock, process start-up included).
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
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from functools import reduce
from operator import add

from bench import engine as pot
from poker.engine.casino import Act, Action, CasinoRules, Deal, Entrant, begin, legal_actions, play
from poker.engine.casino.simulate import (
    SHARP,
    HouseFigures,
    PlayerStrategy,
    Tally,
    figures,
    simulate,
)
from poker.engine.rules import Betting, Game, Rules


@dataclass(frozen=True)
class Size:
    """How much work a run does."""

    rounds: int
    """Simulated rounds per strategy."""
    processes: int
    """Worker processes for the simulation (1: this process, no pool)."""
    engine_rounds: int
    """Rounds (and pot hands) through the event engines per timing run."""
    runs: int
    """Timing runs of the event engines; the best counts."""


FULL = Size(rounds=1_000_000, processes=2, engine_rounds=2_000, runs=3)
QUICK = Size(rounds=4_000, processes=1, engine_rounds=40, runs=1)
ORIGINAL = 30
SEED = 20_240_614
STRATEGIES: tuple[tuple[str, PlayerStrategy], ...] = (("plain", PlayerStrategy()), ("sharp", SHARP))
"""The plain strategy (the dealer's exchange, any pair plays) and one that
folds small pairs and raises with the second exchange."""


def main(size: Size = FULL) -> None:
    """Simulate the house for each strategy, then time the engines."""
    print(
        f"{size.rounds:,} simulated rounds per strategy, one box, original bet B = {ORIGINAL}, "
        f"{size.processes} process{'es' if size.processes > 1 else ''}"
    )
    for name, strategy in STRATEGIES:
        started = time.perf_counter()
        house = house_figures(size.rounds, size.processes, strategy)
        seconds = time.perf_counter() - started
        print(f"\n  {name}: the box {strategy.describe()}")
        print_house(house)
        print(f"  simulation: {size.rounds / seconds:,.0f} rounds/s ({seconds:.1f} s wall clock)")
    print_engine(size)


def house_figures(rounds: int, processes: int, strategy: PlayerStrategy) -> HouseFigures:
    """``rounds`` split over ``processes`` processes, tallies added."""
    shares = [rounds // processes + (k < rounds % processes) for k in range(processes)]
    seeds = range(SEED, SEED + processes)
    strategies = [strategy] * processes
    if processes == 1:
        return figures(_simulate(rounds, SEED, strategy))
    with ProcessPoolExecutor(processes) as pool:
        return figures(reduce(add, pool.map(_simulate, shares, seeds, strategies)))


def _simulate(rounds: int, seed: int, strategy: PlayerStrategy) -> Tally:
    return simulate(rounds, seed, original=ORIGINAL, strategy=strategy)


def print_house(house: HouseFigures) -> None:
    """The house edge, qualification, and the pay table's lines."""
    low, high = house.confidence
    print(
        f"  house edge on the original bet: {house.house_edge:.2%} "
        f"(95% CI {low:.2%} to {high:.2%}); per chip staked: {house.edge_per_staked:.2%}"
    )
    print(
        f"  dealer qualifies: {house.qualification:.2%}   box plays: {house.play_rate:.2%}"
        f"   exchanges per round: {house.exchanges:.3f}"
    )
    print(f"\n  {'line':<18}{'pays':>6}{'box holds':>12}{'paid':>10}{'of winnings':>14}")
    for line in house.lines:
        print(
            f"  {line.hand.value:<18}{line.pays:>4}:1{line.frequency:>12.4%}"
            f"{line.paid:>10.4%}{line.payout_share:>14.2%}"
        )
    print(f"  {'ANTE 2:3':<18}{'':>28}{house.ante_two_thirds_share:>14.2%}")


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
