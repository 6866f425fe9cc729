"""The table clocks at work: judging actions by the clock, setting clocks,
and acting when one comes due.

The clocks themselves are pure (``engine.table.clock``): the player to act
is on the clock from the time of the hand's last event.  Here that meets
real time:

- ``charge``: an action made now is refused after the 32 Card Draw bet
  window, and the time bank it ate into is taken off the player's bank.
- ``schedule``: a command that leaves a clock running writes it as data
  (``kernel.clocks``), in its own transaction: the turn's clock on the
  hand's stream at its version, or the pause on the table's stream at its
  hand number.
- ``clock_expire``: what a due clock does (``due``, the kernel's
  ``clock_due`` receiver for ``KINDS``): act for the player (``TimeOut``)
  or deal the next hand, but only if the stream is still at that version.
  A clock can never act twice, or on a hand that has moved on: a clock
  moved since finds another version and does nothing, and a repeat that
  races the first collides with its command id.
"""

from __future__ import annotations

import uuid
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from django.db.models import Exists

from kernel import clocks as kernel_clocks
from kernel.clocks import check_due, moment, stamp
from kernel.errors import ClockMoved
from kernel.models import Clock as KernelClock
from kernel.models import Command as CommandRow
from kernel.system_ids import command_id_for
from poker.engine.commands import Action, TimeOut
from poker.engine.state import HandState
from poker.engine.table import TableState, UseTimeBank, plan_hand
from poker.engine.table.clock import (
    Clock,
    bank_used,
    check_bet_window,
    next_hand_clock,
    turn_clock,
)
from poker.models import Hand, Table

if TYPE_CHECKING:
    from poker.work import Work

# --------------------------------------------------------------------------
# The clock now


def running(work: Work) -> Clock | None:
    """The clock of the player to act in ``work``'s hand, if any."""
    hand = work.hand
    if hand is None or hand.state.complete:
        return None
    started = work.now if hand.events and hand.turn_moved else _turn_started(hand.row)
    return turn_clock(work.table_state, hand.state, stamp(started))


def _turn_started(row: Hand) -> datetime:
    return row.turn_started_at or row.started_at


def work_clock(work: Work) -> Clock | None:
    """The clock running once ``work``'s command is done."""
    turn = running(work)
    if turn is not None or work.table_state.hand_running:
        return turn
    return _pause(work.table_state, work.pause_ends())


def work_clock_json(work: Work) -> dict[str, Any] | None:
    """``as_json(work_clock(work))``, worked out once for the states the
    command has reached (its answer, its receipt and its frames all show
    it; a copy each, as they may change theirs)."""
    hand = work.hand
    key = (work.table_state, None if hand is None else hand.state, work.finished, work.now)
    kept = work.clock_shown
    if kept is None or any(a is not b for a, b in zip(kept[0], key, strict=True)):
        kept = work.clock_shown = (key, as_json(work_clock(work)))
    return None if kept[1] is None else dict(kept[1])


def table_clock(
    table: Table, state: TableState, hand: tuple[Hand, HandState, int] | None
) -> Clock | None:
    """The clock running at a table as its read models say (``hand``: the
    latest hand's row, state and the version shown)."""
    if hand is not None and not hand[1].complete:
        row, hand_state, _ = hand
        return turn_clock(state, hand_state, stamp(_turn_started(row)))
    if state.hand_running:
        return None
    return _pause(state, table.next_hand_at)


def clock_between(
    table: TableState, hand: tuple[HandState, datetime] | None, finished: datetime | None
) -> Clock | None:
    """The clock given the table, its latest hand with the time of that
    hand's last event, and when the last hand finished."""
    if hand is not None and not hand[0].complete:
        return turn_clock(table, hand[0], stamp(hand[1]))
    if table.hand_running or finished is None:
        return None
    return _pause(table, finished + timedelta(seconds=table.config.pause_seconds))


def _pause(state: TableState, due: datetime | None) -> Clock | None:
    """The pause clock ending at ``due``, if a hand will be dealt then."""
    if due is None or state.closed or state.closing or not state.config.deals_by_itself:
        return None
    if plan_hand(state) is None:
        return None
    finished = stamp(due) - state.config.pause_seconds
    return next_hand_clock(state, finished)


def as_json(clock: Clock | None) -> dict[str, Any] | None:
    """A clock as clients see it (ISO 8601 times, UTC)."""
    if clock is None:
        return None
    times = ("started", "deadline", "expires", "bet_until")
    out: dict[str, Any] = {"kind": clock.kind.value, "seat": clock.seat}
    for name in times:
        value = getattr(clock, name)
        out[name] = None if value is None else moment(value).isoformat()
    return out


def bet_until(clock: dict[str, Any] | None) -> float | None:
    """When the bet window of a clock as clients see it (``as_json``)
    closes; None: no window running."""
    if clock is None or clock["bet_until"] is None:
        return None
    return stamp(datetime.fromisoformat(clock["bet_until"]))


def charge(work: Work, seat: int, action: Action) -> None:
    """Judge an action made now by the clock: refuse a late bet or raise,
    and take the time bank it used off the player's bank."""
    clock = running(work)
    if clock is None or clock.seat != seat:
        return
    check_bet_window(clock, action, stamp(work.now))
    _use_bank(work, clock)


