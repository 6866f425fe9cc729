"""``decide_table(state, command) -> events``: the table's write side.

Every command is checked against the state and either answered with the
events it causes or refused with a typed ``EngineError`` (nothing changes):
``malformed`` (no such seat, nonsense values), ``seat_taken``,
``not_seated``, ``bad_amount`` (buy-ins and top-ups out of bounds),
``illegal_action`` (not now) and ``table_closed``.

Table stakes (RULES.md 1): chips only come onto the table between hands or
for a player not in the running hand; a top-up asked for during the hand he
is in is queued and applied when it finishes (at most up to the maximum
buy-in the stack has then).  A player leaving during his hand leaves when
it finishes, with his final stack; a queued top-up of his is dropped.

Tournament tables take ``Seat``, ``Unseat`` and ``AddChips`` instead of
``Sit``, ``TopUp`` and ``Leave`` (``poker.engine.table.tournament``).
"""

from __future__ import annotations

from poker.engine.errors import (
    BadAmount,
    ClosedTable,
    IllegalAction,
    Malformed,
)
from poker.engine.state import HandState
from poker.engine.table.checks import chips, occupied, player_id, seat_free, seat_number
from poker.engine.table.commands import (
    AddChips,
    Close,
    DrawButton,
    FinishHand,
    Leave,
    Seat,
    Sit,
    SitIn,
    SitOut,
    StartHand,
    TableCommand,
    TopUp,
    Unseat,
    UseTimeBank,
)
from poker.engine.table.config import TableConfig
from poker.engine.table.events import (
    CloseQueued,
    HandFinished,
    LeaveQueued,
    PlayerLeft,
    PlayerSeated,
    SatIn,
    SatOut,
    SeatStack,
    TableClosed,
    TableEvent,
    TableOpened,
    TimeBankUsed,
    ToppedUp,
    TopUpQueued,
)
from poker.engine.table.evolve import evolve_table
from poker.engine.table.plan import began, plan_hand
from poker.engine.table.state import TableState
from poker.engine.table.tournament import decide_tournament, leaving


def open_table(config: TableConfig) -> list[TableEvent]:
    """The first event of a table's stream (``config`` validated itself)."""
    if not isinstance(config, TableConfig):
        raise Malformed("a table needs a TableConfig")
    return [TableOpened(config)]


def decide_table(state: TableState, command: TableCommand) -> list[TableEvent]:
    """The events ``command`` causes; raises an ``EngineError`` if refused."""
    if state.closed:
        raise ClosedTable("the table is closed")
    if state.closing and isinstance(command, Sit | SitIn | TopUp | Seat | AddChips):
        raise ClosedTable("the table is closing")
    if state.config.is_tournament and isinstance(command, Sit | TopUp | Leave):
        raise IllegalAction("tournament chips come and go only with the tournament")
    if isinstance(command, Seat | Unseat | AddChips | DrawButton):
        return decide_tournament(state, command)
    if isinstance(command, Sit):
        return _sit(state, command)
    if isinstance(command, TopUp):
        return _top_up(state, command)
    if isinstance(command, SitOut):
        seat = occupied(state, command.seat)
        if seat.sitting_out:
            raise IllegalAction("{0} is already sitting out", players=[seat.player])
        return [SatOut(command.seat)]
    if isinstance(command, SitIn):
        return _sit_in(state, command)
    if isinstance(command, Leave):
        return _leave(state, command)
    if isinstance(command, Close):
        if state.closing:
            raise IllegalAction("the table is already closing")
        if state.hand_running:
            return [CloseQueued()]
        left = [leaving(state, n, s.stack) for n, s in sorted(state.seats.items())]
        return [*left, TableClosed()]
    if isinstance(command, StartHand):
        return _start_hand(state, command)
    if isinstance(command, FinishHand):
        return _finish(state, command)
    if isinstance(command, UseTimeBank):
        return _use_time_bank(state, command)
    raise Malformed(f"unknown command {command!r}")


def play_table(state: TableState, command: TableCommand) -> tuple[TableState, list[TableEvent]]:
    """``decide_table`` plus the state after its events."""
    events = decide_table(state, command)
    for event in events:
        state = evolve_table(state, event)
    return state, events


def hand_result(state: TableState, hand: HandState) -> FinishHand:
    """``FinishHand`` for the running hand from the hand engine's final
    state alone (so settling a hand reads nothing of its past): final
    stacks by seat, and the seats whose action clock ran out
    (``Player.timed_out``: a timed-out check or fold; a draw clock running
    out only stands the player pat and does not sit him out)."""
    seats = state.hand_seats
    if len(seats) != len(hand.players):
        raise Malformed("the hand does not match the table's running hand")
    dealt = list(zip(seats, hand.players, strict=True))
    return FinishHand(
        {seat: p.stack for seat, p in dealt},
        tuple(sorted(seat for seat, p in dealt if p.timed_out)),
        hand.raked,
    )


