"""The best-response solver (``poker.engine.casino.solve``): its sums over
draws against brute force on small decks, its hand values against the
engine's evaluator, its choices looked up by the box's cards."""

from __future__ import annotations

import itertools
import math
import random
from fractions import Fraction

import numpy as np
import pytest

from poker.engine.cards import Card, cards
from poker.engine.casino import PayTable
from poker.engine.casino.rules import QUALIFYING
from poker.engine.casino.solve import (
    STAND,
    BestResponse,
    Settings,
    Solution,
    all_hands,
    colex,
    colex_one,
    dealer_sample,
    draw_sums,
    hand_values,
    largest_payout,
    second_exchange,
    superset_sums,
)
from poker.engine.evaluate import rank_joker_high

SMALL = 10
"""A small deck's cards, for brute force: 252 hands."""


def test_hands_are_listed_in_colex_order() -> None:
    hands = all_hands(SMALL)
    assert len(hands) == math.comb(SMALL, 5)
    assert list(colex(hands)) == list(range(len(hands)))
    assert all(colex_one(list(map(int, row))) == i for i, row in enumerate(hands))


def test_superset_sums_add_each_hand_into_each_of_its_subsets() -> None:
    hands = all_hands(SMALL)
    per_hand = np.random.default_rng(1).normal(size=len(hands))
    rows = [set(map(int, row)) for row in hands]
    for size in range(5):
        sums = superset_sums(hands, per_hand, size)
        for subset in itertools.combinations(range(SMALL), size):
            expected = sum(v for row, v in zip(rows, per_hand, strict=True) if row >= set(subset))
            assert sums[colex_one(list(subset))] == pytest.approx(expected)


def test_draw_sums_count_every_draw_that_avoids_the_discards() -> None:
    hands = all_hands(SMALL)
    per_hand = np.random.default_rng(2).normal(size=len(hands))
    tables = [superset_sums(hands, per_hand, size) for size in range(5)] + [per_hand]
    sums = draw_sums(hands[:20], tables)
    rows = [set(map(int, row)) for row in hands]
    for h in range(20):
        hand = [int(c) for c in hands[h]]
        for mask in range(32):
            kept = {hand[i] for i in range(5) if mask >> i & 1}
            thrown = set(hand) - kept
            expected = sum(
                v for row, v in zip(rows, per_hand, strict=True) if row >= kept and not row & thrown
            )
            assert sums[h, mask] == pytest.approx(expected), (hand, mask)


def test_the_second_exchange_averages_each_card_over_the_unseen_cards() -> None:
    hands = all_hands(SMALL)
    gain = np.random.default_rng(4).normal(size=len(hands))
    value, choice = second_exchange(Settings(jokers=SMALL - 52), hands, gain)
    index = {tuple(map(int, row)): i for i, row in enumerate(hands)}
    for h in (0, 17, 100, 251):
        hand = [int(c) for c in hands[h]]
        unseen = [c for c in range(SMALL) if c not in hand]
        options = [2 * gain[h]] + [
            3
            * np.mean([gain[index[tuple(sorted(hand[:i] + hand[i + 1 :] + [c]))]] for c in unseen])
            for i in range(5)
        ]
        assert value[h] == pytest.approx(max(options))
        assert options[choice[h]] == pytest.approx(max(options))


def test_hand_values_are_the_evaluators() -> None:
    hands, values = all_hands(54), hand_values(54)
    rng = random.Random(5)
    for h in [*rng.sample(range(len(hands)), 3000), len(hands) - 1]:
        assert values[h] == rank_joker_high([Card(int(c)) for c in hands[h]])


def test_the_largest_payout_is_six_b_at_the_best_line_that_can_be_dealt() -> None:
    assert largest_payout(Settings(), 10) == 6 * 10 * 20
    assert largest_payout(Settings(jokers=0), 10) == 6 * 10 * 10
    assert largest_payout(Settings(pay_table=PayTable(royal_flush=30)), 10) == 6 * 10 * 30
    odds = Settings(
        jokers=0,
        pay_table=PayTable(
            royal_flush=1, straight_flush=1, five_of_a_kind=1, four_of_a_kind=1, full_house=1
        ),
        not_qualified=Fraction(3, 1),
    )
    assert largest_payout(odds, 10) == 90


def test_a_solution_is_looked_up_by_the_cards_in_any_deal_order() -> None:
    size = math.comb(54, 5)
    first = np.full(size, STAND, np.uint8)
    second = np.zeros(size, np.uint8)
    plays = np.zeros(size, bool)
    hand = cards("Kd 2c X1 7h Ks")  # by card number: 2c 7h Ks Kd X1
    index = colex_one(sorted(hand))
    first[index] = 0b10110  # keep 7h Ks X1
    second[index] = 4  # change the fourth by number: Kd
    plays[index] = True
    best = BestResponse(Solution(Settings(), 0.0, first, second, plays))
    assert [hand[p] for p in best.first_discards(hand)] == list(cards("Kd 2c"))
    assert best.second_discard(hand) == 0
    assert best.plays(hand, rank_joker_high(hand))
    other = cards("2c 3d 9h Jc Qs")
    assert best.first_discards(other) == [] and best.second_discard(other) is None
    assert not best.plays(other, rank_joker_high(other))


def test_the_dealer_sample_is_his_final_hands_and_jokers_make_him_qualify_more() -> None:
    with_jokers = dealer_sample(2, held=5, samples=4000)
    without = dealer_sample(0, held=5, samples=4000)
    assert len(with_jokers) == 4000 and (np.diff(with_jokers) >= 0).all()
    qualified = [(sample >= QUALIFYING).mean() for sample in (without, with_jokers)]
    assert 0.35 < qualified[0] < qualified[1] < 0.75, qualified
