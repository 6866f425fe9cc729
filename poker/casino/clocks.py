"""The casino clocks: the betting window and each box's decision clock.

As at the pot tables (``poker.clocks``), a command that starts a clock
sets one Celery timer after it commits (``config.timers``), carrying the
stream and the version it was set at, and the timer's command id is made
of them (one of the room's own ids, ``config.system_ids``): it acts once,
only if the table is still there, and a late or repeated timer does
nothing.

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

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from config import timers
from config.api_errors import ApiError
from config.system_ids import command_id_for
from poker.casino.models import CasinoTable
from poker.casino.work import CasinoWork
from poker.clocks import SWEEP_GRACE_SECONDS, moment, stamp
from poker.engine.casino import TimeOut
from poker.errors import ClockEarly, ClockMoved


def decision_due(work: CasinoWork) -> datetime | None:
    """When the box to act in the running round times out (None: nobody is to act)."""
    current = work.round
    if current is None or current.state.complete or current.state.to_act is None:
        return None
    started = work.now if current.events else current.row.turn_started_at
    if started is None:
        return None
    return started + timedelta(seconds=work.table_state.config.decision_seconds)


def timer_for(work: CasinoWork) -> tuple[str, int, datetime] | None:
    """(stream, version, when) of the timer the command's new state needs."""
    current = work.round
    if current is not None and current.events:
        due = decision_due(work)
        if due is not None:
            return current.row.stream, current.start + len(current.events), due
        return None
    table = work.table_state
    if table.bets and not work.table_start.bets and work.table.bet_until is not None:
        return work.table.stream, table.round_number + 1, work.table.bet_until
    return None


def schedule(work: CasinoWork) -> None:
    """Set the timer the command's new state needs, once it commits (after
    the read models are written: the window's end is on the table row)."""
    timer = timer_for(work)
    if timer is None or not settings.CLOCKS_ENABLED:
        return
    stream, version, when = timer
    table = work.table.pk
    transaction.on_commit(lambda: set_timer(table, stream, version, when))


def set_timer(table: int, stream: str, version: int, when: datetime) -> None:
    from poker.tasks import casino_clock_expired

    timers.send(casino_clock_expired, (table, stream, version), when)


def timer_id(stream: str, version: int) -> uuid.UUID:
    """The command id of the timer set at ``stream``'s ``version``: one per
    clock, one of the room's own ids (``config.system_ids``)."""
    return command_id_for(f"casino clock {stream}:{version}")


def clock_expire(*, table_id: int, stream: str, version: int) -> dict[str, Any]:
    """Act for a clock that ran out if its stream is still at ``version``:
    the box to act times out, or the window closes and the round is dealt.
    ``ClockMoved`` when there is nothing to do, ``ClockEarly`` when early."""
    from poker.casino.commands import run

    def do(work: CasinoWork) -> None:
        if stream.startswith("casino-round-"):
            _time_out(work, stream, version)
        else:
            _window_closed(work, version)

    return run(
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
    if work.now < due:
        raise ClockEarly(stamp(due))
    work.round_do(TimeOut(to_act))


def _window_closed(work: CasinoWork, number: int) -> None:
    table = work.table_state
    if table.round_running or table.round_number + 1 != number or not table.bets:
        raise ClockMoved()
    due = work.table.bet_until
    if due is not None and work.now < due:
        raise ClockEarly(stamp(due))
    work.deal()


def overdue(now: datetime) -> list[tuple[int, str, int]]:
    """(table, stream, version) of every casino clock past its time: timers lost."""
    from poker.casino.models import CasinoRound

    out = []
    for table in CasinoTable.objects.filter(round_running=False, bet_until__lt=now):
        out.append((table.pk, table.stream, table.round_number + 1))
    rounds = CasinoRound.objects.filter(ended_at__isnull=True, turn_started_at__isnull=False)
    for row in rounds.select_related("table"):
        assert row.turn_started_at is not None
        if row.turn_started_at + timedelta(seconds=row.table.decision_seconds) < now:
            out.append((row.table_id, row.stream, row.version))
    return out


def clock_sweep() -> int:
    """Fire every overdue casino clock now (beat's sweep); how many acted."""
    acted = 0
    late = timezone.now() - timedelta(seconds=SWEEP_GRACE_SECONDS)
    for table, stream, version in overdue(late):
        try:
            clock_expire(table_id=table, stream=stream, version=version)
        except ApiError:
            continue
        acted += 1
    return acted


__all__ = ["clock_expire", "clock_sweep", "moment", "overdue", "schedule", "set_timer", "timer_id"]
