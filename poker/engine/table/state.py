"""A table's state: the seats, the last hand's positions, the stakes in force.

It is the fold of the table's events (``poker.engine.table.evolve``); the
questions the rules and the service ask of it are answered here.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from poker.engine.events import Blind
from poker.engine.rules import Rules
from poker.engine.table.config import Stakes, TableConfig


@dataclass(frozen=True, slots=True)
class SeatState:
    """One occupied seat."""

    player: str
    stack: int
    """Chips in front of him; during a hand, his stack when it began."""
    sitting_out: bool = False
    waiting: bool = False
    """Waits for the big blind to reach his seat before he is dealt in."""
    new: bool = True
    """Not dealt in since he sat down: posts the largest blind to come in."""
    missed: frozenset[Blind] = frozenset()
    """Blinds that passed his seat while he was not dealt in (SMALL, BIG, OVER)."""
    queued_top_up: int = 0
    """Chips asked for during his hand, added when it finishes."""
    leaving: bool = False
    """Asked to leave during his hand: leaves when it finishes."""
    in_hand: bool = False
    """Dealt in to the running hand."""
    bank: int = 0
    """Seconds left in his time bank."""

    @property
    def ready(self) -> bool:
        """Wants to play and can: has chips, not sitting out, not leaving."""
        return self.stack > 0 and not self.sitting_out and not self.leaving

    @property
    def owes(self) -> bool:
        """Must post (or wait for the big blind) to be dealt in: new, or
        missed a blind."""
        return self.new or bool(self.missed)

    @property
    def regular(self) -> bool:
        """Dealt in wherever his seat is: owes nothing and does not wait."""
        return not self.owes and not self.waiting


@dataclass(frozen=True)
class TableState:
    """Everything about a table between and during hands.

    ``seats`` maps each occupied seat number to its ``SeatState`` (treat it
    as read-only: ``evolve_table`` builds a new mapping for every change).
    ``button``/``small``/``big``/``over`` are the seats of the last hand's
    positions (``small`` is where the small blind was due even when it was
    dead), None before the first hand -- but for ``button`` after a drawn
    button (``ButtonDrawn``): where the first hand's button goes.
    """

    config: TableConfig
    seats: Mapping[int, SeatState] = field(default_factory=dict)
    button: int | None = None
    small: int | None = None
    big: int | None = None
    over: int | None = None
    hand_running: bool = False
    hand_number: int = 0
    """The number of the running or last hand (0: none yet)."""
    hand_seats: tuple[int, ...] = ()
    """The seats dealt in to the running or last hand."""
    closing: bool = False
    """Closed during a hand: it closes when the hand finishes."""
    closed: bool = False
    stakes: Stakes | None = None
    """The blinds and ante of the running or last hand when they were not
    the table's own (a tournament level); None: the table's own."""
    raked: int = 0
    """The chips the house took from this table's hands in all (RULES.md 8)."""
    version: int = 0
    """How many events made this state."""

    def seat_of(self, player: str) -> int | None:
        """The seat ``player`` sits in, if any."""
        return next((n for n, s in self.seats.items() if s.player == player), None)

    @property
    def rules(self) -> Rules:
        """The rules in force: the table's, at the stakes of the running or
        last hand (a tournament's level stays until the next is given)."""
        rules = self.config.rules
        return rules if self.stakes is None else self.stakes.apply(rules)

    @property
    def dealable(self) -> frozenset[int]:
        """The seats the next hand may deal in: at a cash table the ready
        players; at a tournament table everyone with chips, sitting out or
        not (no missed blinds in a tournament: he is blinded off)."""
        if self.config.is_tournament:
            return frozenset(n for n, s in self.seats.items() if s.stack > 0)
        return frozenset(n for n, s in self.seats.items() if s.ready)

    def away(self, seat: int) -> bool:
        """The tournament player in ``seat`` sits out: he is dealt in all the
        same and the service acts for him whenever he is to act (check or
        fold, stand pat, refuse Parole, show), at once, until he sits in.
        Always False at a cash table, where sitting out deals him out."""
        held = self.seats.get(seat)
        return self.config.is_tournament and held is not None and held.sitting_out

    @property
    def chips(self) -> int:
        """All chips on the table (during a hand: as it began)."""
        return sum(s.stack for s in self.seats.values())
