"""The blind structure: levels of blinds and ante with their durations, and breaks.

Rules chosen (RULES.md 1 and 6):

- A level names its small blind, big blind and ante; the big blind is twice
  the small blind (RULES.md 1).  There is no over blind in a level: 32 Card
  Draw's over blind is twice the big blind whenever 4 or 5 players are
  dealt in (RULES.md 1), so the game implies it (``Rules.over_blind``).
- Blinds never go down from one level to the next (a structure that does is
  a typo, refused).
- A break sits after a level (``Break.after_level``), never after the last
  one: the last level has no end and lasts until the tournament does.  (The
  engine's JSON codec decodes a tuple of one type, so breaks are placed by
  the level they follow rather than interleaved with the levels.)
"""

from __future__ import annotations

from dataclasses import dataclass

from tournaments.rules.checks import count, require

MAX_LEVELS = 100
MAX_LEVEL_MINUTES = 240
MAX_BREAK_MINUTES = 120
MINUTE = 60
"""Seconds in a minute of a structure's clock in play."""
MIN_BIG_BLIND = 2
"""The smallest big blind: twice the smallest small blind (RULES.md 1)."""


@dataclass(frozen=True, slots=True)
class BlindLevel:
    """One level: the blinds and ante every hand started in it is dealt with."""

    small_blind: int
    big_blind: int
    ante: int = 0
    minutes: int = 20

    def __post_init__(self) -> None:
        count(self.small_blind, "small_blind", 1)
        count(self.big_blind, "big_blind", MIN_BIG_BLIND)
        require(
            self.big_blind == 2 * self.small_blind,
            "big_blind",
            "the big blind is twice the small blind (RULES.md 1)",
            key="big_blind_twice_small",
        )
        count(self.ante, "ante", 0, self.big_blind)
        count(self.minutes, "minutes", 1, MAX_LEVEL_MINUTES)


@dataclass(frozen=True, slots=True)
class Break:
    """A pause of ``minutes`` after level ``after_level`` (levels count from 1)."""

    after_level: int
    minutes: int = 10

    def __post_init__(self) -> None:
        count(self.after_level, "after_level", 1)
        count(self.minutes, "minutes", 1, MAX_BREAK_MINUTES)


@dataclass(frozen=True, slots=True)
class Structure:
    """The levels in order, and the breaks between them in order.

    ``minute_seconds``: how long a minute of this clock lasts; 60 in play.
    Fewer run every level, break and table pause faster by the same ratio,
    so a whole tournament can be simulated (``bench.simulate``) with
    the structure it would be played with."""

    levels: tuple[BlindLevel, ...]
    breaks: tuple[Break, ...] = ()
    minute_seconds: int = MINUTE

    def __post_init__(self) -> None:
        require(
            isinstance(self.levels, tuple) and 1 <= len(self.levels) <= MAX_LEVELS,
            "levels",
            f"a structure has 1 to {MAX_LEVELS} levels",
            key="levels_count",
            values={"max_levels": MAX_LEVELS},
        )
        for i, level in enumerate(self.levels):
            require(
                isinstance(level, BlindLevel),
                f"levels[{i}]",
                "not a BlindLevel",
                key="not_blind_level",
            )
            if i and level.big_blind < self.levels[i - 1].big_blind:
                require(
                    False, f"levels[{i}].big_blind", "blinds never go down", key="blinds_ascending"
                )
        require(isinstance(self.breaks, tuple), "breaks", "a tuple of breaks", key="breaks_list")
        last = 0
        for i, pause in enumerate(self.breaks):
            require(isinstance(pause, Break), f"breaks[{i}]", "not a Break", key="not_break")
            require(
                last < pause.after_level < len(self.levels),
                f"breaks[{i}].after_level",
                "breaks follow levels in increasing order, at most one after each "
                "level and none after the last",
                key="breaks_order",
            )
            last = pause.after_level
        count(self.minute_seconds, "minute_seconds", 1, MINUTE)

    def seconds(self, minutes: int) -> int:
        """``minutes`` of this clock in seconds."""
        return minutes * self.minute_seconds

    def level(self, number: int) -> BlindLevel:
        """Level ``number`` (from 1)."""
        return self.levels[number - 1]

    def break_after(self, level: int) -> Break | None:
        """The break that follows ``level``, if any."""
        return next((b for b in self.breaks if b.after_level == level), None)
