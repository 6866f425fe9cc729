"""The house's numbers by simulation (``poker.engine.casino.simulate``):
the simulated rounds are the engine's rounds, and the figures add up."""

from __future__ import annotations

import math
import random
from collections.abc import Sequence

import numpy as np
import pytest

from poker.engine.cards import Card, cards, simulation_random
from poker.engine.casino import (
    Act,
    Action,
    CasinoRules,
    Deal,
    Entrant,
    Hand,
    PayTable,
    Result,
    begin,
    dealer_discards,
    play,
    qualifies,
)
from poker.engine.casino.simulate import (
    CARDS_PER_ROUND,
    SHARP,
    PlayerStrategy,
    Strategy,
    figures,
    play_rounds,
    second_discard,
    simulate,
)
from poker.engine.casino.solve import BestResponse, Settings, Solution
from poker.engine.evaluate import rank_joker_high

B = 30


class Fixed:
    """A sampler that hands out one given sample."""

    def __init__(self, cards: list[Card]) -> None:
        self.cards = cards

    def sample(self, population: Sequence[Card], k: int) -> list[Card]:
        assert k == len(self.cards)
        return list(self.cards)


class Recording:
    """A seeded sampler that keeps every sample it hands out."""

    def __init__(self, seed: int) -> None:
        self.rng = simulation_random(seed)
        self.samples: list[list[Card]] = []

    def sample(self, population: Sequence[Card], k: int) -> list[Card]:
        cards = self.rng.sample(population, k)
        self.samples.append(list(cards))
        return cards


def _random_solution() -> Solution:
    """A best-response table of random choices (every keep mask, second
    exchange and play decision occurs), to check the lookup by the box's
    cards against the engine without solving."""
    rng = np.random.default_rng(3)
    size = math.comb(54, 5)
    return Solution(
        Settings(),
        0.0,
        rng.integers(0, 32, size, dtype=np.uint8),
        rng.integers(0, 6, size, dtype=np.uint8),
        rng.integers(0, 2, size).astype(bool),
    )


STRATEGIES: list[Strategy] = [PlayerStrategy(), SHARP, BestResponse(_random_solution())]
"""The bench's reference strategies and a table-driven one like the best
response's."""
IDS = ["plain", "sharp", "table"]


def _engine_round(
    top: list[Card], rules: CasinoRules, strategy: Strategy
) -> tuple[int, Result, bool]:
    """The same round through decide/evolve, the box playing ``strategy``:
    its first exchange, its second, play or fold.  His net, the result, and
    whether the dealer's final hand qualified."""
    deck = tuple(top) + tuple(c for c in rules.deck if c not in set(top))
    state, _ = begin(Deal(rules, (Entrant("A", 100 * B, B),), deck, 1))
    first = strategy.first_discards(state.boxes[0].cards)
    thrown = tuple(state.boxes[0].cards[p] for p in first)
    state, _ = play(state, Act(0, Action.EXCHANGE, thrown) if thrown else Act(0, Action.STAND))
    if thrown:
        again = strategy.second_discard(state.boxes[0].cards)
        if again is None:
            state, _ = play(state, Act(0, Action.STAND))
        else:
            state, _ = play(state, Act(0, Action.EXCHANGE, (state.boxes[0].cards[again],)))
    held = state.boxes[0].cards
    plays = strategy.plays(held, rank_joker_high(held))
    state, _ = play(state, Act(0, Action.PLAY if plays else Action.FOLD))
    assert state.complete
    result = state.boxes[0].result
    assert result is not None
    dealer = state.dealer
    if not plays:  # he folded: the dealer did not draw at the table; draw as the simulation does
        dealer_cards = list(dealer)
        for n, p in enumerate(dealer_discards(dealer_cards)):
            dealer_cards[p] = state.stub[n]
        dealer = tuple(dealer_cards)
    return state.boxes[0].stack - 100 * B, result, qualifies(rank_joker_high(dealer))


@pytest.mark.parametrize("strategy", STRATEGIES, ids=IDS)
def test_a_simulated_round_is_the_engines_round(strategy: Strategy) -> None:
    """Round by round, the simulation's net for the box is what the engine
    pays the same deck played the same way."""
    rng = random.Random(7)
    rules = CasinoRules(pay_table=PayTable(full_house=4))
    results = set()
    for _ in range(300):
        top = rng.sample(rules.deck, CARDS_PER_ROUND)
        tally = play_rounds(1, Fixed(top), rules, B, strategy)
        net, result, _ = _engine_round(top, rules, strategy)
        results.add(result)
        assert tally.net == net, [str(c) for c in top]
    assert results >= set(Result) - {Result.PUSH}, "the rounds tried each common settlement"


