"""Evaluator throughput: ours against treys and eval7, on the same hands.

Every evaluator runs over the same 200,000 random five-card hands, converted
beforehand to its own card type (ours: ``Card`` tuples; treys: its ints, split
2 + 3 for its public ``Evaluator.evaluate(cards, board)``, which goes to its
five-card path; eval7: lists of ``eval7.Card`` for ``eval7.evaluate``).  Each
run maps the evaluator over all hands; the best of three runs counts
(``time.perf_counter``).  The 52-card evaluators get 52-card hands; the
32-card ones get 32-card hands, and treys and eval7 rerun on those too so the
32-card figures compare like with like.  Also reported: what the lazily built
tables cost the first process that uses them.
"""

from __future__ import annotations

import random
import time
from collections import deque
from collections.abc import Callable, Iterable, Sequence
from functools import partial
from typing import Any

import eval7  # type: ignore[import-untyped]
import treys  # type: ignore[import-untyped]

from poker.engine.cards import Card, deck_32, deck_52
from poker.engine.evaluate import (
    high,
    load_tables,
    low,
    rank_27,
    rank_32,
    rank_32_split,
    rank_a5,
    rank_high,
    rank_joker_high,
    thirtytwo,
)
from poker.engine.evaluate.keys import build_tables

HANDS = 200_000
RUNS = 3
SEED = 20_240_601


def main() -> None:
    """Print build costs, then evaluations per second and the ratio to treys."""
    rng = random.Random(SEED)
    hands_52 = [tuple(rng.sample(deck_52(), 5)) for _ in range(HANDS)]
    hands_32 = [tuple(rng.sample(deck_32(), 5)) for _ in range(HANDS)]
    print(f"{HANDS:,} random hands per evaluator, best of {RUNS} runs")
    _report_builds()
    _report_rates(
        "52-card hands",
        hands_52,
        ours=[
            ("rank_high", rank_high),
            ("rank_27", rank_27),
            ("rank_a5", rank_a5),
            ("rank_joker_high (no jokers)", rank_joker_high),
        ],
    )
    _report_rates(
        "32-card hands",
        hands_32,
        ours=[
            ("rank_32", rank_32),
            ("rank_32_split", rank_32_split),
        ],
    )


def _report_builds() -> None:
    cold = _seconds(partial(load_tables))  # first use in this process: every table
    print(f"\nfirst use of all tables (cold, this process): {cold * 1e3:.1f} ms")
    print(f"32-card table, 201,376 hands: {_best(thirtytwo.build_table) * 1e3:.1f} ms to build")
    for name, tables in (
        ("high", high.TABLES),
        ("2-7", low.DEUCE_TO_SEVEN_TABLES),
        ("a-5", low.ACE_TO_FIVE_TABLES),
    ):
        built = _best(partial(build_tables, tables.valuation))
        print(f"52-card {name} tables, 7,462 entries: {built * 1e3:.1f} ms to build")


def _report_rates(
    title: str, hands: Sequence[tuple[Card, ...]], ours: list[tuple[str, Callable[..., int]]]
) -> None:
    treys_hands = [[treys.Card.new(str(c)) for c in hand] for hand in hands]
    firsts = [h[:2] for h in treys_hands]
    rests = [h[2:] for h in treys_hands]
    eval7_hands = [[eval7.Card(str(c)) for c in hand] for hand in hands]
    treys_rate = _rate(treys.Evaluator().evaluate, firsts, rests)
    print(f"\n{title:<34}{'evals/s':>12}  vs treys")
    for name, evaluate in ours:
        _row(name, _rate(evaluate, hands), treys_rate)
    _row("treys Evaluator.evaluate(2, 3)", treys_rate, treys_rate)
    _row("eval7.evaluate", _rate(eval7.evaluate, eval7_hands), treys_rate)


def _row(name: str, rate: float, treys_rate: float) -> None:
    print(f"  {name:<32}{rate:>12,.0f}  {rate / treys_rate:>7.2f}x")


def _rate(evaluate: Callable[..., Any], *columns: Iterable[Any]) -> float:
    """Evaluations per second over the whole column(s), best of ``RUNS``."""
    best = _best(lambda: deque(map(evaluate, *columns), maxlen=0))
    return HANDS / best


def _best(work: Callable[[], object]) -> float:
    return min(_seconds(work) for _ in range(RUNS))


def _seconds(work: Callable[[], object]) -> float:
    start = time.perf_counter()
    work()
    return time.perf_counter() - start


if __name__ == "__main__":
    main()
