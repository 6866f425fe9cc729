"""Payout tables and the exact split of a prize pool; satellite seats.

Shares are basis points (1/100 of a percent, 10 000 in all), best place
first, never increasing.  A table (``PayoutTable``) is tiers by field size:
each tier applies from its ``min_entrants`` up to the next tier's.

The default table follows common practice rather than one house's chart:
for small fields the shapes of the standard online sit-and-go payouts
(heads-up and 3-4 players: winner takes all; 6-max: 65/35; 9-10 players:
50/30/20; 18 players: 40/30/20/10), for fields up to 100 live card-room
charts that pay about the top 10-20 %, and beyond 100 a generated table
paying 15 % of the field (the usual multi-table rule of thumb) on a
harmonic curve: place *i* gets a share proportional to 1/*i*, at most
1 000 places so that every place gets at least one basis point.

The field a table is looked up with is the number of players placed (a
re-entry adds to the pool, not to the places).  Money is whole minor units;
``split`` gives every unit away, the odd ones to the higher places.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from itertools import pairwise

from tournaments.rules.checks import count, require, whole

BASIS = 10_000
"""Shares are parts of this whole (basis points)."""
GENERATED_FROM = 101
"""Fields from this size on get a generated table."""
GENERATED_PAID_PERCENT = 15
MAX_GENERATED_PLACES = 1_000


@dataclass(frozen=True, slots=True)
class PayoutTier:
    """Fields of at least ``min_entrants`` (up to the next tier) pay ``shares``."""

    min_entrants: int
    shares: tuple[int, ...]

    def __post_init__(self) -> None:
        count(self.min_entrants, "min_entrants", 2)
        shares = self.shares
        require(
            isinstance(shares, tuple) and len(shares) >= 1,
            "shares",
            "at least one place",
            key="payout_places",
        )
        require(
            all(whole(s) and s >= 1 for s in shares),
            "shares",
            "positive basis points",
            key="shares_positive",
        )
        require(
            sum(shares) == BASIS,
            "shares",
            f"basis points adding up to {BASIS}",
            key="shares_sum",
            values={"basis": BASIS},
        )
        require(
            all(a >= b for a, b in pairwise(shares)),
            "shares",
            "a place never pays more than the one above it",
            key="shares_descending",
        )
        require(
            len(shares) < self.min_entrants,
            "shares",
            "fewer places paid than players in the smallest field of the tier",
            key="places_below_field",
        )


@dataclass(frozen=True, slots=True)
class PayoutTable:
    """Tiers by field size, the first for fields of 2."""

    tiers: tuple[PayoutTier, ...]

    def __post_init__(self) -> None:
        tiers = self.tiers
        require(
            isinstance(tiers, tuple) and len(tiers) >= 1,
            "tiers",
            "at least one tier",
            key="payout_tiers",
        )
        for i, tier in enumerate(tiers):
            require(
                isinstance(tier, PayoutTier),
                f"tiers[{i}]",
                "not a PayoutTier",
                key="not_payout_tier",
            )
        require(
            tiers[0].min_entrants == 2,
            "tiers[0].min_entrants",
            "the first tier starts at 2",
            key="first_tier_at_two",
        )
        for i in range(1, len(tiers)):
            require(
                tiers[i].min_entrants > tiers[i - 1].min_entrants,
                f"tiers[{i}].min_entrants",
                "tiers in increasing field size",
                key="tiers_ascending",
            )

    def shares(self, entrants: int) -> tuple[int, ...]:
        """The shares for a field of ``entrants`` players."""
        chosen = self.tiers[0]
        for tier in self.tiers:
            if tier.min_entrants <= entrants:
                chosen = tier
        return chosen.shares


DEFAULT_PAYOUTS = PayoutTable(
    (
        PayoutTier(2, (10_000,)),
        PayoutTier(5, (6_500, 3_500)),
        PayoutTier(8, (5_000, 3_000, 2_000)),
        PayoutTier(11, (4_000, 3_000, 2_000, 1_000)),
        PayoutTier(21, (3_500, 2_500, 1_800, 1_200, 1_000)),
        PayoutTier(31, (3_000, 2_000, 1_500, 1_300, 1_200, 1_000)),
        PayoutTier(46, (2_700, 1_700, 1_300, 1_000, 900, 800, 600, 550, 450)),
        PayoutTier(61, (2_500, 1_600, 1_200, 900, 750, 650, 550, 450, 400, 350, 350, 300)),
    )
)
"""Fields up to 100; larger ones use ``harmonic_shares``."""


def payout_shares(entrants: int, table: PayoutTable | None = None) -> tuple[int, ...]:
    """The shares paid in a field of ``entrants``: ``table`` if given, else
    the defaults (generated beyond 100)."""
    if table is not None:
        return table.shares(entrants)
    if entrants < GENERATED_FROM:
        return DEFAULT_PAYOUTS.shares(entrants)
    places = min(MAX_GENERATED_PLACES, entrants * GENERATED_PAID_PERCENT // 100)
    return harmonic_shares(places)


@lru_cache(maxsize=64)
def harmonic_shares(places: int) -> tuple[int, ...]:
    """Basis points for ``places`` places proportional to 1, 1/2, 1/3, ...,
    rounded by largest remainder (ties to the higher place), so they add up
    to ``BASIS`` exactly and never increase."""
    weights = [Fraction(1, i) for i in range(1, places + 1)]
    total = sum(weights, Fraction(0))
    exact = [BASIS * w / total for w in weights]
    floors = [int(x) for x in exact]
    short = BASIS - sum(floors)
    order = sorted(range(places), key=lambda i: (-(exact[i] - floors[i]), i))
    for i in order[:short]:
        floors[i] += 1
    return tuple(floors)


def split(pool: int, shares: tuple[int, ...]) -> tuple[int, ...]:
    """``pool`` in whole units by ``shares`` (any positive weights): each
    place gets its share rounded down, and the units left over go one each
    to the highest places, so the parts add up to ``pool`` exactly."""
    total = sum(shares)
    parts = [pool * s // total for s in shares]
    for i in range(pool - sum(parts)):
        parts[i] += 1
    return tuple(parts)


@dataclass(frozen=True, slots=True)
class Prize:
    """What one place wins: cash, or a seat (ticket) into the target, or a
    consolation ticket ``into`` another target."""

    cash: int = 0
    ticket: bool = False
    into: str = ""


@dataclass(frozen=True, slots=True)
class SatellitePrizes:
    """A satellite's prizes: ``seats`` tickets worth ``seat_value`` each,
    then the consolation tickets ``into`` their targets, and ``cash``, what
    is left of the pool, to the first place without a ticket."""

    seats: int
    seat_value: int
    cash: int
    into: tuple[str, ...] = ()

    def places(self) -> tuple[Prize, ...]:
        """The prize of each paid place, best first."""
        tickets = (Prize(ticket=True),) * self.seats
        consolations = tuple(Prize(into=target) for target in self.into)
        return tickets + consolations + ((Prize(cash=self.cash),) if self.cash else ())


def satellite_prizes(
    pool: int,
    seat_value: int,
    max_seats: int | None,
    players: int | None = None,
    consolation: Sequence[tuple[str, int]] = (),
) -> SatellitePrizes:
    """As many seats as the pool covers (at most ``max_seats``; None: no
    limit), then each consolation ticket (target, value) in turn while the
    rest covers it, the rest of the pool in cash to the next place.

    With ``players`` (the field) at most one ticket fewer than players, so
    that a place is left for the cash: a pool swollen by rebuys, or seats
    cheaper than the entry, never leaves money without a place to go."""
    seats = pool // seat_value
    if max_seats is not None:
        seats = min(seats, max_seats)
    if players is not None:
        seats = max(0, min(seats, players - 1))
    rest = pool - seats * seat_value
    into: list[str] = []
    for target, value in consolation:
        if value > rest or (players is not None and seats + len(into) + 1 >= players):
            break
        into.append(target)
        rest -= value
    return SatellitePrizes(seats, seat_value, rest, tuple(into))


def regular_prizes(pool: int, entrants: int, table: PayoutTable | None = None) -> tuple[Prize, ...]:
    """The cash of each paid place of a regular tournament, best first."""
    return tuple(Prize(cash=c) for c in split(pool, payout_shares(entrants, table)))
