"""The one clock mechanism of every stream: timers as rows.

A clock is a row of ``kernel.models.Clock``: (stream, kind) -> the version
of the stream it is set for and when it comes due.

- Setting: a command that leaves a clock running writes it with
  ``clock_set`` (an upsert) in its own transaction, or joins
  ``clock_set_statement`` to its own writes; a command that moves the
  stream on writes the new version over the old one, or clears it
  (``clock_clear``).  No broker message: a clock that never comes due
  costs one row write.
- Firing: ``drain`` takes the due rows in batches: one statement deletes
  up to ``BATCH`` of the earliest (``FOR UPDATE SKIP LOCKED`` on
  PostgreSQL, so several drains run side by side without taking the same
  row) and returns them; each one's command then runs in a savepoint of
  the batch's transaction.  The rows go only with their commands: a drain
  whose process dies rolls the whole batch back, rows and commands, and
  the next drain fires them; a command that fails rolls back to its
  savepoint and its row is put back for a later drain.
- Once, at its version: each kind's command checks that its stream is
  still where the clock was set (a clock moved since does nothing: its
  app raises a refusal) and runs under one of the room's system command
  ids made of the stream and that version, so no clock acts twice.  A
  command that finds its clock early (``ClockEarly``) has it set again.
- Kinds: the drain sends ``kernel.signals.clock_due`` for each due clock;
  each app connects, in its ``AppConfig.ready``, one receiver made by
  ``firing`` for the kinds it owns.  The kernel imports no app.
- Waking: the Celery task ``kernel.tasks.clock_drain`` runs a drain; the
  waker (``kernel.waker``) sends it when the nearest due time comes, so
  only a clock that comes due becomes Celery work.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Collection, Iterable
from datetime import UTC, datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import connection, connections, transaction
from django.db.models import Min, Q, QuerySet
from django.utils import timezone

from kernel.api_errors import ApiError
from kernel.models import Clock
from kernel.signals import clock_due, clock_fired

log = logging.getLogger(__name__)

LOCK_TIMEOUT_MS = 200
"""How long a drain's command waits for a lock on PostgreSQL before it gives
its clock back for a later drain: a command holding the aggregate waits for
the clock row the drain holds, and the drain must not wait for it in turn."""
SWEEP_GRACE_SECONDS = 2.0
"""A clock this far past its time without having acted is overdue: no
drain took it (``overdue``)."""
BATCH = 16
"""Clocks a drain takes in one statement and fires in one transaction: the
statement and the transaction are paid once per batch; a command's effects
after its commit (frames) wait for the batch's other commands."""


# --------------------------------------------------------------------------
# Time


def stamp(at: datetime) -> float:
    """A time as the engines and rules count it: seconds since the epoch."""
    return at.timestamp()


def moment(seconds: float) -> datetime:
    """Seconds since the epoch as an aware datetime (UTC)."""
    return datetime.fromtimestamp(seconds, tz=UTC)


# --------------------------------------------------------------------------
# Kinds


class ClockEarly(Exception):
    """A kind's command found its clock not due yet: set it again for ``due``."""

    def __init__(self, due: datetime) -> None:
        super().__init__(due)
        self.due = due


def check_due(now: datetime, due: datetime | None) -> None:
    """Refuse to act on a clock before ``due`` (``ClockEarly``): a command
    judges by its own time, which may be earlier than the drain's."""
    if due is not None and now < due:
        raise ClockEarly(due)


Command = Callable[[Clock], object]
"""What a due clock of a kind does: runs its command (its result unused);
raises ``ClockEarly`` to be set again, or a refusal when its stream moved."""
Receiver = Callable[..., bool | None]
"""A ``clock_due`` receiver: True, the clock acted; False, it was dropped
(refused: its stream moved on); None, not one of its kinds."""


def firing(
    kinds: Collection[str],
    command: Command,
    *,
    refused: type[Exception] | tuple[type[Exception], ...] = ApiError,
) -> Receiver:
    """The ``clock_due`` receiver of an app's ``kinds``: runs ``command``
    for a due clock of one of them; a ``refused`` error (by default any
    refusal of the app's: its stream moved, its table closed) drops the
    clock."""

    def receiver(sender: str, clock: Clock, **_: Any) -> bool | None:
        if sender not in kinds:
            return None
        try:
            command(clock)
        except ClockEarly:
            raise
        except refused:
            return False
        return True

    return receiver


def kind_name(kind: str) -> str:
    """The kind of a row's kind (``tournament.rebuy:17`` -> ``tournament.rebuy``)."""
    return kind.split(":", 1)[0]


