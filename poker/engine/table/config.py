"""A table's settings: the game, the number of seats, the buy-in bounds, the
clocks, the rake, and whether it is a cash table or a tournament table."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from poker.engine.errors import Malformed
from poker.engine.rake import WHOLE, Rake
from poker.engine.rules import VARIANTS, Betting, Rules
from poker.engine.settings import Setting, bounded, check_all, settings_of

FIXED_LIMIT_MIN_BIG_BLINDS = 10
"""Fixed limit: the minimum buy-in is 10 big blinds, with no maximum (RULES.md 1)."""
BIG_BET_MIN_SMALL_BLINDS = 20
"""Pot and no limit: the minimum buy-in is 20 small blinds (RULES.md 1)."""
BIG_BET_MAX_BIG_BLINDS = 100
"""Pot and no limit: the maximum buy-in is 100 big blinds (RULES.md 1)."""
MAX_SEATS = max(variant.max_players for variant in VARIANTS.values())
"""The most seats a table setting may name: the biggest game's table; each
game allows at most its ``Variant.max_players``."""
CLOCK = bounded(1, 600)
"""A clock a player must answer: whole seconds, 1 to 600."""
ALLOWANCE = bounded(0, 3600)
"""A time bank, its refill or the pause: 0 (none) to 3600."""
MAX_TOURNAMENT_TABLE = 32_767
"""The highest number a tournament table may have: ample, as a tournament
has at most 10,000 entrants."""


@dataclass(frozen=True, slots=True)
class Stakes:
    """The blinds and ante one hand is dealt with: a tournament level's, when
    they are not the table's own (32 Card Draw's over blind follows from the
    big blind, RULES.md 1)."""

    small_blind: int
    big_blind: int
    ante: int = 0

    @classmethod
    def of(cls, rules: Rules) -> Stakes:
        """The stakes ``rules`` deal with."""
        return cls(rules.small_blind, rules.big_blind, rules.ante)

    def apply(self, rules: Rules) -> Rules:
        """``rules`` dealt at these stakes."""
        return replace(
            rules, small_blind=self.small_blind, big_blind=self.big_blind, ante=self.ante
        )


RULE_SETTINGS = settings_of(Rules)
"""The settings of a hand, declared on ``Rules``."""


def _check_blinds(rules: Rules) -> None:
    check_all(rules, RULE_SETTINGS)
    if rules.big_blind < rules.small_blind:
        raise Malformed("blinds must be positive, the big at least the small")


@dataclass(frozen=True, slots=True)
class TableConfig:
    """What a table is set up with; refused with ``Malformed`` if nonsense.

    ``seats`` are numbered 1 to ``seats`` clockwise.  ``max_buy_in`` None:
    no maximum.  The buy-in bounds also bound top-ups: a stack may be topped
    up to at most ``max_buy_in`` (RULES.md 1, table stakes).

    With ``tournament`` set the table is a tournament table
    (``poker.engine.table.tournament``): the buy-in bounds do not apply
    (chips come from the tournament), ``rules`` are the first level's and
    each hand is dealt at the level the tournament gives.
    """

    rules: Rules
    seats: int = field(metadata=bounded(2, MAX_SEATS, derived=True))
    """Left out: every seat the game allows."""
    min_buy_in: int = field(metadata=bounded(1, chips=True, derived=True))
    max_buy_in: int | None = field(default=None, metadata=bounded(1, chips=True, derived=True))
    """At least ``min_buy_in``.  Left out of a request: RULES.md 1's."""
    name: str = field(default="", metadata=bounded(high=80))
    """What the lobby calls the table."""
    action_seconds: int = field(default=30, metadata=CLOCK)
    """The action clock (RULES.md 1), also the clock to show or muck."""
    draw_seconds: int = field(default=30, metadata=CLOCK)
    """The draw clock (RULES.md 1)."""
    bet_seconds: int = field(default=10, metadata=CLOCK)
    """32 Card Draw: a bet or raise only in the first ``bet_seconds`` of the
    action clock (RULES.md 1), so at most ``action_seconds``; other games
    ignore it."""
    parole_seconds: int = field(default=15, metadata=CLOCK)
    """The Parole answer clock: no answer is a refusal (RULES.md 2)."""
    time_bank_seconds: int = field(default=30, metadata=ALLOWANCE)
    """Each player's time bank, drawn on by itself once his clock has run
    out (0: none)."""
    time_bank_refill_hands: int = field(default=10, metadata=ALLOWANCE)
    """The time banks are full again every this many hands (0: never)."""
    pause_seconds: int = field(default=5, metadata=ALLOWANCE)
    """The pause between hands before the next is dealt by itself (0: none)."""
    rake_basis_points: int = field(default=0, metadata=bounded(0, WHOLE))
    """The house's rake (RULES.md 8): hundredths of a percent of each pot
    (500 = 5 %; 0: no rake, as at private games and tournament tables)."""
    rake_cap: int | None = field(default=None, metadata=bounded(0, chips=True))
    """The most the rake takes from one hand, in chips (None: no cap)."""
    rake_min_pot: int = field(default=0, metadata=bounded(0, chips=True))
    """The smallest raked pot: a hand whose pots come to less is not raked."""
    tournament: int | None = field(default=None, metadata=bounded(1))
    """The id of the tournament this table belongs to (None: a cash table)."""
    tournament_table: int | None = field(default=None, metadata=bounded(1, MAX_TOURNAMENT_TABLE))
    """The table's number in its tournament (1, 2, ...), if known."""

    def __post_init__(self) -> None:
        """Each setting within its declared bounds, then what ties settings
        together: the game's seats, the buy-ins' order, the bet window."""
        rules = self.rules
        if not isinstance(rules, Rules):
            raise Malformed("a table needs rules")
        _check_blinds(rules)
        check_all(self, TABLE_SETTINGS)
        variant = rules.variant
        if self.seats > variant.max_players:
            raise Malformed(f"{rules.game} tables have 2 to {variant.max_players} seats")
        if self.max_buy_in is not None and self.max_buy_in < self.min_buy_in:
            raise Malformed("the maximum buy-in must be a whole number, at least the minimum")
        if self.bet_seconds > self.action_seconds:
            raise Malformed("the bet window is whole seconds from 1 to the action clock")
        if self.tournament_table is not None and self.tournament is None:
            raise Malformed("only a tournament table has a tournament table number")

    @classmethod
    def from_settings(cls, values: Mapping[str, Any]) -> TableConfig:
        """The configuration ``values`` give by setting name (a request's, a
        stored row's), enumerations as their values: a setting left out
        takes its default, the seats and buy-ins the game's (RULES.md 1).
        ``Malformed`` for an unknown or missing setting, ``ValueError`` for
        an unknown enumeration value."""
        unknown = sorted(set(values) - {s.name for s in SETTINGS})
        missing = [s.name for s in SETTINGS if s.name not in values and _needed(s)]
        if unknown or missing:
            raise Malformed(f"unknown settings {unknown}, missing settings {missing}")
        typed: dict[str, Any] = {
            s.name: s.typed(values[s.name]) for s in SETTINGS if s.name in values
        }
        rules = Rules(**{s.name: typed[s.name] for s in RULE_SETTINGS if s.name in typed})
        given = {s.name: typed[s.name] for s in TABLE_SETTINGS if s.name in typed}
        return cls(rules, **{**cls.derived_defaults(rules), **given})

    def settings(self) -> dict[str, Any]:
        """Every setting by name, enumerations as their values: what a row
        stores and ``from_settings`` reads back."""
        return {
            **{s.name: s.plain(getattr(self.rules, s.name)) for s in RULE_SETTINGS},
            **{s.name: s.plain(getattr(self, s.name)) for s in TABLE_SETTINGS},
        }

    @classmethod
    def derived_defaults(cls, rules: Rules) -> dict[str, Any]:
        """The settings declared ``derived``, as ``rules`` set them when left
        out: every seat of the game and RULES.md 1's buy-ins."""
        low, high = cls.default_buy_ins(rules)
        return {"seats": rules.variant.max_players, "min_buy_in": low, "max_buy_in": high}

    @property
    def is_tournament(self) -> bool:
        """A tournament table: chips come and go only with the tournament."""
        return self.tournament is not None

    @property
    def rake(self) -> Rake | None:
        """The rake each hand is dealt with (RULES.md 8); None when it can
        take nothing (zero percent or a zero cap) and at a tournament table,
        which takes no rake whatever its settings (the fee is the house's)."""
        rake = Rake(self.rake_basis_points, self.rake_cap, self.rake_min_pot)
        return None if rake.takes_nothing or self.is_tournament else rake

    @property
    def deals_by_itself(self) -> bool:
        """The next hand is dealt after the pause by the table's own clock
        (cash tables); a tournament table deals only when its tournament
        says so (hand-for-hand, breaks, balancing all wait on it)."""
        return self.tournament is None

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
        given = {} if seats is None else {"seats": seats}
        return cls(rules, **{**cls.derived_defaults(rules), **given})

    def level_stakes(self, rules: Rules) -> Stakes:
        """The stakes of a tournament level's ``rules``: only the blinds and
        ante may differ from the table's own rules (same game, betting,
        ante and tie-break options); ``Malformed`` otherwise."""
        if not isinstance(rules, Rules):
            raise Malformed("a level's rules are Rules")
        _check_blinds(rules)
        if Stakes.of(rules).apply(self.rules) != rules:
            raise Malformed("a level changes the blinds and ante only, not the game")
        return Stakes.of(rules)

    @classmethod
    def for_tournament(
        cls, tournament: int, rules: Rules, seats: int, table: int | None = None
    ) -> TableConfig:
        """A table of tournament ``tournament`` (its number ``table``) dealing
        ``rules`` (the first level) at ``seats`` seats; the buy-in bounds are
        placeholders, never applied."""
        return cls(rules, seats, 1, None, tournament=tournament, tournament_table=table)

    def buy_in_bounds(self) -> str:
        """The bounds in words, for refusals."""
        if self.max_buy_in is None:
            return f"at least {self.min_buy_in}"
        return f"{self.min_buy_in} to {self.max_buy_in}"


TABLE_SETTINGS = settings_of(TableConfig, skip=("rules",))
"""The settings of a table beside its rules, declared on ``TableConfig``."""
SETTINGS: tuple[Setting, ...] = RULE_SETTINGS + TABLE_SETTINGS
"""Every table setting, as stored in a table's row."""


def _needed(setting: Setting) -> bool:
    """A setting that must be given: no fixed default, none derived."""
    return not setting.has_default and not setting.bounds.derived


def setting(name: str) -> Setting:
    """The declaration of table setting ``name`` (``KeyError`` if none)."""
    return _BY_NAME[name]


_BY_NAME = {s.name: s for s in SETTINGS}
