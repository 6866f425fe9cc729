"""Payout tables, exact splits, satellite seats."""

from __future__ import annotations

import pytest

from tournaments.rules import (
    DEFAULT_PAYOUTS,
    InvalidDefinition,
    PayoutTable,
    PayoutTier,
    Prize,
    payout_shares,
    satellite_prizes,
    split,
)
from tournaments.rules.payouts import BASIS, harmonic_shares, regular_prizes


@pytest.mark.parametrize(
    ("entrants", "shares"),
    [
        (2, (10_000,)),
        (4, (10_000,)),
        (5, (6_500, 3_500)),
        (6, (6_500, 3_500)),
        (9, (5_000, 3_000, 2_000)),
        (18, (4_000, 3_000, 2_000, 1_000)),
        (25, (3_500, 2_500, 1_800, 1_200, 1_000)),
    ],
)
def test_small_fields_pay_like_standard_sit_and_gos(entrants: int, shares: tuple[int, ...]) -> None:
    assert payout_shares(entrants) == shares


def test_every_default_tier_adds_up_and_never_increases() -> None:
    for tier in DEFAULT_PAYOUTS.tiers:
        assert sum(tier.shares) == BASIS
        assert list(tier.shares) == sorted(tier.shares, reverse=True)


def test_fields_above_100_pay_15_percent_on_a_harmonic_curve() -> None:
    shares = payout_shares(200)
    assert len(shares) == 30
    assert sum(shares) == BASIS
    assert list(shares) == sorted(shares, reverse=True)
    assert shares[0] == pytest.approx(2 * shares[1], abs=2)


def test_generated_tables_pay_at_most_a_thousand_places() -> None:
    assert len(payout_shares(1_000_000)) == 1000
    assert min(harmonic_shares(1000)) >= 1


def test_a_configured_table_is_chosen_by_field_size() -> None:
    table = PayoutTable((PayoutTier(2, (10_000,)), PayoutTier(10, (6_000, 4_000))))
    assert payout_shares(9, table) == (10_000,)
    assert payout_shares(10, table) == (6_000, 4_000)
    assert payout_shares(500, table) == (6_000, 4_000)


@pytest.mark.parametrize(
    ("tier", "field"),
    [
        ((1, (10_000,)), "min_entrants"),
        ((5, ()), "shares"),
        ((5, (6_000, 3_000)), "shares"),  # adds up to 9 000
        ((5, (4_000, 6_000)), "shares"),  # increases
        ((5, (10_000, 0)), "shares"),
        ((2, (5_000, 5_000)), "shares"),  # pays everyone in a field of 2
    ],
)
def test_a_bad_tier_is_refused(tier: tuple[int, tuple[int, ...]], field: str) -> None:
    with pytest.raises(InvalidDefinition) as caught:
        PayoutTier(*tier)
    assert caught.value.field == field


def test_tables_start_at_two_and_grow() -> None:
    with pytest.raises(InvalidDefinition) as caught:
        PayoutTable((PayoutTier(3, (10_000,)),))
    assert caught.value.field == "tiers[0].min_entrants"
    with pytest.raises(InvalidDefinition) as caught:
        PayoutTable((PayoutTier(2, (10_000,)), PayoutTier(2, (10_000,))))
    assert caught.value.field == "tiers[1].min_entrants"


def test_a_split_gives_the_whole_pool_with_odd_units_to_the_higher_places() -> None:
    assert split(1000, (5_000, 3_000, 2_000)) == (500, 300, 200)
    assert split(1001, (5_000, 3_000, 2_000)) == (501, 300, 200)
    assert split(101, (1, 1, 1)) == (34, 34, 33)
    assert split(0, (6_500, 3_500)) == (0, 0)


def test_regular_prizes_are_cash_by_place() -> None:
    assert regular_prizes(1000, 9) == (Prize(500), Prize(300), Prize(200))


def test_a_satellite_awards_as_many_seats_as_the_pool_covers_and_the_rest_in_cash() -> None:
    prizes = satellite_prizes(2300, 1000, None)
    assert (prizes.seats, prizes.cash) == (2, 300)
    assert prizes.places() == (Prize(ticket=True), Prize(ticket=True), Prize(cash=300))


def test_a_satellite_awards_at_most_its_seats_and_the_rest_to_the_next_place() -> None:
    prizes = satellite_prizes(5500, 1000, 2)
    assert (prizes.seats, prizes.cash) == (2, 3500)


def test_a_satellite_pool_short_of_one_seat_pays_cash_to_the_winner() -> None:
    prizes = satellite_prizes(800, 1000, 3)
    assert (prizes.seats, prizes.cash) == (0, 800)
    assert prizes.places() == (Prize(cash=800),)


def test_a_satellite_pool_of_exact_seats_pays_no_cash() -> None:
    assert satellite_prizes(3000, 1000, None).places() == (Prize(ticket=True),) * 3


def test_a_satellite_leaves_a_place_for_the_cash() -> None:
    # five players, seats cheaper than the entry: four seats, the rest to 5th
    prizes = satellite_prizes(500, 50, None, players=5)
    assert (prizes.seats, prizes.cash) == (4, 300)
    assert satellite_prizes(100, 500, None, players=1).seats == 0