_local = threading.local()


def in_drain() -> bool:
    """Whether this thread runs a due clock's command inside the drain's
    transaction: what a command does "after it committed" then waits for
    the drain's commit (``transaction.on_commit``)."""
    return bool(getattr(_local, "firing", False))


# --------------------------------------------------------------------------
# Setting


Statement = tuple[str, list[Any]]
"""SQL and its parameters, for a caller that sends its writes together."""


def clock_set(
    *,
    stream: str,
    kind: str,
    version: int,
    due: datetime,
    args: dict[str, Any] | None = None,
) -> None:
    """Set ``stream``'s clock of ``kind`` for ``version`` at ``due``, in the
    caller's transaction (replacing the one set before, if any)."""
    _execute(clock_set_statement(stream=stream, kind=kind, version=version, due=due, args=args))


def clock_set_statement(
    *,
    stream: str,
    kind: str,
    version: int,
    due: datetime,
    args: dict[str, Any] | None = None,
    using: str = "default",
) -> Statement:
    """``clock_set`` as one statement (an upsert), for the caller to run in
    its transaction with its own writes (a table's command sends it with
    its read models, in one round trip on PostgreSQL)."""
    connection = connections[using]
    fields = Clock._meta
    params = [
        stream,
        kind,
        version,
        fields.get_field("due").get_db_prep_save(due, connection),
        fields.get_field("args").get_db_prep_save(args or {}, connection),
    ]
    if _listeners:  # a waker in this process
        transaction.on_commit(lambda: _told(due), using=using)
    return _UPSERT.format(table=fields.db_table), params


_UPSERT = (
    "INSERT INTO {table} (stream, kind, version, due, args) VALUES (%s, %s, %s, %s, %s) "
    "ON CONFLICT (stream, kind) DO UPDATE SET "
    "version = EXCLUDED.version, due = EXCLUDED.due, args = EXCLUDED.args"
)


Timer = tuple[str, int, datetime]
"""A clock a command's new state needs: its stream, the version it is set
for and when it comes due."""


def table_clock_writes(
    timer: Timer | None, table: int, table_stream: str, kinds: tuple[str, str], finished: str | None
) -> list[Statement]:
    """A table command's clock writes, for its append's statement: the
    turn's clock (``kinds[0]``) of the stream ``finished`` (a hand or round
    the command finished) cleared, and ``timer`` set, of the table's own
    kind (``kinds[1]``: the pause, the betting window) on ``table_stream``,
    else of the turn's; its args name the ``table``.  None with the clocks
    off (``CLOCKS_ENABLED``)."""
    if not settings.CLOCKS_ENABLED:
        return []
    turn, own = kinds
    out = [] if finished is None else [clock_clear_statement(stream=finished, kind=turn)]
    if timer is not None:
        stream, version, due = timer
        kind = own if stream == table_stream else turn
        args = {"table": table}
        out.append(
            clock_set_statement(stream=stream, kind=kind, version=version, due=due, args=args)
        )
    return out


def clock_set_earliest(
    *, stream: str, kind: str, version: int, due: datetime, args: dict[str, Any] | None = None
) -> None:
    """``clock_set``, unless the clock is already set to come due no later."""
    held = Clock.objects.filter(stream=stream, kind=kind).values_list("due", flat=True).first()
    if held is None or due < held:
        clock_set(stream=stream, kind=kind, version=version, due=due, args=args)


def clock_clear(*, stream: str, kind: str) -> None:
    """Stop ``stream``'s clock of ``kind`` (its stream moved on), in the
    caller's transaction."""
    _execute(clock_clear_statement(stream=stream, kind=kind))


def clock_clear_statement(*, stream: str, kind: str) -> Statement:
    """``clock_clear`` as one statement, for the caller to run with its own."""
    return f"DELETE FROM {Clock._meta.db_table} WHERE stream = %s AND kind = %s", [stream, kind]


def _execute(statement: Statement, using: str = "default") -> None:
    with connections[using].cursor() as cursor:
        cursor.execute(*statement)


_listeners: list[Callable[[datetime], None]] = []


def on_set(listener: Callable[[datetime], None]) -> None:
    """Tell ``listener`` the due time of every clock this process sets,
    once its transaction commits (the waker of this process)."""
    if listener not in _listeners:
        _listeners.append(listener)


def _told(due: datetime) -> None:
    for listener in _listeners:
        listener(due)


# --------------------------------------------------------------------------
# Reading


