"""A casino table's state: its boxes and their bets, the running round,
whether it closes.

It is the fold of the table's events (``poker.engine.casino.table.evolve``);
the questions the rules and the service ask of it are answered here.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from poker.engine.casino.table.config import CasinoTableConfig
from poker.engine.casino.table.cover import exposure


@dataclass(frozen=True, slots=True)
class CasinoSeat:
    """One occupied box."""

    player: str
    bet: int = 0
    """The original bet placed for the next round, or the running one (0: none)."""
    held: int = 0
    """The chips the round holds for him (taken from his wallet at the bet)."""
    sitting_out: bool = False
    leaving: bool = False
    """Leaves when the round he is dealt in ends."""


@dataclass(frozen=True, slots=True)
class CasinoTableState:
    """A casino table: the fold of its events."""

    config: CasinoTableConfig
    seats: Mapping[int, CasinoSeat] = field(default_factory=dict)
    round_number: int = 0
    """The last round dealt (0: none yet)."""
    round_boxes: tuple[int, ...] = ()
    """The boxes dealt in the running round (empty: none runs)."""
    closing: bool = False
    closed: bool = False
    version: int = 0

    @property
    def round_running(self) -> bool:
        return bool(self.round_boxes)

    def box_of(self, player: str) -> int | None:
        """The box ``player`` sits in, if any."""
        return next((n for n, s in self.seats.items() if s.player == player), None)

    @property
    def bets(self) -> dict[int, CasinoSeat]:
        """The boxes with a bet on the next round, by box (none while a round runs)."""
        if self.round_running:
            return {}
        return {n: s for n, s in sorted(self.seats.items()) if s.bet}

    @property
    def ready(self) -> bool:
        """Every seated player who is not sitting out has bet (and one has)."""
        if self.round_running or self.closed or not self.bets:
            return False
        return all(s.bet for s in self.seats.values() if not s.sitting_out)

    @property
    def held(self) -> int:
        """What the table's round account must hold: every bet's chips."""
        return sum(s.held for s in self.seats.values() if s.bet)

    def exposure(self) -> int:
        """The most the house could lose on the open boxes (bets placed or in play)."""
        rules = self.config.rules
        return sum(exposure(s.bet, rules) for s in self.seats.values() if s.bet)
