"""The casino clocks: the betting window and each box's decision clock.

As at the pot tables, a command that starts a clock writes it as data
(``kernel.clocks``) in its append's statement (``clock_writes``), at the
stream and the version it is for; the kernel's drain fires it when due
(``due``, the ``clock_due`` receiver of ``KINDS``), under a command id made
of them (one of the room's own ids, ``kernel.system_ids``): it acts once,
only if the table is still there, and a clock moved since does nothing.

- The window: set when the first bet of a round opens it, at (table
  stream, number of the round to deal); when it fires with the round still
  undealt it deals the boxes that bet.
- The decision clock: set whenever the round moves to a box, at (round
  stream, its version); when it fires the box times out (``TimeOut``: no
  exchange, then a fold).  The dealer has no clock: he acts at once.
"""

from __future__ import annotations

import uuid
from datetime import datetime, timedelta
from typing import Any

from casino.projections import bet_until
from casino.work import CasinoWork
from kernel import clocks as kernel_clocks
from kernel.clocks import check_due
from kernel.errors import ClockMoved
from kernel.models import Clock
from kernel.system_ids import command_id_for
from poker.engine.casino import TimeOut


def decision_due(work: CasinoWork) -> datetime | None:
    """When the box to act in the running round times out (None: nobody is to act)."""
    current = work.round
    if current is None or current.state.complete or current.state.to_act is None:
        return None
    started = work.now if current.events else current.row.turn_started_at
    if started is None:
        return None
    return started + timedelta(seconds=work.table_state.config.decision_seconds)


def timer_for(work: CasinoWork) -> kernel_clocks.Timer | None:
    """(stream, version, when) of the timer the command's new state needs."""
    current = work.round
    if current is not None and current.events:
        due = decision_due(work)
        if due is not None:
            return current.row.stream, current.start + len(current.events), due
        return None
    table = work.table_state
    if table.bets and not work.table_start.bets:  # the first bet opens the window
        until = bet_until(work.table_start, table, work.now, work.table.bet_until)
        if until is not None:
            return work.table.stream, table.round_number + 1, until
    return None


TURN = "casino.turn"
"""A box's decision clock: on the round's stream, at its version."""
WINDOW = "casino.window"
"""The betting window: on the table's stream, at the number of the round to deal."""
KINDS = (TURN, WINDOW)


def clock_writes(work: CasinoWork) -> list[kernel_clocks.Statement]:
    """The clock writes the command's new state needs, for its append's
    statement: the box to act's clock or the window; a round this command
    finished has its clock cleared."""
    current = work.round
    ended = (
        current.row.stream
        if current is not None and current.events and current.state.complete
        else None
    )
    table = work.table
    return kernel_clocks.table_clock_writes(timer_for(work), table.pk, table.stream, KINDS, ended)


def timer_id(stream: str, version: int) -> uuid.UUID:
    """The command id of the timer set at ``stream``'s ``version``: one per
    clock, one of the room's own ids (``kernel.system_ids``)."""
    return command_id_for(f"casino clock {stream}:{version}")


def clock_expire(*, table_id: int, stream: str, version: int) -> dict[str, Any]:
    """Act for a clock that ran out if its stream is still at ``version``:
    the box to act times out, or the window closes and the round is dealt.
    ``ClockMoved`` when there is nothing to do, ``kernel.clocks.ClockEarly``
    when early."""
    from casino.commands import CASINO

    def do(work: CasinoWork) -> None:
        if stream.startswith("casino-round-"):
            _time_out(work, stream, version)
        else:
            _window_closed(work, version)

    return CASINO.run(
        table_id,
        by=None,
        command_id=timer_id(stream, version),
        do=do,
        answer=lambda work: {"table": work.table.pk, "table_version": work.table_state.version},
        kind="casino.clock_expired",
        body={"stream": stream, "version": version},
    )


def _time_out(work: CasinoWork, stream: str, version: int) -> None:
    current = work.round
    if current is None or current.row.stream != stream or current.row.version != version:
        raise ClockMoved()
    due = decision_due(work)
    to_act = current.state.to_act
    if due is None or to_act is None:
        raise ClockMoved()
    check_due(work.now, due)
    work.round_do(TimeOut(to_act))


def _window_closed(work: CasinoWork, number: int) -> None:
    table = work.table_state
    if table.round_running or table.round_number + 1 != number or not table.bets:
        raise ClockMoved()
    check_due(work.now, work.table.bet_until)
    work.deal()


def _expire(clock: Clock) -> None:
    clock_expire(table_id=clock.args["table"], stream=clock.stream, version=clock.version)


due = kernel_clocks.firing(KINDS, _expire)
"""The ``clock_due`` receiver of the casino's clocks (``CasinoConfig.ready``)."""
