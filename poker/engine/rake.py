"""The house's rake on a cash table (RULES.md 8), in whole chips.

A percentage of each pot, rounded down to the chip, at most a cap in all
per hand, taken from the main pot first and then the side pots in order,
from nothing smaller than the smallest raked pot.  The percentage is held
in basis points (hundredths of a percent, 500 = 5 %), so a room's 2.5 % is
a whole number too and no float ever touches a chip.

Whether a hand is raked at all ("no draw, no drop") is the hand's
question (``poker.engine.showdown``); this module only does the sums.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from enum import StrEnum, unique

from poker.engine.errors import Malformed

WHOLE = 10_000
"""Basis points in the whole pot (100 %)."""


@dataclass(frozen=True, slots=True)
class Rake:
    """A table's rake: ``basis_points`` of each pot (500 = 5 %), at most
    ``cap`` chips in all per hand (None: no cap), nothing from a hand whose
    pots come to less than ``min_pot``.  Refused with ``Malformed`` if
    nonsense."""

    basis_points: int
    cap: int | None = None
    min_pot: int = 0

    def __post_init__(self) -> None:
        if type(self.basis_points) is not int or not 0 <= self.basis_points <= WHOLE:
            raise Malformed(f"the rake is a whole number of basis points from 0 to {WHOLE}")
        if self.cap is not None and (type(self.cap) is not int or self.cap < 0):
            raise Malformed("the rake's cap is a whole number of chips, at least 0")
        if type(self.min_pot) is not int or self.min_pot < 0:
            raise Malformed("the smallest raked pot is a whole number of chips, at least 0")

    @property
    def takes_nothing(self) -> bool:
        """Zero percent or a zero cap: no hand is ever raked."""
        return self.basis_points == 0 or self.cap == 0

    def takes(self, pots: Sequence[int]) -> tuple[int, ...]:
        """The chips taken from each pot of ``pots`` (main pot first): each
        pot's share rounded down, the main pot's first against the cap;
        all zero when the pots come to less than ``min_pot``."""
        if self.takes_nothing or sum(pots) < self.min_pot:
            return tuple(0 for _ in pots)
        left = self.cap
        out = []
        for amount in pots:
            take = amount * self.basis_points // WHOLE
            if left is not None:
                take = min(take, left)
                left -= take
            out.append(take)
        return tuple(out)


def percent_basis_points(percent: object) -> int:
    """A percentage as written by people and scripts (5, 2.5) in basis
    points; ``Malformed`` unless it has at most two decimals.  Read through
    its decimal text, so 2.55 is 255, never a float's 254."""
    if isinstance(percent, bool) or not isinstance(percent, int | float):
        raise Malformed(f"a rake percent is a number, not {percent!r}")
    try:
        points = Decimal(str(percent)) * 100
    except InvalidOperation:
        raise Malformed(f"a rake percent is a number, not {percent!r}") from None
    if not points.is_finite() or points != points.to_integral_value():
        raise Malformed(f"a rake percent has at most two decimals, not {percent!r}")
    return int(points)


@unique
class RakePreset(StrEnum):
    """Rake settings a room picks from instead of writing the numbers; each
    scales with the table's big blind (``preset_settings``)."""

    NONE = "none"
    """No rake: private games and home tables."""
    STANDARD = "standard"
    """5 %, capped at 3 big blinds, from pots of at least 1 big blind (the
    usual online cash game)."""
    MICRO = "micro"
    """5 %, capped at 1 big blind, from pots of at least 1 big blind (the
    smallest stakes, where 3 big blinds would take too much)."""
    HIGH_STAKES = "high-stakes"
    """2.5 %, capped at 1 big blind, from pots of at least 1 big blind."""


_PRESETS: dict[RakePreset, tuple[int, int | None, int]] = {
    RakePreset.NONE: (0, None, 0),
    RakePreset.STANDARD: (500, 3, 1),
    RakePreset.MICRO: (500, 1, 1),
    RakePreset.HIGH_STAKES: (250, 1, 1),
}
"""Each preset as (basis points, cap in big blinds, smallest pot in big blinds)."""


def preset_settings(preset: RakePreset, big_blind: int) -> dict[str, int | None]:
    """The rake settings (``TableConfig``'s ``rake_*``) of ``preset`` at a
    table whose big blind is ``big_blind``."""
    basis_points, cap, min_pot = _PRESETS[preset]
    return {
        "rake_basis_points": basis_points,
        "rake_cap": None if cap is None else cap * big_blind,
        "rake_min_pot": min_pot * big_blind,
    }
