"""``decide_table(state, command) -> events``: the casino table's write side.

Every command is checked against the state and either answered with the
events it causes or refused with a typed ``EngineError`` (nothing changes):
``malformed`` (no such box, a settlement that is not the round's),
``seat_taken``, ``not_seated``, ``bad_amount`` (a bet or its cover out of
bounds), ``illegal_action`` (not now) and ``table_closed``.

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

from collections.abc import Mapping

from poker.engine.casino.table.commands import (
    Bet,
    Close,
    FinishRound,
    Sit,
    SitIn,
    SitOut,
    StartRound,
    TableCommand,
)
from poker.engine.casino.table.config import CasinoTableConfig
from poker.engine.casino.table.cover import round_cover
from poker.engine.casino.table.events import (
    BetPlaced,
    BetWithdrawn,
    CasinoTableEvent,
    LeaveQueued,
    PlayerLeft,
    PlayerSat,
    PlayerSatIn,
    PlayerSatOut,
    RoundDealt,
    RoundFinished,
    TableClosed,
    TableClosing,
    TableOpened,
)
from poker.engine.casino.table.evolve import evolve_all
from poker.engine.casino.table.state import CasinoSeat, CasinoTableState
from poker.engine.errors import (
    BadAmount,
    ClosedTable,
    IllegalAction,
    Malformed,
    NotSeated,
    SeatTaken,
)


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
        raise NotSeated(f"nobody sits in box {command.box + 1}", values={"box": command.box + 1})
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
        raise SeatTaken(f"box {command.box + 1} is taken", values={"box": command.box + 1})
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
        raise BadAmount(
            f"bet {config.min_bet} to {config.max_bet}",
            values={"min_bet": config.min_bet, "max_bet": config.max_bet},
        )
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


def play_table(
    state: CasinoTableState, command: TableCommand
) -> tuple[CasinoTableState, list[CasinoTableEvent]]:
    """``decide_table`` plus the state after its events."""
    events = decide_table(state, command)
    return evolve_all(state, events), events
