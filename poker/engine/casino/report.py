"""The game math of a casino table, as an operator reads it.

For a table's settings: the best response (``solve``) and the simple
reference strategies (``simulate.PlayerStrategy``), each played through
the engine's dealer and settlement (``simulate``, seeded, split over worker
processes with their tallies added), and for each the house edge per
original bet and per chip staked with 95% intervals, the standard deviation
per round, fold rate and exchanges, each final hand's frequency and each
pay line's share of the winnings, the dealer's qualification rate; the
largest payout one round can make; the best response as a strategy card;
and how the model's best-response edge
moves with each pay line, the qualifier, the jokers and the not-qualified
odds (``sensitivity``).  ``lines`` yields the printed report.
"""

from __future__ import annotations

from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, replace
from fractions import Fraction
from functools import reduce
from operator import add
from typing import Final

from poker.engine.casino.paytable import Hand, PayTable
from poker.engine.casino.rules import CasinoRules
from poker.engine.casino.simulate import (
    SHARP,
    HouseFigures,
    PlayerStrategy,
    Strategy,
    Tally,
    figures,
    simulate,
)
from poker.engine.casino.solve import (
    DEALER_SAMPLES,
    BestResponse,
    Settings,
    Solution,
    largest_payout,
    solve,
    strategy_card,
)
from poker.engine.evaluate.shape import HIGH_RULES, value

ORIGINAL: Final = 30
"""The original bet B of the simulated box: the 2:3 on ANTE pays unrounded."""
SEED: Final = 20_240_614
REFERENCES: Final[tuple[tuple[str, PlayerStrategy], ...]] = (
    ("plain", PlayerStrategy()),
    ("sharp", SHARP),
)
"""The simple reference strategies: the dealer's exchange and any pair
plays; and ``SHARP``."""


@dataclass(frozen=True, slots=True)
class Size:
    """How much work a report does."""

    rounds: int
    """Simulated rounds per strategy."""
    processes: int
    """Worker processes for the simulation (1: this process)."""
    dealer_samples: int = DEALER_SAMPLES
    """Dealer hands the solver samples per number of jokers held."""
    sensitivity: bool = True
    """Also solve each variation of the settings (a solve each)."""


FULL: Final = Size(rounds=1_000_000, processes=2)
QUICK: Final = Size(rounds=3_000, processes=1, dealer_samples=20_000, sensitivity=False)


@dataclass(frozen=True, slots=True)
class Measured:
    """One strategy's simulated figures."""

    name: str
    description: str
    house: HouseFigures


def settings_of(rules: CasinoRules) -> Settings:
    """The math's settings of a table's rules (the engine's qualifier and
    not-qualified odds: RULES.md 5 fixes them)."""
    return Settings(jokers=rules.jokers, pay_table=rules.pay_table)


