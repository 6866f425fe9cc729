"""The house's numbers by simulation (``poker.engine.casino.simulate``):
the simulated rounds are the engine's rounds, and the figures add up."""

from __future__ import annotations

import random
from collections.abc import Sequence

from poker.engine.cards import Card
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
    hand_of,
    play,
)
from poker.engine.casino.simulate import (
    CARDS_PER_ROUND,
    PlayerStrategy,
    figures,
    play_rounds,
    simulate,
)
from poker.engine.evaluate import rank_joker_high

B = 30


class Fixed:
    """A sampler that hands out one given sample."""

    def __init__(self, cards: list[Card]) -> None:
        self.cards = cards

    def sample(self, population: Sequence[Card], k: int) -> list[Card]:
        assert k == len(self.cards)
        return list(self.cards)


def _engine_net(top: list[Card], rules: CasinoRules) -> tuple[int, Result]:
    """The same round through decide/evolve, the box playing the stated
    strategy: exchange as the dealer would, no second exchange, play with a
    pair or better."""
    deck = tuple(top) + tuple(c for c in rules.deck if c not in set(top))
    state, _ = begin(Deal(rules, (Entrant("A", 100 * B, B),), deck, 1))
    thrown = tuple(state.boxes[0].cards[p] for p in dealer_discards(state.boxes[0].cards))
    state, _ = play(state, Act(0, Action.EXCHANGE, thrown) if thrown else Act(0, Action.STAND))
    if thrown:
        state, _ = play(state, Act(0, Action.STAND))
    paired = hand_of(rank_joker_high(state.boxes[0].cards)) is not Hand.HIGH_CARD
    state, _ = play(state, Act(0, Action.PLAY if paired else Action.FOLD))
    assert state.complete
    result = state.boxes[0].result
    assert result is not None
    return state.boxes[0].stack - 100 * B, result


def test_a_simulated_round_is_the_engines_round() -> None:
    """Round by round, the simulation's net for the box is what the engine
    pays the same deck played the same way."""
    rng = random.Random(7)
    rules = CasinoRules(pay_table=PayTable(full_house=4))
    results = set()
    for _ in range(300):
        top = rng.sample(rules.deck, CARDS_PER_ROUND)
        tally = play_rounds(1, Fixed(top), rules, B)
        net, result = _engine_net(top, rules)
        results.add(result)
        assert tally.net == net, [str(c) for c in top]
    assert results >= set(Result) - {Result.PUSH}, "the rounds tried each common settlement"


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
    assert abs(shares + house.ante_even_share + house.ante_two_thirds_share - 1) < 1e-9
    high_card = tally.hands[0] / tally.rounds
    assert abs(sum(line.frequency for line in house.lines) + high_card - 1) < 1e-9
    assert [line.pays for line in house.lines] == [1, 1, 1, 1, 1, 2, 3, 5, 10, 20]
    assert all(line.paid <= line.frequency for line in house.lines)


def test_a_box_that_always_plays_never_folds() -> None:
    always = PlayerStrategy(play_from=Hand.HIGH_CARD)
    assert figures(simulate(500, 5, strategy=always)).play_rate == 1
    assert figures(simulate(500, 5)).play_rate < 1