def _use_bank(work: Work, clock: Clock) -> None:
    """Take off the player's bank what acting now used of it."""
    used = bank_used(clock, stamp(work.now))
    if used and clock.seat is not None:
        work.table_do(UseTimeBank(clock.seat, used))


# --------------------------------------------------------------------------
# Timers


def timer_for(work: Work) -> kernel_clocks.Timer | None:
    """(stream, version, when) of the clock a command's new state needs:
    the new turn's clock, or the pause before the next hand (after a hand
    that just finished, or a table moved during its pause: a player who
    sits in may be what lets it deal)."""
    hand = work.hand
    if hand is not None and hand.events and not hand.state.complete:
        clock = running(work)
        if clock is not None:
            return hand.row.stream, hand.start + len(hand.events), moment(clock.expires)
    table = work.table_state
    if not table.config.deals_by_itself:
        return None  # its tournament deals the next hand
    if not (work.finished or work.table_events) or table.hand_running:
        return None  # the table did not move: its clock stands as it was set
    due = work.pause_ends()
    if due is not None and plan_hand(table) is not None:
        return work.table.stream, table.hand_number, due  # even with no pause: one hand a command
    return None


TURN = "poker.turn"
"""The clock of the player to act: on the hand's stream, at its version."""
PAUSE = "poker.pause"
"""The pause between hands: on the table's stream, at its hand number."""
KINDS = (TURN, PAUSE)


def clock_writes(work: Work) -> list[kernel_clocks.Statement]:
    """The kernel clock writes the command's new state needs (``kernel.clocks``):
    the new turn's clock, or the pause before the next hand; a hand this
    command finished has its turn clock cleared."""
    hand = work.hand
    ended = hand.row.stream if hand is not None and hand.events and hand.state.complete else None
    table = work.table
    return kernel_clocks.table_clock_writes(timer_for(work), table.pk, table.stream, KINDS, ended)


def clock_expire(*, table_id: int, stream: str, version: int) -> dict[str, Any]:
    """Act for a clock that ran out, if its stream is still at ``version``:
    the player to act times out (after his time bank), or the next hand is
    dealt.  Raises ``ClockMoved`` when there is nothing to do and
    ``kernel.clocks.ClockEarly`` when it fired before its time."""
    from poker.work import TABLE

    if _hand_moved_on(stream, version):
        raise ClockMoved()

    def do(work: Work) -> None:
        if stream.startswith("hand-"):
            _time_out(work, stream, version)
        else:
            _deal_after_pause(work, version)

    return TABLE.run(
        table_id,
        by=None,
        command_id=timer_id(stream, version),
        do=do,
        answer=_fired,
        kind="clock.expired",  # what the id is made of: the same timer fired again is the same
        body={"stream": stream, "version": version},
    )


def _hand_moved_on(stream: str, version: int) -> bool:
    """Whether ``stream`` is a hand already past ``version`` that this timer
    did not move, read in one query without the table's lock.  Most action
    clocks find this (the player acted in time); a version only grows, so
    such a timer has nothing to do, and taking the lock and folding the
    table to learn it cost the worker a whole command each time, while the
    level and deal timers waited behind them.  A hand still at ``version``
    is checked again under the lock, and so is a timer that already acted
    (fired again, it gets its first answer, as any repeated command)."""
    if not stream.startswith("hand-"):
        return False
    acted = CommandRow.objects.filter(pk=timer_id(stream, version))
    row = (
        Hand.objects.filter(pk=stream.removeprefix("hand-"))
        .annotate(acted=Exists(acted))
        .values_list("version", "acted")
        .first()
    )
    return row is not None and row[0] > version and not row[1]


def timer_id(stream: str, version: int) -> uuid.UUID:
    """The command id of the timer set at ``stream``'s ``version``: one per
    clock, so two runs of one timer cannot both act; one of the room's own
    ids (``kernel.system_ids``), so no player's command can take it."""
    return command_id_for(f"clock {stream}:{version}")


def _time_out(work: Work, stream: str, version: int) -> None:
    hand = work.hand
    if hand is None or hand.row.stream != stream or hand.row.version != version:
        raise ClockMoved()
    clock = running(work)
    if clock is None or clock.seat is None:
        raise ClockMoved()
    check_due(work.now, moment(clock.expires))
    _use_bank(work, clock)
    work.hand_do(TimeOut(work.table_state.hand_seats.index(clock.seat)))


def _deal_after_pause(work: Work, hand_number: int) -> None:
    table = work.table_state
    if table.hand_running or table.hand_number != hand_number or not table.config.deals_by_itself:
        raise ClockMoved()
    if plan_hand(table) is None:
        raise ClockMoved()
    check_due(work.now, work.table.next_hand_at)


def _fired(work: Work) -> dict[str, Any]:
    return {"table": work.table.pk, "table_version": work.table_state.version}


def _expire(clock: KernelClock) -> None:
    clock_expire(table_id=clock.args["table"], stream=clock.stream, version=clock.version)


due = kernel_clocks.firing(KINDS, _expire)
"""The ``clock_due`` receiver of the cash tables' clocks (``PokerConfig.ready``)."""