def of_kinds(kinds: Iterable[str] | None) -> QuerySet[Clock]:
    """Every clock of ``kinds`` (None: of every kind)."""
    rows = Clock.objects.all()
    if kinds is None:
        return rows
    wanted = Q(pk__in=[])
    for name in kinds:
        wanted |= Q(kind=name) | Q(kind__startswith=f"{name}:")
    return rows.filter(wanted)


def overdue(late: datetime, kinds: Iterable[str] | None = None) -> list[Clock]:
    """The clocks of ``kinds`` that came due before ``late``, earliest first."""
    return list(of_kinds(kinds).filter(due__lt=late).order_by("due", "pk"))


def due_count(now: datetime, most: int) -> int:
    """How many clocks are due by ``now``, counted up to ``most``."""
    return len(Clock.objects.filter(due__lte=now).values_list("pk", flat=True)[:most])


def nearest(after: datetime | None = None) -> datetime | None:
    """The earliest due time of any clock (after ``after``, if given)."""
    rows = Clock.objects.all() if after is None else Clock.objects.filter(due__gt=after)
    due: datetime | None = rows.aggregate(due=Min("due"))["due"]
    return due


# --------------------------------------------------------------------------
# Firing


def drain(*, kinds: Iterable[str] | None = None, now: datetime | None = None) -> int:
    """Fire every clock of ``kinds`` (None: all) due by now (``now``: by
    then), a batch at a time; how many acted.

    A clock whose command fails with an unexpected error is put back for a
    later drain (logged), and this drain goes on with the others."""
    wanted = None if kinds is None else list(kinds)
    acted = 0
    skipped: list[int] = []
    while True:
        with transaction.atomic():
            batch = _take(wanted, now or timezone.now(), skipped)
            if not batch:
                return acted
            for clock in batch:
                fired = _fire(clock)
                if fired is None:
                    skipped.append(clock.pk)
                else:
                    acted += fired


def _take(kinds: list[str] | None, now: datetime, skipped: list[int]) -> list[Clock]:
    """Delete the earliest due clocks (up to ``BATCH``, none of ``skipped``)
    in the caller's transaction, and return them.  On PostgreSQL one
    statement, skipping the rows other drains hold, with the transaction's
    lock timeout set; elsewhere (SQLite: one writer at a time) a read and a
    delete."""
    if connection.vendor != "postgresql":
        due = of_kinds(kinds).filter(due__lte=now).exclude(pk__in=skipped)
        batch = list(due.order_by("due", "pk")[:BATCH])
        Clock.objects.filter(pk__in=[clock.pk for clock in batch]).delete()
        return batch
    with connection.cursor() as cursor:
        cursor.execute(f"SET LOCAL lock_timeout = {LOCK_TIMEOUT_MS}")
    where = ["due <= %s"]
    params: list[object] = [now]
    if kinds is not None:
        where.append("split_part(kind, ':', 1) = ANY(%s)")
        params.append(kinds)
    if skipped:
        where.append("NOT (id = ANY(%s))")
        params.append(skipped)
    table = Clock._meta.db_table
    sql = (
        f"DELETE FROM {table} WHERE id IN (SELECT id FROM {table} WHERE {' AND '.join(where)} "
        "ORDER BY due, id LIMIT %s FOR UPDATE SKIP LOCKED) "
        "RETURNING id, stream, kind, version, due, args"
    )
    return sorted(Clock.objects.raw(sql, [*params, BATCH]), key=lambda c: (c.due, c.pk))


def _fire(clock: Clock) -> bool | None:
    """Run a due clock's command in a savepoint (its row already deleted in
    the batch's transaction): whether it acted; an early one is set again
    for its time; None when its command failed, its row put back."""
    name = kind_name(clock.kind)
    _local.firing = True
    late = (timezone.now() - clock.due).total_seconds()
    try:
        with transaction.atomic():
            answers = [a for _, a in clock_due.send(sender=name, clock=clock) if a is not None]
    except ClockEarly as early:
        due = max(early.due, timezone.now() + timedelta(milliseconds=1))
        clock_set(
            stream=clock.stream, kind=clock.kind, version=clock.version, due=due, args=clock.args
        )
        return False
    except Exception as error:
        log.warning("clock %s not fired, left for a later drain: %r", clock.pk, error)
        Clock.objects.bulk_create([clock], ignore_conflicts=True)
        return None
    finally:
        _local.firing = False
    if not answers:
        log.error("clock %s of unknown kind %r dropped", clock.pk, clock.kind)
        return False
    transaction.on_commit(lambda: clock_fired.send(sender=Clock, kind=name, late=late), robust=True)
    return any(answers)
