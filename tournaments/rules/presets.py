"""Ready-made structures and definitions, for the lobby and for tests.

32 Card Draw has no ante in these: with 4 or 5 players dealt in its over
blind (twice the big blind, RULES.md 1) is already a third forced bet, as
in RULES.md's example table (SB 3, BB 6, OB 12).  Satellites run on shorter
levels than the events they feed, as card rooms do.
"""

from __future__ import annotations

from poker.engine.rules import Betting, Game
from tournaments.rules.definition import Satellite, TournamentDefinition
from tournaments.rules.structure import BlindLevel, Break, Structure

_SATELLITE_BLINDS = (
    10, 15, 20, 25, 30, 40, 50, 60, 75, 100,
    125, 150, 200, 250, 300, 400, 500, 600, 800, 1000,
)  # fmt: skip
"""Small blinds of the 32 Card Draw satellite (the big blind is twice)."""

_STANDARD = (
    (25, 0), (50, 0), (75, 0), (100, 0), (150, 25), (200, 50), (250, 50),
    (300, 75), (400, 100), (500, 100), (600, 200), (800, 200), (1000, 300),
    (1500, 400), (2000, 500), (3000, 1000), (4000, 1000), (5000, 1500),
    (6000, 2000), (8000, 2000), (10000, 3000),
)  # fmt: skip
"""(small blind, ante) of the standard structure."""

SATELLITE_STARTING_STACK = 3_000
"""150 big blinds of the first level (75 over blinds)."""


def thirty_two_card_draw_satellite_structure(minutes: int = 10) -> Structure:
    """20 levels from 10/20 to 1000/2000 (over blind implied), no ante, a
    five-minute break every six levels."""
    levels = tuple(BlindLevel(sb, 2 * sb, 0, minutes) for sb in _SATELLITE_BLINDS)
    return Structure(levels, (Break(6, 5), Break(12, 5)))


def standard_structure(minutes: int = 20) -> Structure:
    """21 levels from 25/50 to 10000/20000, antes from level 5, a ten-minute
    break every six levels (two hours at 20-minute levels)."""
    levels = tuple(BlindLevel(sb, 2 * sb, ante, minutes) for sb, ante in _STANDARD)
    return Structure(levels, (Break(6, 10), Break(12, 10), Break(18, 10)))


def thirty_two_card_draw_satellite(
    target: str,
    target_buy_in: int,
    buy_in: int,
    fee: int = 0,
    seats: int | None = None,
    betting: Betting = Betting.POT_LIMIT,
) -> TournamentDefinition:
    """A 32 Card Draw satellite to ``target``: five-handed tables, 3 000
    chips, late registration through level 4, freezeout."""
    return TournamentDefinition(
        game=Game.THIRTY_TWO_CARD_DRAW,
        betting=betting,
        structure=thirty_two_card_draw_satellite_structure(),
        starting_stack=SATELLITE_STARTING_STACK,
        buy_in=buy_in,
        fee=fee,
        late_registration_level=4,
        satellite=Satellite(target, target_buy_in, seats),
    )
