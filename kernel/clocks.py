"""The one clock mechanism of every stream: timers as rows.

A clock is a row of ``kernel.models.Clock``: (stream, kind) -> the version
of the stream it is set for and when it comes due.

- Setting: a command that leaves a clock running writes it with ``set``
  (``clock_set``, an upsert) in its own transaction, beside its read
  models; a command that moves the stream on writes the new version over
  the old one, or clears it (``clock_clear``).  No broker message: a
  clock that never comes due costs one row write.
- Firing: ``drain`` takes the due rows one at a time (``FOR UPDATE SKIP
  LOCKED`` on PostgreSQL, so several drains run side by side without
  taking the same row), deletes the row and runs the command of its kind
  in the same transaction.  The row goes only with the command: a drain
  that fails or whose process dies rolls back and leaves the row, which
  the next drain fires.  Each kind's command checks that its stream is
  still at the clock's version (a clock moved since does nothing) and runs
  under one of the room's system command ids made of the stream and that
  version, so no clock acts twice.
- Waking: the Celery task ``kernel.tasks.clock_drain`` runs a drain; the
  waker (``kernel.waker``) sends it when the nearest due time comes, so
  only a clock that comes due becomes Celery work.

Each aggregate supplies only its own: the kinds it has (``register``),
when each is due and its version (its ``clock_set`` calls), and what a due
clock does (the kind's ``fire``).
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.db import connection, connections, transaction
from django.db.models import Min, Q, QuerySet
from django.utils import timezone

from kernel.models import Clock
from kernel.signals import clock_fired

log = logging.getLogger(__name__)

LOCK_TIMEOUT_MS = 200
"""How long a drain's command waits for a lock on PostgreSQL before it gives
its clock back for a later drain: a command holding the aggregate waits for
the clock row the drain holds, and the drain must not wait for it in turn."""


class Early(Exception):
    """A kind's command found its clock not due yet: set it again for ``due``."""

    def __init__(self, due: datetime) -> None:
        super().__init__(due)
        self.due = due


Fire = Callable[[Clock], bool]
"""A kind's command for a due clock: whether it acted (False: its stream
moved on, nothing to do); raises ``Early`` to be set again for later."""


@dataclass(frozen=True)
class Kind:
    """A registered kind of clock."""

    name: str
    fire: Fire


_kinds: dict[str, Kind] = {}
_local = threading.local()


def in_drain() -> bool:
    """Whether this thread runs a due clock's command inside the drain's
    transaction: what a command does "after it committed" then waits for
    the drain's commit (``transaction.on_commit``)."""
    return bool(getattr(_local, "firing", False))


def register(name: str, fire: Fire) -> None:
    """Have clocks of kind ``name`` (and ``name:key``) fired by ``fire``
    (an app registers its kinds in its ``ready``)."""
    _kinds[name] = Kind(name, fire)


def unregister(name: str) -> None:
    """Forget the kind ``name`` (its clocks left are dropped when due)."""
    _kinds.pop(name, None)


def kind_name(kind: str) -> str:
    """The registered kind of a row's kind (``tournament.rebuy:17`` ->
    ``tournament.rebuy``)."""
    return kind.split(":", 1)[0]


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
    """Every clock of the registered ``kinds`` (None: of every kind)."""
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
    then), each in a transaction of its own; how many acted.

    A clock whose command fails with an unexpected error stays for a later
    drain (logged), and this drain goes on with the others."""
    wanted = None if kinds is None else list(kinds)
    acted = 0
    skipped: list[int] = []
    while True:
        try:
            fired = _fire_next(wanted, now or timezone.now(), skipped)
        except _Failed as failed:
            skipped.append(failed.pk)
            continue
        if fired is None:
            return acted
        acted += fired


class _Failed(Exception):
    def __init__(self, pk: int) -> None:
        super().__init__(pk)
        self.pk = pk


def _fire_next(kinds: list[str] | None, now: datetime, skipped: list[int]) -> bool | None:
    """Fire the earliest due clock in a transaction of its own: whether its
    command acted, None when no clock is due."""
    pk = None
    try:
        with transaction.atomic():
            due = of_kinds(kinds).filter(due__lte=now).exclude(pk__in=skipped)
            clock = due.select_for_update(skip_locked=True).order_by("due", "pk").first()
            if clock is None:
                return None
            pk = clock.pk
            if connection.vendor == "postgresql":
                with connection.cursor() as cursor:
                    cursor.execute(f"SET LOCAL lock_timeout = {LOCK_TIMEOUT_MS}")
            Clock.objects.filter(pk=clock.pk).delete()
            return _fire(clock)
    except Exception as error:
        if pk is None:
            raise
        log.warning("clock %s not fired, left for a later drain: %r", pk, error)
        raise _Failed(pk) from error


def _fire(clock: Clock) -> bool:
    """Run a due clock's command (its row already deleted in this
    transaction); an early one is set again for its time."""
    kind = _kinds.get(kind_name(clock.kind))
    if kind is None:
        log.error("clock %s of unknown kind %r dropped", clock.pk, clock.kind)
        return False
    _local.firing = True
    late = (timezone.now() - clock.due).total_seconds()
    transaction.on_commit(
        lambda: clock_fired.send(sender=Clock, kind=kind.name, late=late), robust=True
    )
    try:
        with transaction.atomic():
            return kind.fire(clock)
    except Early as early:
        due = max(early.due, timezone.now() + timedelta(milliseconds=1))
        clock_set(
            stream=clock.stream, kind=clock.kind, version=clock.version, due=due, args=clock.args
        )
        return False
    finally:
        _local.firing = False
