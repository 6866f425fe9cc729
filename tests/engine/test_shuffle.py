"""The production shuffle (``poker.engine.cards.shuffled``, from the OS's
secure source, so it cannot be seeded) is uniform: chi-square tests of a
fixed number of shuffles against the uniform distribution, each with a
threshold a fair shuffle exceeds with probability 1e-7 (the test fails by
chance about once in ten million runs). A classic bias -- a swap with any
position instead of one not yet placed, a loop that stops one card short
-- exceeds it many times over."""

from __future__ import annotations

from collections import Counter

from poker.engine.cards import deck_32, shuffled

PERMUTATION_SHUFFLES = 120_000
"""Of a 4-card deck: 5,000 expected per each of its 24 orders."""
PERMUTATION_LIMIT = 76.9
"""chi2.isf(1e-7, df=23)."""
POSITION_SHUFFLES = 16_000
"""Of the 32-card deck: 500 expected per card and position."""
POSITION_LIMIT = 1206.5
"""chi2.isf(1e-7, df=31 * 31)."""


def chi_square(counts: list[int], expected: float) -> float:
    return sum((count - expected) ** 2 / expected for count in counts)


def test_every_order_of_a_small_deck_is_equally_likely() -> None:
    deck = deck_32()[:4]
    orders = Counter(shuffled(deck) for _ in range(PERMUTATION_SHUFFLES))
    assert len(orders) == 24
    statistic = chi_square(list(orders.values()), PERMUTATION_SHUFFLES / 24)
    assert statistic < PERMUTATION_LIMIT, statistic


def test_every_card_is_equally_likely_at_every_position() -> None:
    deck = deck_32()
    at = Counter(
        (card, position)
        for _ in range(POSITION_SHUFFLES)
        for position, card in enumerate(shuffled(deck))
    )
    counts = [at[card, position] for card in deck for position in range(len(deck))]
    statistic = chi_square(counts, POSITION_SHUFFLES / len(deck))
    assert statistic < POSITION_LIMIT, statistic
