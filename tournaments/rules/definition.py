"""What a tournament is set up with: game, structure, money, field, options.

Money (buy-in, fee, bounty, prices, seat values) is in whole minor units of the
ledger's currency; chips are tournament chips.  The buy-in goes to the
prize pool and the fee to the house; rebuy and add-on prices go to the pool
whole.  Validation refuses nonsense with ``InvalidDefinition`` naming the
field.  Rules chosen where RULES.md 6 is silent:

- ``max_players`` bounds the entries (a re-entry is one more entry), so a
  sit-and-go "fills" when the entries reach it.
- Re-entry needs late registration: a busted player re-enters while
  registration is open (``re_entries``: 0 none, a number, None unlimited).
- Rebuy counts and the add-on are per entry.
- Tables of two seat at most two players: heads-up multi-table play would be
  a bracket, which this is not.
"""

from __future__ import annotations

from dataclasses import dataclass

from poker.engine.rules import VARIANTS, AnteBy, Betting, Game, Rules, TieBreak
from poker.engine.table.config import setting
from tournaments.rules.checks import count, require
from tournaments.rules.flights import Flight
from tournaments.rules.payouts import PayoutTable
from tournaments.rules.structure import MINUTE, Structure

MAX_ENTRIES = 10_000
MAX_NAME = 80
DECISION_SECONDS = 60
"""A broke player's time to rebuy or decline (house rule: RULES.md and the
TDA are silent; a minute, as online rooms give between hands)."""
MAX_DECISION_SECONDS = 600


@dataclass(frozen=True, slots=True)
class Rebuys:
    """Rebuys through level ``until_level`` while the stack is at or below
    ``threshold`` chips (None: the starting stack), ``chips`` for ``price``
    each, at most ``max_rebuys`` per entry (None: no limit); and the add-on
    at the end of the window (``add_on_chips`` 0: none).  A player out of
    chips has ``decision_seconds`` (of the structure's clock) to rebuy or
    decline; then he is out as if he declined."""

    until_level: int
    chips: int
    price: int
    max_rebuys: int | None = None
    threshold: int | None = None
    add_on_chips: int = 0
    add_on_price: int = 0
    decision_seconds: int = DECISION_SECONDS

    def __post_init__(self) -> None:
        count(self.until_level, "until_level", 1)
        count(self.chips, "chips", 1)
        count(self.price, "price", 0)
        if self.max_rebuys is not None:
            count(self.max_rebuys, "max_rebuys", 1)
        if self.threshold is not None:
            count(self.threshold, "threshold", 0)
        count(self.add_on_chips, "add_on_chips", 0)
        count(self.add_on_price, "add_on_price", 0)
        count(self.decision_seconds, "decision_seconds", 1, MAX_DECISION_SECONDS)
        require(
            self.add_on_chips > 0 or self.add_on_price == 0,
            "add_on_price",
            "an add-on price needs add-on chips",
            key="add_on_needs_chips",
        )

    @property
    def add_on(self) -> bool:
        """An add-on is offered."""
        return self.add_on_chips > 0


def _reference(value: object, field: str) -> None:
    require(
        isinstance(value, str) and 0 < len(value) <= MAX_NAME,
        field,
        f"a reference of 1 to {MAX_NAME} characters",
        key="reference_length",
        values={"max_length": MAX_NAME},
    )


MAX_CONSOLATIONS = 10


@dataclass(frozen=True, slots=True)
class Consolation:
    """A ticket into ``target`` (a step satellite's own step or one below),
    worth ``value`` (that step's entry price), for a place just outside the
    seats."""

    target: str
    value: int

    def __post_init__(self) -> None:
        _reference(self.target, "target")
        count(self.value, "value", 1)


@dataclass(frozen=True, slots=True)
class Satellite:
    """The prize is seats into ``target`` (a reference the service resolves),
    each worth ``target_buy_in`` (the target's buy-in plus fee), at most
    ``seats`` (None: as many as the pool covers); then ``consolation``, the
    tickets of the places just outside the seats (the first place outside
    first), as far as the pool covers them; the rest of the pool is paid in
    cash."""

    target: str
    target_buy_in: int
    seats: int | None = None
    consolation: tuple[Consolation, ...] = ()

    def __post_init__(self) -> None:
        _reference(self.target, "target")
        count(self.target_buy_in, "target_buy_in", 1)
        if self.seats is not None:
            count(self.seats, "seats", 1)
        require(
            isinstance(self.consolation, tuple)
            and len(self.consolation) <= MAX_CONSOLATIONS
            and all(isinstance(c, Consolation) for c in self.consolation),
            "consolation",
            f"at most {MAX_CONSOLATIONS} consolation tickets",
            key="consolation_tickets",
            values={"max_tickets": MAX_CONSOLATIONS},
        )

    def ticket_value(self, target: str) -> int:
        """What a ticket this satellite awards into ``target`` is worth."""
        if target == self.target:
            return self.target_buy_in
        return next(c.value for c in self.consolation if c.target == target)


