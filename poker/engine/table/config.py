"""A table's settings: the game, the number of seats, the buy-in bounds, the
clocks, and whether it is a cash table or a tournament table."""

from __future__ import annotations

from dataclasses import dataclass, replace

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


def _check_blinds(rules: Rules) -> None:
    blinds = (rules.small_blind, rules.big_blind, rules.ante)
    if not all(_whole(b) for b in blinds):
        raise Malformed("blinds and ante must be whole numbers of chips")
    if rules.small_blind <= 0 or rules.big_blind < rules.small_blind or rules.ante < 0:
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
    seats: int
    min_buy_in: int
    max_buy_in: int | None = None
    name: str = ""
    """What the lobby calls the table."""
    action_seconds: int = 30
    """The action clock (RULES.md 1), also the clock to show or muck."""
    draw_seconds: int = 30
    """The draw clock (RULES.md 1)."""
    bet_seconds: int = 10
    """32 Card Draw: a bet or raise only in the first ``bet_seconds`` of the
    action clock (RULES.md 1); other games ignore it."""
    parole_seconds: int = 15
    """The Parole answer clock: no answer is a refusal (RULES.md 2)."""
    time_bank_seconds: int = 30
    """Each player's time bank, drawn on by itself once his clock has run
    out (0: none)."""
    time_bank_refill_hands: int = 10
    """The time banks are full again every this many hands (0: never)."""
    pause_seconds: int = 5
    """The pause between hands before the next is dealt by itself (0: none)."""
    tournament: int | None = None
    """The id of the tournament this table belongs to (None: a cash table)."""
    tournament_table: int | None = None
    """The table's number in its tournament (1, 2, ...), if known."""

    def __post_init__(self) -> None:
        rules = self.rules
        if not isinstance(rules, Rules):
            raise Malformed("a table needs rules")
        _check_blinds(rules)
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
        clocks = (self.action_seconds, self.draw_seconds, self.parole_seconds)
        if not all(_whole(c) and 1 <= c <= 600 for c in clocks):
            raise Malformed("clocks are whole seconds from 1 to 600")
        if not _whole(self.bet_seconds) or not 1 <= self.bet_seconds <= self.action_seconds:
            raise Malformed("the bet window is whole seconds from 1 to the action clock")
        rest = (self.time_bank_seconds, self.time_bank_refill_hands, self.pause_seconds)
        if not all(_whole(c) and 0 <= c <= 3600 for c in rest):
            raise Malformed("the time bank, its refill and the pause are whole numbers to 3600")
        self._check_tournament()

    def _check_tournament(self) -> None:
        if self.tournament is not None and (not _whole(self.tournament) or self.tournament < 1):
            raise Malformed("a tournament id is a positive whole number")
        number = self.tournament_table
        if number is not None and (self.tournament is None or not _whole(number) or number < 1):
            raise Malformed("a tournament table's number is a positive whole number")

    @property
    def is_tournament(self) -> bool:
        """A tournament table: chips come and go only with the tournament."""
        return self.tournament is not None

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
        low, high = cls.default_buy_ins(rules)
        return cls(rules, rules.variant.max_players if seats is None else seats, low, high)

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
