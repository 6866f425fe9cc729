"""Tournament tables: what only the tournament may ask of a table.

A tournament table runs on the same rules as a cash table (the button,
the blinds, the clocks, ``plan_hand``) with these differences (RULES.md 6;
TDA where it is silent):

- Chips are the tournament's: no buy-ins, top-ups or cashing out.  A
  player arrives with ``Seat`` (a new entry, or moved in with the stack he
  left another table with) and goes only with ``Unseat`` (moved on, busted
  or disqualified), never during a hand he is in: the tournament moves
  players between hands and queues a disqualification until the hand ends.
  Rebuys and the add-on are ``AddChips``, also never during his hand.
  ``Sit``, ``TopUp`` and ``Leave`` are refused.  A moved player keeps
  his seat's status: away or not, and what is left of his time bank.
- A player who loses his chips stays in his seat with none, never dealt
  in, until the tournament rebuys him (``AddChips``) or takes him out
  (``Unseat`` busted): it alone knows whether he may still rebuy, and its
  seating keeps his seat his meanwhile.
- Sitting out does not deal a player out: everyone with chips is dealt in
  and blinded off (``TableState.away``); no missed blinds, no posts, no
  waiting for the big blind.
- Hands are dealt only when the tournament says so, each at the level it
  gives (``StartHand(rules)``; ``TableConfig.deals_by_itself`` is False).
- Closing unseats everyone with his stack (``PlayerUnseated``, closed).
- A table whose seats the tournament drew afresh (the final table) starts
  over: ``DrawButton`` puts the button on the drawn seat and the next hand
  is dealt as a table's first (TDA: button by draw; the blinds on the next
  players, live -- no dead button or small blind carried over from the
  seating before the draw).
"""

from __future__ import annotations

from poker.engine.errors import IllegalAction, Malformed
from poker.engine.table.checks import chips, occupied, player_id, seat_free, seat_number
from poker.engine.table.commands import AddChips, DrawButton, Seat, Unseat
from poker.engine.table.events import (
    ButtonDrawn,
    ChipsAdded,
    PlayerArrived,
    PlayerLeft,
    PlayerUnseated,
    TableEvent,
    UnseatReason,
)
from poker.engine.table.state import TableState

TournamentCommand = Seat | Unseat | AddChips | DrawButton


def decide_tournament(state: TableState, command: TournamentCommand) -> list[TableEvent]:
    """The events of a tournament-only command; refused at a cash table."""
    if not state.config.is_tournament:
        raise IllegalAction("only a tournament table seats and unseats players")
    if isinstance(command, Seat):
        return _seat(state, command)
    if isinstance(command, Unseat):
        return _unseat(state, command)
    if isinstance(command, DrawButton):
        return _draw_button(state, command)
    return _add_chips(state, command)


def leaving(state: TableState, seat: int, stack: int) -> TableEvent:
    """The player in ``seat`` leaves as the table closes: he cashes ``stack``
    out at a cash table, is unseated with it at a tournament table."""
    if state.config.is_tournament:
        return PlayerUnseated(seat, stack, UnseatReason.CLOSED)
    return PlayerLeft(seat, stack)


def _seat(state: TableState, command: Seat) -> list[TableEvent]:
    number = seat_number(state, command.seat)
    player = player_id(command.player)
    seat_free(state, number, player)
    stack, bank = command.stack, command.bank
    if type(stack) is not int or stack < 0:
        raise Malformed("a stack is a whole number of chips, not negative")
    if type(command.away) is not bool:
        raise Malformed("away is true or false")
    if bank is not None and (type(bank) is not int or bank < 0):
        raise Malformed("a time bank is a whole number of seconds, not negative")
    return [PlayerArrived(number, player, stack, command.away, bank)]


def _unseat(state: TableState, command: Unseat) -> list[TableEvent]:
    seat = occupied(state, command.seat)
    reason = command.reason
    if not isinstance(reason, UnseatReason) or reason is UnseatReason.CLOSED:
        raise Malformed("a player is unseated when moved, busted or disqualified")
    if state.hand_running and seat.in_hand:
        raise IllegalAction("{0} is in the hand: unseat him when it ends", players=[seat.player])
    if reason is UnseatReason.BUSTED and seat.stack:
        raise IllegalAction(f"{{0}} still has {seat.stack} chips", players=[seat.player])
    return [PlayerUnseated(command.seat, seat.stack, reason)]


def _add_chips(state: TableState, command: AddChips) -> list[TableEvent]:
    seat = occupied(state, command.seat)
    amount = chips(command.amount, "added chips")
    if state.hand_running and seat.in_hand:
        raise IllegalAction("no chips for {0} during a hand he is in", players=[seat.player])
    return [ChipsAdded(command.seat, amount)]


def _draw_button(state: TableState, command: DrawButton) -> list[TableEvent]:
    occupied(state, command.seat)
    if state.hand_running:
        raise IllegalAction("the button is drawn between hands")
    return [ButtonDrawn(command.seat)]
