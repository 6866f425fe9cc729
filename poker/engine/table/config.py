"""A cash table's settings: the game, the number of seats and the buy-in bounds."""

from __future__ import annotations

from dataclasses import dataclass

from poker.engine.errors import Malformed
from poker.engine.rules import Betting, Rules

FIXED_LIMIT_MIN_BIG_BLINDS = 10
"""Fixed limit: the minimum buy-in is 10 big blinds, with no maximum (RULES.md 1)."""
BIG_BET_MIN_SMALL_BLINDS = 20
"""Pot and no limit: the minimum buy-in is 20 small blinds (RULES.md 1)."""
BIG_BET_MAX_BIG_BLINDS = 100
"""Pot and no limit: the maximum buy-in is 100 big blinds (RULES.md 1)."""


def _whole(value: object) -> bool:
    return type(value) is int


@dataclass(frozen=True, slots=True)
class TableConfig:
    """What a cash table is set up with; refused with ``Malformed`` if nonsense.

    ``seats`` are numbered 1 to ``seats`` clockwise.  ``max_buy_in`` None:
    no maximum.  The buy-in bounds also bound top-ups: a stack may be topped
    up to at most ``max_buy_in`` (RULES.md 1, table stakes).
    """

    rules: Rules
    seats: int
    min_buy_in: int
    max_buy_in: int | None = None
    name: str = ""
    """What the lobby calls the table."""
    action_seconds: int = 30
    """The action clock (RULES.md 1); the clocks issue runs it."""
    draw_seconds: int = 30
    """The draw clock (RULES.md 1)."""

    def __post_init__(self) -> None:
        rules = self.rules
        if not isinstance(rules, Rules):
            raise Malformed("a table needs rules")
        blinds = (rules.small_blind, rules.big_blind, rules.ante)
        if not all(_whole(b) for b in blinds):
            raise Malformed("blinds and ante must be whole numbers of chips")
        if rules.small_blind <= 0 or rules.big_blind < rules.small_blind or rules.ante < 0:
            raise Malformed("blinds must be positive, the big at least the small")
        variant = rules.variant
        if not _whole(self.seats) or not 2 <= self.seats <= variant.max_players:
            raise Malformed(f"{rules.game} tables have 2 to {variant.max_players} seats")
        if not _whole(self.min_buy_in) or self.min_buy_in <= 0:
            raise Malformed("the minimum buy-in must be a positive whole number")
        high = self.max_buy_in
        if high is not None and (not _whole(high) or high < self.min_buy_in):
            raise Malformed("the maximum buy-in must be a whole number, at least the minimum")
        if not isinstance(self.name, str) or len(self.name) > 80:
            raise Malformed("a table name is text of at most 80 characters")
        clocks = (self.action_seconds, self.draw_seconds)
        if not all(_whole(c) and 1 <= c <= 600 for c in clocks):
            raise Malformed("clocks are whole seconds from 1 to 600")

    @staticmethod
    def default_buy_ins(rules: Rules) -> tuple[int, int | None]:
        """RULES.md 1: fixed limit 10 x BB and no maximum; pot and no limit
        20 x SB to 100 x BB."""
        if rules.betting is Betting.FIXED_LIMIT:
            return FIXED_LIMIT_MIN_BIG_BLINDS * rules.big_blind, None
        return (
            BIG_BET_MIN_SMALL_BLINDS * rules.small_blind,
            BIG_BET_MAX_BIG_BLINDS * rules.big_blind,
        )

    @classmethod
    def create(cls, rules: Rules, seats: int | None = None) -> TableConfig:
        """A table with the default buy-ins and, unless given, every seat the
        game allows."""
        low, high = cls.default_buy_ins(rules)
        return cls(rules, rules.variant.max_players if seats is None else seats, low, high)

    def buy_in_bounds(self) -> str:
        """The bounds in words, for refusals."""
        if self.max_buy_in is None:
            return f"at least {self.min_buy_in}"
        return f"{self.min_buy_in} to {self.max_buy_in}"
