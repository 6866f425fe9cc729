"""A casino table between rounds: boxes, bets, and which round runs.

The round itself is ``casino.decide`` / ``casino.evolve``; this is the
table around it, event-sourced the same way (``decide_table`` /
``evolve_table``, ``play_table``, ``replay_table``):

- a player takes an empty box (``Sit``); there is no buy-in: what a round
  stakes comes from his wallet when he bets and goes back when it ends;
- between rounds each seated player may bet his original bet B
  (``Bet``), within the table's bounds.  The bet holds ``held`` chips for
  the round: enough for every stake it may make (``round_cover``: BONUS,
  two exchanges and the BET), or all he has if less (at least B).  The
  first bet of a round opens the betting window; the round is dealt to
  every box with a bet when every seated player who is not sitting out
  has bet (``ready``), or when the window closes (the service's clock);
- ``StartRound`` deals the boxes with bets, in box order; ``FinishRound``
  settles them with what each staked and won: the seat's bet is spent,
  and a player who asked to leave during it leaves then;
- ``SitOut`` / ``SitIn`` and ``Leave`` take effect at once between rounds
  (a bet placed is withdrawn and its chips go back), and at the end of the
  round for a player dealt in it;
- ``Close`` closes the table at once between rounds, or when the round
  ends.

Room's choices (RULES.md 5 says nothing of the table around a round): the
window opens with the first bet, so an empty or idle table runs no clock;
a bet may not change once placed (withdraw it by sitting out).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any, Union

from poker.engine.casino.decide import PAY_TABLE_SETTINGS, RULE_SETTINGS
from poker.engine.casino.rules import MAX_BOXES, CasinoRules
from poker.engine.casino.settle import largest_win
from poker.engine.codec import from_typed_json, registry, to_typed_json
from poker.engine.errors import (
    BadAmount,
    ClosedTable,
    IllegalAction,
    Malformed,
    NotSeated,
    SeatTaken,
)
from poker.engine.settings import bounded, check_all, settings_of

ROUND_COVER = 9
"""The most a box stakes in a round, in original bets: BONUS (1), two
exchanges (1 each), and BET at twice the ANTE of 3."""


def round_cover(original: int) -> int:
    """The most a box staking ``original`` may stake in one round."""
    return ROUND_COVER * original


def exposure(original: int, rules: CasinoRules) -> int:
    """The most the house can lose on one box staking ``original`` at a
    table with ``rules``: the game math's largest win of a round
    (``largest_win``)."""
    return largest_win(original, rules.jokers, rules.pay_table)


# --------------------------------------------------------------------------
# Configuration


@dataclass(frozen=True, slots=True)
class CasinoTableConfig:
    """What staff choose when opening a casino table (bounds in each
    field's metadata, ``poker.engine.settings``)."""

    name: str = field(metadata=bounded(1, 64))
    rules: CasinoRules = field(default_factory=CasinoRules)
    min_bet: int = field(default=10, metadata=bounded(1, chips=True))
    """The least original bet B."""
    max_bet: int = field(default=100, metadata=bounded(1, chips=True))
    """The most original bet B."""
    boxes: int = field(default=MAX_BOXES, metadata=bounded(1, MAX_BOXES))
    """Boxes at the table, one player each (RULES.md 5: one to four)."""
    bet_seconds: int = field(default=20, metadata=bounded(1, 600))
    """The betting window, from the first bet of a round."""
    decision_seconds: int = field(default=20, metadata=bounded(1, 600))
    """Each box's clock in an exchange or the decision."""

    def check(self) -> None:
        """Refuse a configuration out of its bounds (``Malformed``)."""
        check_all(self, CONFIG_SETTINGS)
        check_all(self.rules, RULE_SETTINGS)
        check_all(self.rules.pay_table, PAY_TABLE_SETTINGS)
        if self.max_bet < self.min_bet:
            raise Malformed("the most original bet is less than the least")


CONFIG_SETTINGS = settings_of(CasinoTableConfig, skip=("rules",))
"""The casino table's own settings (the rules' are ``RULE_SETTINGS`` and
``PAY_TABLE_SETTINGS``)."""


# --------------------------------------------------------------------------
# Events


@dataclass(frozen=True, slots=True)
class TableOpened:
    """The table opened with ``config``."""

    config: CasinoTableConfig


@dataclass(frozen=True, slots=True)
class PlayerSat:
    """``player`` took box ``box`` (0-based)."""

    box: int
    player: str


@dataclass(frozen=True, slots=True)
class BetPlaced:
    """The box bet ``amount`` (B) on the next round; ``held`` chips left
    the player's wallet for the round."""

    box: int
    amount: int
    held: int


@dataclass(frozen=True, slots=True)
class BetWithdrawn:
    """The box's bet was taken back before the deal: ``held`` chips went
    back to the wallet."""

    box: int
    held: int


@dataclass(frozen=True, slots=True)
class PlayerSatOut:
    """The box takes no part in rounds until it sits in."""

    box: int


@dataclass(frozen=True, slots=True)
class PlayerSatIn:
    """The box may bet again."""

    box: int


@dataclass(frozen=True, slots=True)
class LeaveQueued:
    """The player leaves when the round he is dealt in ends."""

    box: int


@dataclass(frozen=True, slots=True)
class PlayerLeft:
    """The box is empty again."""

    box: int


@dataclass(frozen=True, slots=True)
class RoundDealt:
    """Round ``number`` was dealt to ``boxes`` (box numbers, in order: the
    round's box 0 is ``boxes[0]``)."""

    number: int
    boxes: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class BoxPaid:
    """One box's round in money: of the ``held`` chips it ``staked`` some
    and ``won`` came back; the wallet gets ``held - staked + won``."""

    box: int
    player: str
    held: int
    staked: int
    won: int


@dataclass(frozen=True, slots=True)
class RoundFinished:
    """Round ``number`` is settled, each box as ``paid`` says."""

    number: int
    paid: tuple[BoxPaid, ...]


@dataclass(frozen=True, slots=True)
class TableClosing:
    """The table closes when the running round ends."""


@dataclass(frozen=True, slots=True)
class TableClosed:
    """The table takes no more commands."""


CasinoTableEvent = Union[  # noqa: UP007 - typing.get_args lists the members
    TableOpened,
    PlayerSat,
    BetPlaced,
    BetWithdrawn,
    PlayerSatOut,
    PlayerSatIn,
    LeaveQueued,
    PlayerLeft,
    RoundDealt,
    RoundFinished,
    TableClosing,
    TableClosed,
]

CASINO_TABLE_EVENT_TYPES: dict[str, type[Any]] = registry(
    CasinoTableEvent,
    {
        "casino_table.opened": TableOpened,
        "casino_table.player_sat": PlayerSat,
        "casino_table.bet_placed": BetPlaced,
        "casino_table.bet_withdrawn": BetWithdrawn,
        "casino_table.player_sat_out": PlayerSatOut,
        "casino_table.player_sat_in": PlayerSatIn,
        "casino_table.leave_queued": LeaveQueued,
        "casino_table.player_left": PlayerLeft,
        "casino_table.round_dealt": RoundDealt,
        "casino_table.round_finished": RoundFinished,
        "casino_table.closing": TableClosing,
        "casino_table.closed": TableClosed,
    },
)
"""Every casino table event by its stored name, fixed once written."""


def table_event_to_json(event: CasinoTableEvent) -> dict[str, Any]:
    """The event as JSON-ready data with its stored name under ``"type"``."""
    return to_typed_json(event, CASINO_TABLE_EVENT_TYPES)


def table_event_from_json(data: dict[str, Any]) -> CasinoTableEvent:
    """The event ``table_event_to_json`` made; ``Malformed`` for anything else."""
    event: CasinoTableEvent = from_typed_json(CASINO_TABLE_EVENT_TYPES, data, "casino table event")
    return event


# --------------------------------------------------------------------------
# State


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


# --------------------------------------------------------------------------
# Commands


@dataclass(frozen=True, slots=True)
class Sit:
    box: int
    player: str


@dataclass(frozen=True, slots=True)
class Bet:
    """Bet ``amount`` on the next round; ``held``: what the wallet gives the
    round (the service reads the wallet: the engine knows no money)."""

    box: int
    amount: int
    held: int


@dataclass(frozen=True, slots=True)
class SitOut:
    box: int


@dataclass(frozen=True, slots=True)
class SitIn:
    box: int


@dataclass(frozen=True, slots=True)
class Leave:
    box: int


@dataclass(frozen=True, slots=True)
class Close:
    pass


@dataclass(frozen=True, slots=True)
class StartRound:
    """Deal the boxes with bets."""


@dataclass(frozen=True, slots=True)
class FinishRound:
    """The running round is settled: ``paid`` each box, in round order."""

    paid: tuple[BoxPaid, ...]


TableCommand = Sit | Bet | SitOut | SitIn | Leave | Close | StartRound | FinishRound


# --------------------------------------------------------------------------
# Decide and evolve


def open_table(config: CasinoTableConfig) -> list[CasinoTableEvent]:
    """The opening event of a table (``Malformed`` for a bad configuration)."""
    config.check()
    return [TableOpened(config)]


def decide_table(state: CasinoTableState, command: TableCommand) -> list[CasinoTableEvent]:
    """The events ``command`` causes; raises an ``EngineError`` if illegal."""
    if state.closed:
        raise ClosedTable("the table is closed")
    if isinstance(command, StartRound | FinishRound):
        return _round(state, command)
    if isinstance(command, Close):
        return _close(state)
    if isinstance(command, Sit):
        return _sit(state, command)
    seat = state.seats.get(command.box)
    if seat is None:
        raise NotSeated(f"nobody sits in box {command.box + 1}")
    in_round = command.box in state.round_boxes
    if isinstance(command, Bet):
        return _bet(state, command, seat)
    if isinstance(command, SitOut):
        if seat.sitting_out:
            raise IllegalAction("you sit out already")
        withdrawn = [BetWithdrawn(command.box, seat.held)] if seat.bet and not in_round else []
        return [*withdrawn, PlayerSatOut(command.box)]
    if isinstance(command, SitIn):
        if not seat.sitting_out:
            raise IllegalAction("you do not sit out")
        return [PlayerSatIn(command.box)]
    if in_round:
        if seat.leaving:
            raise IllegalAction("you leave when the round ends already")
        return [LeaveQueued(command.box)]
    withdrawn = [BetWithdrawn(command.box, seat.held)] if seat.bet else []
    return [*withdrawn, PlayerLeft(command.box)]


def _sit(state: CasinoTableState, command: Sit) -> list[CasinoTableEvent]:
    if state.closing:
        raise ClosedTable("the table is closing")
    if type(command.box) is not int or not 0 <= command.box < state.config.boxes:
        raise Malformed(f"the table has boxes 1 to {state.config.boxes}")
    if command.box in state.seats:
        raise SeatTaken(f"box {command.box + 1} is taken")
    if state.box_of(command.player) is not None:
        raise SeatTaken("you sit at this table already")
    return [PlayerSat(command.box, command.player)]


def _bet(state: CasinoTableState, command: Bet, seat: CasinoSeat) -> list[CasinoTableEvent]:
    config = state.config
    if state.closing:
        raise ClosedTable("the table is closing")
    if state.round_running:
        raise IllegalAction("a round is being played: bet on the next one when it ends")
    if seat.sitting_out:
        raise IllegalAction("you sit out: sit in to bet")
    if seat.bet:
        raise IllegalAction("you have bet on this round already")
    amount = command.amount
    if type(amount) is not int or not config.min_bet <= amount <= config.max_bet:
        raise BadAmount(f"bet {config.min_bet} to {config.max_bet}")
    if type(command.held) is not int or not amount <= command.held <= round_cover(amount):
        raise BadAmount(
            f"the round holds {amount} to {round_cover(amount)} chips for a bet of {amount}"
        )
    return [BetPlaced(command.box, amount, command.held)]


def _close(state: CasinoTableState) -> list[CasinoTableEvent]:
    if state.closing:
        raise IllegalAction("the table is closing already")
    if state.round_running:
        return [TableClosing()]
    return [*_everyone_leaves(state, state.seats), TableClosed()]


def _everyone_leaves(
    state: CasinoTableState, seats: Mapping[int, CasinoSeat]
) -> list[CasinoTableEvent]:
    events: list[CasinoTableEvent] = []
    for box, seat in sorted(seats.items()):
        if seat.bet and not state.round_running:
            events.append(BetWithdrawn(box, seat.held))
        events.append(PlayerLeft(box))
    return events


def _round(state: CasinoTableState, command: StartRound | FinishRound) -> list[CasinoTableEvent]:
    if isinstance(command, StartRound):
        if state.round_running or not state.bets:
            raise IllegalAction("no round to deal")
        return [RoundDealt(state.round_number + 1, tuple(state.bets))]
    if not state.round_running:
        raise IllegalAction("no round is running")
    if tuple(p.box for p in command.paid) != state.round_boxes:
        raise Malformed("settle every box of the round, in order")
    events: list[CasinoTableEvent] = [RoundFinished(state.round_number, command.paid)]
    after = evolve_all(state, events)
    if state.closing:
        return [*events, *_everyone_leaves(after, after.seats), TableClosed()]
    leaving = {n: s for n, s in after.seats.items() if s.leaving}
    return [*events, *(PlayerLeft(n) for n in sorted(leaving))]


def evolve_table(state: CasinoTableState | None, event: CasinoTableEvent) -> CasinoTableState:
    """The state after ``event`` (``state`` None: the opening event)."""
    if state is None:
        if not isinstance(event, TableOpened):
            raise Malformed("a casino table stream starts with casino_table.opened")
        return CasinoTableState(event.config, version=1)
    seats = dict(state.seats)
    changes: dict[str, Any] = {}
    if isinstance(event, PlayerSat):
        seats[event.box] = CasinoSeat(event.player)
    elif isinstance(event, BetPlaced):
        seats[event.box] = replace(seats[event.box], bet=event.amount, held=event.held)
    elif isinstance(event, BetWithdrawn):
        seats[event.box] = replace(seats[event.box], bet=0, held=0)
    elif isinstance(event, PlayerSatOut | PlayerSatIn):
        out = isinstance(event, PlayerSatOut)
        seats[event.box] = replace(seats[event.box], sitting_out=out)
    elif isinstance(event, LeaveQueued):
        seats[event.box] = replace(seats[event.box], leaving=True)
    elif isinstance(event, PlayerLeft):
        del seats[event.box]
    elif isinstance(event, RoundDealt):
        changes = {"round_number": event.number, "round_boxes": event.boxes}
    elif isinstance(event, RoundFinished):
        for paid in event.paid:
            seats[paid.box] = replace(seats[paid.box], bet=0, held=0)
        changes = {"round_boxes": ()}
    elif isinstance(event, TableClosing):
        changes = {"closing": True}
    elif isinstance(event, TableClosed):
        changes = {"closed": True, "closing": False}
    else:
        raise Malformed(f"unknown casino table event {event!r}")
    return replace(state, seats=seats, version=state.version + 1, **changes)


def evolve_all(state: CasinoTableState, events: Iterable[CasinoTableEvent]) -> CasinoTableState:
    for event in events:
        state = evolve_table(state, event)
    return state


def play_table(
    state: CasinoTableState, command: TableCommand
) -> tuple[CasinoTableState, list[CasinoTableEvent]]:
    """``decide_table`` plus the state after its events."""
    events = decide_table(state, command)
    return evolve_all(state, events), events


def replay_table(events: Iterable[CasinoTableEvent]) -> CasinoTableState:
    """The state a whole stream folds to."""
    state: CasinoTableState | None = None
    for event in events:
        state = evolve_table(state, event)
    if state is None:
        raise Malformed("an empty casino table stream")
    return state
