"""Casino Draw Poker: the house's numbers, and how fast rounds go.

Why: the pay table and the dealer's rules fix what the house earns; the
operator needs the figure (and its uncertainty) before opening a table, and
a table server needs the engine's rounds per second next to the pot games'
hands per second.

The work:

- the house: ``ROUNDS`` rounds of one box against the dealer with the
  default table (2 jokers, RULES.md 5's pay table) and an original bet of
  30 (the 2:3 on ANTE then pays without rounding), played by
  ``poker.engine.casino.simulate`` in ``PROCESSES`` worker processes, each
  from its own seed, their tallies added.  The box plays the stated
  strategy: it exchanges as the dealer would (standing when he would
  stand), takes no second exchange, and plays with a pair or better.
  Printed: the house edge on the original bet with its 95% confidence
  interval, the same per chip staked, the dealer's qualification rate, and
  for each pay-table line how often the box ends with that hand, how often
  it is paid, and its share of all winnings paid.  Rounds per second are
  wall-clock over the whole run (process start-up and table builds
  included).
- the engine: ``ENGINE_ROUNDS`` whole rounds through ``begin`` / ``play``
  (decide and evolve, every event) with a random legal policy, for 1 and 4
  boxes, beside ``bench.engine``'s 32 Card Draw hands through the pot
  engine the same way; best of ``RUNS`` (``time.perf_counter``).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from functools import reduce
from operator import add

from bench import engine as pot
from poker.engine.casino import Act, Action, CasinoRules, Deal, Entrant, begin, legal_actions, play
from poker.engine.casino.simulate import HouseFigures, Tally, figures, simulate
from poker.engine.rules import Betting, Game, Rules

ROUNDS = 1_000_000
PROCESSES = 2
ORIGINAL = 30
SEED = 20_240_614
ENGINE_ROUNDS = 2_000
RUNS = 3


def main() -> None:
    """Simulate the house, then time the engine's rounds."""
    print(f"{ROUNDS:,} simulated rounds, one box, original bet {ORIGINAL}, {PROCESSES} processes")
    started = time.perf_counter()
    house = house_figures(ROUNDS, PROCESSES)
    seconds = time.perf_counter() - started
    print_house(house)
    print(f"\n  simulation: {ROUNDS / seconds:,.0f} rounds/s ({seconds:.1f} s wall clock)")
    print_engine()


def house_figures(rounds: int, processes: int) -> HouseFigures:
    """``rounds`` split over ``processes`` processes, tallies added."""
    shares = [rounds // processes + (k < rounds % processes) for k in range(processes)]
    with ProcessPoolExecutor(processes) as pool:
        tallies = pool.map(_simulate, shares, range(SEED, SEED + processes))
        return figures(reduce(add, tallies))


def _simulate(rounds: int, seed: int) -> Tally:
    return simulate(rounds, seed, original=ORIGINAL)


def print_house(house: HouseFigures) -> None:
    """The house edge, qualification, and the pay table's lines."""
    low, high = house.confidence
    print(
        f"\n  house edge on the original bet: {house.house_edge:.2%} "
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
    print(f"  {'ANTE 1:1':<18}{'':>30}{house.ante_even_share:>14.2%}")
    print(f"  {'ANTE 2:3':<18}{'':>30}{house.ante_two_thirds_share:>14.2%}")


def print_engine() -> None:
    """Casino rounds/s through the event engine, beside pot hands/s."""
    print(f"\n  engine, {ENGINE_ROUNDS:,} whole rounds or hands, best of {RUNS}:")
    for boxes in (1, 4):
        rate = best(lambda rng, n=boxes: casino_rounds(rng, n))
        name = f"casino draw, {boxes} box{'es' if boxes > 1 else ''}"
        print(f"    {name:<32}{rate:>10,.0f} rounds/s")
    nl_32 = Rules(Game.THIRTY_TWO_CARD_DRAW, Betting.NO_LIMIT, *pot.BLINDS)
    rate = best(lambda rng: pot_hands(rng, nl_32))
    print(f"    {'32 Card Draw NL, 5 players':<32}{rate:>10,.0f} hands/s (bench.engine's policy)")


def best(work: Callable[[random.Random], None]) -> float:
    """The best of ``RUNS`` runs of ``ENGINE_ROUNDS`` rounds, per second."""
    fastest = float("inf")
    for _ in range(RUNS):
        rng = random.Random(SEED)
        start = time.perf_counter()
        work(rng)
        fastest = min(fastest, time.perf_counter() - start)
    return ENGINE_ROUNDS / fastest


def casino_rounds(rng: random.Random, boxes: int) -> None:
    """Whole rounds through the engine, each box choosing at random among
    its legal actions (exchanging a random 1 to the most cards)."""
    rules = CasinoRules()
    entrants = tuple(Entrant(f"P{i}", 1_000, 10) for i in range(boxes))
    deck = list(rules.deck)
    for _ in range(ENGINE_ROUNDS):
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


def pot_hands(rng: random.Random, rules: Rules) -> None:
    """``bench.engine``'s hands, as many as the casino rounds."""
    saved = pot.HANDS
    pot.HANDS = ENGINE_ROUNDS
    try:
        pot.engine_hands(rng, rules, 5)
    finally:
        pot.HANDS = saved