@pytest.mark.parametrize("strategy", STRATEGIES, ids=IDS)
def test_seeded_simulated_rounds_add_up_to_the_engines(strategy: Strategy) -> None:
    """A seeded run of the fast path against the same rounds replayed through
    decide/evolve: the box's net, its square, the dealer's qualifications
    and the paid results agree in total."""
    recording, rules = Recording(20_240_614), CasinoRules()
    tally = play_rounds(400, recording, rules, B, strategy)
    rounds = [_engine_round(top, rules, strategy) for top in recording.samples]
    assert len(rounds) == tally.rounds == 400
    assert tally.net == sum(net for net, _, _ in rounds)
    assert tally.net_squares == sum(net * net for net, _, _ in rounds)
    assert tally.qualified == sum(q for _, _, q in rounds)
    assert tally.played == sum(result is not Result.FOLD for _, result, _ in rounds)
    assert sum(tally.paid) == sum(result is Result.WIN for _, result, _ in rounds)
    assert sum(tally.by_exchanges) == 400


def test_the_sharp_strategy_raises_with_a_made_hand_and_draws_to_one_card() -> None:
    def second(hand: str) -> str | None:
        held = cards(hand)
        at = second_discard(held, SHARP)
        return None if at is None else str(held[at])

    assert second("7h 2s 7d 7c 9h") == "2s"  # three of a kind: the lowest odd card
    assert second("7h 9s 7d 7c 9h") is None  # a full house stands
    assert second("Kh 7s 7d 7c X1") == "Kh"  # four of a kind with a joker: its kicker
    assert second("8h 8d Kd 4c 4s") == "Kd"  # two pair: the dealer's odd card
    assert second("2h 9h Jh 4s Kh") == "4s"  # four to a flush
    assert second("Jc Js 7s 6c 3d") is None  # a pair: the dealer would change three
    assert second_discard(cards("7h 2s 7d 7c 9h"), PlayerStrategy()) is None


def test_the_strategies_say_what_they_play() -> None:
    def plays(strategy: PlayerStrategy, hand: str) -> bool:
        return rank_joker_high(cards(hand)) >= strategy.least_played()

    assert plays(PlayerStrategy(), "2c 2d 3h 4s 5c") and not plays(
        PlayerStrategy(), "Ac Kd 3h 4s 6c"
    )
    assert plays(SHARP, "Qc Qd 2h 3s 4c") and plays(
        SHARP, "Qc X1 2h 3s 4c"
    )  # the joker pairs his queen
    assert not plays(SHARP, "Jc Jd Ah Ks Qc") and plays(SHARP, "2c 2d 3h 3s 5c")
    assert PlayerStrategy().describe() == (
        "exchanges as the dealer would, no second exchange, plays with a pair or better"
    )
    assert "plays with a pair of queens or better" in SHARP.describe()
    assert "three or four of a kind" in SHARP.describe()


def test_the_same_seed_gives_the_same_tally_and_tallies_add_up() -> None:
    assert simulate(300, 3) == simulate(300, 3)
    both = simulate(300, 3) + simulate(200, 4)
    assert both.rounds == 500
    assert both.net == simulate(300, 3).net + simulate(200, 4).net


def test_the_figures_add_up() -> None:
    tally = simulate(3000, 11)
    house = figures(tally)
    low, high = house.confidence
    assert low < house.house_edge < high
    assert house.house_edge == -tally.net / tally.rounds / B
    assert 0 < house.qualification < 1 and 0 < house.play_rate < 1
    shares = sum(line.payout_share for line in house.lines)
    assert abs(shares + house.ante_two_thirds_share - 1) < 1e-9
    high_card = tally.hands[0] / tally.rounds
    assert abs(sum(line.frequency for line in house.lines) + high_card - 1) < 1e-9
    assert [line.pays for line in house.lines] == [1, 1, 1, 1, 1, 2, 3, 5, 10, 20]
    assert all(line.paid <= line.frequency for line in house.lines)


def test_a_box_that_always_plays_never_folds() -> None:
    always = PlayerStrategy(play_from=Hand.HIGH_CARD)
    assert figures(simulate(500, 5, strategy=always)).play_rate == 1
    assert figures(simulate(500, 5)).play_rate < 1