def _start_hand(state: TableState, command: StartHand) -> list[TableEvent]:
    if state.hand_running:
        raise IllegalAction("a hand is running")
    rules = command.rules
    if not state.config.is_tournament and rules not in (None, state.config.rules):
        raise IllegalAction("a cash table deals its own rules")
    plan = plan_hand(state, rules)
    if plan is None:
        raise IllegalAction("fewer than two players are ready")
    return [began(plan, state.hand_number + 1)]


def _use_time_bank(state: TableState, command: UseTimeBank) -> list[TableEvent]:
    seat = occupied(state, command.seat)
    seconds = command.seconds
    if type(seconds) is not int or not 1 <= seconds <= seat.bank:
        raise BadAmount(
            f"{{0}} has {seat.bank} seconds in his time bank",
            players=[seat.player],
            values={"time_bank": seat.bank},
        )
    return [TimeBankUsed(command.seat, seconds)]


def _sit(state: TableState, command: Sit) -> list[TableEvent]:
    config = state.config
    number = seat_number(state, command.seat)
    player_id(command.player)
    if type(command.wait_for_big_blind) is not bool:
        raise Malformed("wait_for_big_blind is true or false")
    seat_free(state, number, command.player)
    buy_in = chips(command.buy_in, "a buy-in")
    high = config.max_buy_in
    if buy_in < config.min_buy_in or (high is not None and buy_in > high):
        bounds = {"min_buy_in": config.min_buy_in} | ({} if high is None else {"max_buy_in": high})
        raise BadAmount(f"the buy-in must be {config.buy_in_bounds()}, not {buy_in}", values=bounds)
    return [PlayerSeated(number, command.player, buy_in, command.wait_for_big_blind)]


def _top_up(state: TableState, command: TopUp) -> list[TableEvent]:
    seat = occupied(state, command.seat)
    amount = chips(command.amount, "a top-up")
    if seat.leaving:
        raise IllegalAction("{0} is leaving", players=[seat.player])
    high = state.config.max_buy_in
    if high is not None and seat.stack + seat.queued_top_up + amount > high:
        room = max(0, high - seat.stack - seat.queued_top_up)
        raise BadAmount(
            f"a stack may hold at most {high}: top up by at most {room}",
            values={"max_stack": high, "max_top_up": room},
        )
    if state.hand_running and seat.in_hand:
        return [TopUpQueued(command.seat, amount)]
    return [ToppedUp(command.seat, amount)]


def _sit_in(state: TableState, command: SitIn) -> list[TableEvent]:
    seat = occupied(state, command.seat)
    if type(command.wait_for_big_blind) is not bool:
        raise Malformed("wait_for_big_blind is true or false")
    if seat.leaving:
        raise IllegalAction("{0} is leaving", players=[seat.player])
    if command.wait_for_big_blind and state.config.is_tournament:
        raise IllegalAction("nobody waits for the big blind in a tournament")
    if not seat.sitting_out and seat.waiting == command.wait_for_big_blind:
        raise IllegalAction("{0} is already sitting in", players=[seat.player])
    return [SatIn(command.seat, command.wait_for_big_blind)]


def _leave(state: TableState, command: Leave) -> list[TableEvent]:
    seat = occupied(state, command.seat)
    if seat.leaving:
        raise IllegalAction("{0} is already leaving", players=[seat.player])
    if state.hand_running and seat.in_hand:
        return [LeaveQueued(command.seat)]
    return [PlayerLeft(command.seat, seat.stack)]


def _finish(state: TableState, command: FinishHand) -> list[TableEvent]:
    if not state.hand_running:
        raise IllegalAction("no hand is running")
    dealt = set(state.hand_seats)
    stacks = dict(command.stacks)
    if set(stacks) != dealt:
        raise Malformed(f"give the final stack of exactly the seats dealt in: {sorted(dealt)}")
    if any(type(v) is not int or v < 0 for v in stacks.values()):
        raise Malformed("final stacks are whole numbers, not negative")
    rake = command.rake
    if type(rake) is not int or rake < 0:
        raise Malformed("the rake is a whole number of chips, not negative")
    if rake and state.config.rake is None:
        raise Malformed("this table takes no rake")
    before = sum(state.seats[n].stack for n in dealt)
    after = sum(stacks.values()) + rake
    if after != before:
        raise Malformed(f"the hand must conserve chips: {before} in, {after} out with the rake")
    timed_out = tuple(sorted(set(command.timed_out)))
    if not set(timed_out) <= dealt:
        raise Malformed("only seats dealt in can time out")
    events: list[TableEvent] = [
        HandFinished(
            state.hand_number,
            tuple(SeatStack(n, stacks[n]) for n in sorted(dealt)),
            timed_out,
            rake,
        )
    ]
    if state.closing:
        for number, seat in sorted(state.seats.items()):
            events.append(leaving(state, number, stacks.get(number, seat.stack)))
        return [*events, TableClosed()]
    high = state.config.max_buy_in
    for number, seat in sorted(state.seats.items()):
        final = stacks.get(number, seat.stack)
        if seat.leaving and number in dealt:
            events.append(PlayerLeft(number, final))
        elif seat.queued_top_up:
            room = seat.queued_top_up if high is None else max(0, high - final)
            if amount := min(seat.queued_top_up, room):
                events.append(ToppedUp(number, amount))
    return events