def measure(
    strategy: Strategy, rules: CasinoRules, rounds: int, processes: int, seed: int = SEED
) -> HouseFigures:
    """``rounds`` of ``strategy`` split over ``processes`` processes, each
    from its own seed, tallies added."""
    if processes == 1:
        return figures(_simulate(rounds, seed, strategy, rules), rules)
    shares = [rounds // processes + (k < rounds % processes) for k in range(processes)]
    seeds = range(seed, seed + processes)
    with ProcessPoolExecutor(processes) as pool:
        tallies = pool.map(_simulate, shares, seeds, [strategy] * processes, [rules] * processes)
        return figures(reduce(add, tallies), rules)


def _simulate(rounds: int, seed: int, strategy: Strategy, rules: CasinoRules) -> Tally:
    return simulate(rounds, seed, rules=rules, original=ORIGINAL, strategy=strategy)


def measured(rules: CasinoRules, solution: Solution, size: Size) -> Iterator[Measured]:
    """Every strategy's figures, the best response first, each as soon as
    it is measured."""
    strategies: list[tuple[str, Strategy]] = [("best response", BestResponse(solution))]
    strategies += REFERENCES
    for name, strategy in strategies:
        house = measure(strategy, rules, size.rounds, size.processes)
        yield Measured(name, strategy.describe(), house)


SENSITIVITY_QUALIFIERS: Final = {
    "pair of tens": value((10, 10, 4, 3, 2), False, HIGH_RULES),
    "pair of queens": value((12, 12, 4, 3, 2), False, HIGH_RULES),
}
SENSITIVITY_ODDS: Final = (Fraction(1, 2), Fraction(1, 1))


def variations(settings: Settings) -> Iterator[tuple[str, Settings]]:
    """Each single change the sensitivity table solves: every pay line one
    higher, the qualifier a pair lower and higher, 0 to 4 jokers, and the
    not-qualified odds."""
    table = settings.pay_table
    for hand in Hand:
        if hand is Hand.HIGH_CARD:
            continue
        line = hand.value.replace("-", "_")
        paid = table.pays(hand)
        yield (
            f"{hand.value} {paid + 1}:1",
            replace(settings, pay_table=replace(table, **{line: paid + 1})),
        )
    for name, qualifier in SENSITIVITY_QUALIFIERS.items():
        yield f"qualifier {name}", replace(settings, qualifier=qualifier)
    for jokers in range(5):
        if jokers != settings.jokers:
            yield f"{jokers} jokers", replace(settings, jokers=jokers)
    for odds in SENSITIVITY_ODDS:
        yield (
            f"not qualified {odds.numerator}:{odds.denominator}",
            replace(settings, not_qualified=odds),
        )


def sensitivity(settings: Settings, dealer_samples: int) -> Iterator[tuple[str, float]]:
    """The model's best-response house edge for each of ``variations``."""
    for name, changed in variations(settings):
        yield name, solve(changed, dealer_samples).house_edge


def lines(rules: CasinoRules, size: Size) -> Iterator[str]:
    """The report, line by line."""
    settings = settings_of(rules)
    yield (
        f"Casino Draw Poker, {rules.jokers} jokers, pay table "
        + ", ".join(f"{k} {v}:1" for k, v in rules.pay_table.to_json().items())
        + f"; dealer qualifies with jacks or better; ANTE {settings.not_qualified} when he does not"
    )
    solution = solve(settings, size.dealer_samples)
    yield ""
    yield f"best response (model): house edge {solution.house_edge:.3%} of B"
    for name, bound in solution.bounds.items():
        yield f"  approximation bound, {name}: {bound:.3f} B"
    yield f"largest payout of one round: {largest_payout(settings, 1)} B beyond the stakes"
    yield "strategy card (the best response in plain words):"
    for line in strategy_card(solution):
        yield f"  {line}"
    yield (
        f"{size.rounds:,} simulated rounds per strategy through the engine's dealer and "
        f"settlement, B = {ORIGINAL}, seed {SEED}, {size.processes} process(es)"
    )
    for one in measured(rules, solution, size):
        yield ""
        yield f"{one.name}: {one.description}"
        yield from house_lines(one.house)
    if size.sensitivity:
        yield ""
        yield f"sensitivity (model best-response house edge; defaults {solution.house_edge:.3%}):"
        for name, edge in sensitivity(settings, size.dealer_samples):
            yield f"  {name:<28}{edge:>9.3%}"


def house_lines(house: HouseFigures) -> Iterator[str]:
    """One strategy's figures."""
    low, high = house.confidence
    slow, shigh = house.staked_confidence
    zero, one, two = house.by_exchanges
    yield (
        f"  house edge on the original bet: {house.house_edge:.2%} (95% CI {low:.2%} to {high:.2%})"
    )
    yield (
        f"  per chip staked: {house.edge_per_staked:.2%} (95% CI {slow:.2%} to {shigh:.2%});"
        f" SD per round {house.deviation:.3f} B"
    )
    yield (
        f"  dealer qualifies: {house.qualification:.2%}   folds: {1 - house.play_rate:.2%}"
        f"   exchanges 0/1/2: {zero:.2%}/{one:.2%}/{two:.2%}"
    )
    yield f"  {'line':<18}{'pays':>6}{'box holds':>12}{'paid':>10}{'of winnings':>14}"
    for line in house.lines:
        yield (
            f"  {line.hand.value:<18}{line.pays:>4}:1{line.frequency:>12.4%}"
            f"{line.paid:>10.4%}{line.payout_share:>14.2%}"
        )
    yield f"  {'ANTE 2:3':<18}{'':>28}{house.ante_two_thirds_share:>14.2%}"


def pay_table_with(table: PayTable, changes: dict[str, int]) -> PayTable:
    """``table`` with some lines changed, by hand name (``PayTable.from_json``)."""
    return PayTable.from_json({**table.to_json(), **changes})
