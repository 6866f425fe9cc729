"""The fold of a table's events: ``evolve_table`` and ``replay_table``.

Events are facts: ``evolve_table`` applies one without judging it (only an
event that cannot apply at all, such as a second ``TableOpened``, is
``Malformed``).  What follows from the rules directly is derived here rather
than recorded: who missed which blind follows from each ``HandBegan`` and the
previous hand's positions (cash tables only: a tournament has no missed
blinds); a timed-out player sits out after ``HandFinished``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import replace
from typing import Any

from poker.engine.errors import Malformed
from poker.engine.events import Blind
from poker.engine.table.events import (
    ButtonDrawn,
    ChipsAdded,
    CloseQueued,
    HandBegan,
    HandFinished,
    LeaveQueued,
    PlayerArrived,
    PlayerLeft,
    PlayerSeated,
    PlayerUnseated,
    SatIn,
    SatOut,
    TableClosed,
    TableEvent,
    TableOpened,
    TimeBankUsed,
    ToppedUp,
    TopUpQueued,
)
from poker.engine.table.ring import after_up_to, strictly_between
from poker.engine.table.state import SeatState, TableState


def evolve_table(state: TableState | None, event: TableEvent) -> TableState:
    """The state after ``event`` (``state`` is None only for ``TableOpened``)."""
    if isinstance(event, TableOpened):
        if state is not None:
            raise Malformed("the table is already open")
        return TableState(config=event.config, version=1)
    if state is None:
        raise Malformed(f"{type(event).__name__} before TableOpened")
    new = _APPLY[type(event)](state, event)
    return replace(new, version=state.version + 1)


def replay_table(events: Iterable[TableEvent]) -> TableState:
    """The fold of ``events`` from nothing."""
    state: TableState | None = None
    for event in events:
        state = evolve_table(state, event)
    if state is None:
        raise Malformed("no events")
    return state


def _with_seat(state: TableState, number: int, **changes: Any) -> TableState:
    seats = dict(state.seats)
    seats[number] = replace(seats[number], **changes)
    return replace(state, seats=seats)


def _seated(state: TableState, e: PlayerSeated) -> TableState:
    seats = dict(state.seats)
    bank = state.config.time_bank_seconds
    seats[e.seat] = SeatState(e.player, e.buy_in, waiting=e.wait_for_big_blind, bank=bank)
    return replace(state, seats=seats)


def _chips_in(state: TableState, e: ToppedUp | ChipsAdded) -> TableState:
    return _with_seat(state, e.seat, stack=state.seats[e.seat].stack + e.amount)


def _top_up_queued(state: TableState, e: TopUpQueued) -> TableState:
    queued = state.seats[e.seat].queued_top_up + e.amount
    return _with_seat(state, e.seat, queued_top_up=queued)


def _sat_out(state: TableState, e: SatOut) -> TableState:
    return _with_seat(state, e.seat, sitting_out=True)


def _sat_in(state: TableState, e: SatIn) -> TableState:
    return _with_seat(state, e.seat, sitting_out=False, waiting=e.wait_for_big_blind)


def _leave_queued(state: TableState, e: LeaveQueued) -> TableState:
    return _with_seat(state, e.seat, leaving=True)


def _left(state: TableState, e: PlayerLeft | PlayerUnseated) -> TableState:
    seats = dict(state.seats)
    del seats[e.seat]
    return replace(state, seats=seats)


def _arrived(state: TableState, e: PlayerArrived) -> TableState:
    seats = dict(state.seats)
    bank = state.config.time_bank_seconds if e.bank is None else e.bank
    seats[e.seat] = SeatState(e.player, e.stack, sitting_out=e.sitting_out, bank=bank)
    return replace(state, seats=seats)


def _button_drawn(state: TableState, e: ButtonDrawn) -> TableState:
    """The table starts over: no last hand's positions, the button drawn."""
    return replace(state, button=e.seat, small=None, big=None, over=None)


def _hand_began(state: TableState, e: HandBegan) -> TableState:
    dealt = set(e.dealt_in)
    # Where the small blind was due: the seat it was posted from, or for a
    # dead small blind the seat of the last big blind.
    small = e.small if e.small is not None else state.big
    seats: dict[int, SeatState] = {}
    refill = state.config.time_bank_refill_hands
    full = state.config.time_bank_seconds
    for number, seat in state.seats.items():
        if refill and e.number % refill == 0 and seat.bank != full:
            seat = replace(seat, bank=full)
        if number in dealt:
            seats[number] = replace(
                seat, in_hand=True, new=False, waiting=False, missed=frozenset()
            )
        elif seat.new or state.config.is_tournament:
            seats[number] = seat
        else:
            missed = seat.missed | _passed(state, e, small, number)
            seats[number] = replace(seat, missed=missed) if missed != seat.missed else seat
    return replace(
        state,
        seats=seats,
        button=e.button,
        small=small,
        big=e.big,
        over=e.over,
        hand_running=True,
        hand_number=e.number,
        hand_seats=e.dealt_in,
        stakes=e.stakes,
    )


def _passed(state: TableState, e: HandBegan, small: int | None, seat: int) -> frozenset[Blind]:
    """The blinds that passed ``seat`` (not dealt in) when hand ``e`` began.

    A blind passes a seat when it moves from its last position over the
    seat: the big blind over the seats strictly between its last and its new
    seat; the small blind over the seats after its last position up to its
    new one (included: a dead small blind is missed by the player sitting
    there); the over blind over the seats between the big and the over
    blind.  Nothing is missed in the table's first hand.
    """
    if state.big is None or state.small is None or small is None:
        return frozenset()
    n = state.config.seats
    passed = set()
    if after_up_to(seat, state.small, small, n):
        passed.add(Blind.SMALL)
    if strictly_between(seat, state.big, e.big, n):
        passed.add(Blind.BIG)
    if e.over is not None and strictly_between(seat, e.big, e.over, n):
        passed.add(Blind.OVER)
    return frozenset(passed)


def _hand_finished(state: TableState, e: HandFinished) -> TableState:
    stacks = {s.seat: s.stack for s in e.stacks}
    timed_out = set(e.timed_out)
    seats: dict[int, SeatState] = {}
    for number, seat in state.seats.items():
        if seat.in_hand or seat.queued_top_up:
            seat = replace(
                seat,
                stack=stacks.get(number, seat.stack),
                in_hand=False,
                queued_top_up=0,
                sitting_out=seat.sitting_out or number in timed_out,
            )
        seats[number] = seat
    return replace(state, seats=seats, hand_running=False, raked=state.raked + e.rake)


def _time_bank_used(state: TableState, e: TimeBankUsed) -> TableState:
    return _with_seat(state, e.seat, bank=max(0, state.seats[e.seat].bank - e.seconds))


def _close_queued(state: TableState, e: CloseQueued) -> TableState:
    return replace(state, closing=True)


def _closed(state: TableState, e: TableClosed) -> TableState:
    return replace(state, closed=True, closing=False)


_APPLY: dict[type[Any], Callable[[TableState, Any], TableState]] = {
    PlayerSeated: _seated,
    ToppedUp: _chips_in,
    TopUpQueued: _top_up_queued,
    SatOut: _sat_out,
    SatIn: _sat_in,
    LeaveQueued: _leave_queued,
    PlayerLeft: _left,
    HandBegan: _hand_began,
    HandFinished: _hand_finished,
    TimeBankUsed: _time_bank_used,
    CloseQueued: _close_queued,
    TableClosed: _closed,
    PlayerArrived: _arrived,
    PlayerUnseated: _left,
    ChipsAdded: _chips_in,
    ButtonDrawn: _button_drawn,
}