MAX_PERCENT = 100


@dataclass(frozen=True, slots=True)
class Bounty:
    """A knockout: every entry pays ``amount`` more, which is the head on
    the player; whoever busts him wins it (``bounties``).  ``progressive``
    (a PKO): of the head won, ``paid_now_percent`` is paid at once and the
    rest is added to the winner's own head."""

    amount: int
    progressive: bool = False
    paid_now_percent: int = 50

    def __post_init__(self) -> None:
        count(self.amount, "amount", 1)
        require(type(self.progressive) is bool, "progressive", "true or false", key="true_or_false")
        count(self.paid_now_percent, "paid_now_percent", 0, MAX_PERCENT)


CLOCK_SETTINGS = ("action_seconds", "draw_seconds", "time_bank_seconds", "time_bank_refill_hands")
"""The table clocks a tournament may set for its tables."""


@dataclass(frozen=True, slots=True)
class Clocks:
    """The clocks of the tournament's tables, each None for the table's
    default (``TableConfig``), within the table setting's own bounds: the
    action clock, the draw clock, each player's time bank and how many
    hands it takes to refill.  They are real seconds: a structure's
    ``minute_seconds`` scales the levels and the pause, not a player's
    time to act."""

    action_seconds: int | None = None
    draw_seconds: int | None = None
    time_bank_seconds: int | None = None
    time_bank_refill_hands: int | None = None

    def __post_init__(self) -> None:
        for name in CLOCK_SETTINGS:
            value = getattr(self, name)
            if value is not None:
                bounds = setting(name).bounds
                count(value, name, bounds.low or 0, bounds.high)

    def given(self) -> dict[str, int]:
        """The clocks set, by table setting name."""
        return {n: getattr(self, n) for n in CLOCK_SETTINGS if getattr(self, n) is not None}


@dataclass(frozen=True, slots=True)
class TournamentDefinition:
    """Everything a tournament is set up with."""

    game: Game
    betting: Betting
    structure: Structure
    starting_stack: int
    buy_in: int
    fee: int = 0
    min_players: int = 2
    max_players: int = 1_000
    table_size: int | None = None
    """Seats per table; None: as many as the game allows."""
    late_registration_level: int | None = None
    """Registration stays open through this level (None: closes at the start)."""
    re_entries: int | None = 0
    rebuys: Rebuys | None = None
    satellite: Satellite | None = None
    payouts: PayoutTable | None = None
    """Regular tournaments: None for the defaults."""
    sit_and_go: bool = False
    """Starts as soon as the entries reach ``max_players``."""
    ante_by: AnteBy = AnteBy.ALL
    tie_break: TieBreak = TieBreak.SUIT
    clocks: Clocks = Clocks()
    """The clocks of its tables (each left out: the table default)."""
    bounty: Bounty | None = None
    """A knockout or progressive knockout (None: no bounties)."""
    guarantee: int = 0
    """The least prize pool, the house paying the overlay (0: none)."""
    flight: Flight | None = None
    """A starting flight or the Day 2 of a multi-flight event (None: neither)."""

    def __post_init__(self) -> None:
        require(isinstance(self.game, Game), "game", "not a game", key="not_game")
        require(
            isinstance(self.betting, Betting),
            "betting",
            "not a betting structure",
            key="not_betting",
        )
        require(
            isinstance(self.structure, Structure),
            "structure",
            "not a Structure",
            key="not_structure",
        )
        require(
            isinstance(self.ante_by, AnteBy), "ante_by", "all or big-blind", key="ante_by_choice"
        )
        require(
            isinstance(self.tie_break, TieBreak),
            "tie_break",
            "suit or split",
            key="tie_break_choice",
        )
        require(type(self.sit_and_go) is bool, "sit_and_go", "true or false", key="true_or_false")
        count(self.starting_stack, "starting_stack", 1)
        count(self.buy_in, "buy_in", 0)
        count(self.fee, "fee", 0)
        count(self.guarantee, "guarantee", 0)
        self._check_field()
        levels = len(self.structure.levels)
        if self.late_registration_level is not None:
            count(self.late_registration_level, "late_registration_level", 1, levels)
        if self.re_entries is not None:
            count(self.re_entries, "re_entries", 0)
        require(
            not self.re_entry or self.late_registration_level is not None,
            "re_entries",
            "re-entry needs late registration",
            key="re_entry_needs_late_registration",
        )
        self._check_options(levels)

    def _check_field(self) -> None:
        most = VARIANTS[self.game].max_players
        if self.table_size is not None:
            count(self.table_size, "table_size", 2, most)
        count(self.min_players, "min_players", 2, MAX_ENTRIES)
        count(self.max_players, "max_players", self.min_players, MAX_ENTRIES)
        require(
            self.seats_per_table > 2 or self.max_players <= 2,
            "max_players",
            "tables of two seat at most two players",
            key="heads_up_two_players",
        )

    def _check_options(self, levels: int) -> None:
        if self.rebuys is not None:
            require(isinstance(self.rebuys, Rebuys), "rebuys", "not Rebuys", key="not_rebuys")
            count(self.rebuys.until_level, "rebuys.until_level", 1, levels)
        if self.satellite is not None:
            require(
                isinstance(self.satellite, Satellite),
                "satellite",
                "not a Satellite",
                key="not_satellite",
            )
            require(
                self.payouts is None,
                "payouts",
                "a satellite pays seats, not a table",
                key="satellite_pays_seats",
            )
        if self.payouts is not None:
            require(
                isinstance(self.payouts, PayoutTable),
                "payouts",
                "not a PayoutTable",
                key="not_payout_table",
            )
        require(isinstance(self.clocks, Clocks), "clocks", "not Clocks", key="not_clocks")
        if self.bounty is not None:
            require(isinstance(self.bounty, Bounty), "bounty", "not a Bounty", key="not_bounty")
        if self.flight is not None:
            self._check_flight(self.flight)

    def _check_flight(self, flight: Flight) -> None:
        require(isinstance(flight, Flight), "flight", "not a Flight", key="not_flight")
        require(
            self.satellite is None
            and self.bounty is None
            and not self.guarantee
            and not self.sit_and_go,
            "flight",
            "a multi-flight event has no satellite, bounty, guarantee or sit-and-go",
            key="flight_plain",
        )
        if flight.day_two:
            require(
                self.rebuys is None and self.late_registration_level is None,
                "flight",
                "Day 2 takes no entries, rebuys or add-ons",
                key="day_two_no_entries",
            )

    @property
    def seats_per_table(self) -> int:
        """Seats at each table."""
        size = self.table_size
        return VARIANTS[self.game].max_players if size is None else size

    @property
    def rebuy_decision_seconds(self) -> int:
        """A broke player's time to decide, scaled like every clock of the
        structure by ``minute_seconds``."""
        seconds = DECISION_SECONDS if self.rebuys is None else self.rebuys.decision_seconds
        return max(1, seconds * self.structure.minute_seconds // MINUTE)

    @property
    def over_blind_from(self) -> int | None:
        """Players dealt in from which the game posts an over blind (None: never)."""
        return VARIANTS[self.game].over_blind_from

    @property
    def re_entry(self) -> bool:
        """Busted players may enter again."""
        return self.re_entries != 0

    @property
    def rebuy_threshold(self) -> int:
        """A rebuy is allowed at or below this stack."""
        rebuys = self.rebuys
        if rebuys is None or rebuys.threshold is None:
            return self.starting_stack
        return rebuys.threshold

    @property
    def bounty_amount(self) -> int:
        """The head each entry carries (0: no bounties)."""
        return 0 if self.bounty is None else self.bounty.amount

    @property
    def pool_share(self) -> int:
        """What of one entry the tournament holds: the buy-in (the prize
        pool) and the bounty (the entry's head)."""
        return self.buy_in + self.bounty_amount

    @property
    def entry_price(self) -> int:
        """What one entry costs: the buy-in, the bounty and the fee."""
        return self.pool_share + self.fee

    def rules_at(self, level: int) -> Rules:
        """The hand rules for level ``level`` (from 1)."""
        blinds = self.structure.level(level)
        return Rules(
            self.game,
            self.betting,
            blinds.small_blind,
            blinds.big_blind,
            blinds.ante,
            self.ante_by,
            self.tie_break,
        )
