"""Helpers for the race tests: calls started together on their own threads
(each with its own database connection), and checks that a table's event
log has neither gaps nor doubles."""

from __future__ import annotations

import threading
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any
from unittest import mock

from django.db import connections

from kernel.api_errors import ApiError
from kernel.models import Command, Event
from poker import projections
from poker.models import Hand, Table

RACE_TIMEOUT_S = 30


@dataclass
class Outcome:
    """What one racer got: a value or an exception."""

    value: Any = None
    error: BaseException | None = None

    @property
    def ok(self) -> bool:
        return self.error is None

    @property
    def code(self) -> str | None:
        """The API error code of a refusal (None for a success)."""
        if self.error is None:
            return None
        if isinstance(self.error, ApiError):
            return self.error.code
        return "unexpected " + "".join(traceback.format_exception(self.error))


def race(*calls: Callable[[], Any], meanwhile: Callable[[], None] | None = None) -> list[Outcome]:
    """Run ``calls`` at the same instant, one thread and one database
    connection each; their outcomes in order.  ``meanwhile`` runs on the
    calling thread while they do."""
    barrier = threading.Barrier(len(calls))
    outcomes = [Outcome() for _ in calls]

    def together(call: Callable[[], Any]) -> Callable[[], Any]:
        def go() -> Any:
            barrier.wait(RACE_TIMEOUT_S)
            return call()

        return go

    threads = [start(together(c), o) for c, o in zip(calls, outcomes, strict=True)]
    try:
        if meanwhile is not None:
            meanwhile()
    finally:
        for thread in threads:
            thread.join(RACE_TIMEOUT_S)
    for thread in threads:
        thread.join(RACE_TIMEOUT_S)
    assert not any(t.is_alive() for t in threads), "a racer hung"
    return outcomes


class Hold:
    """While active, the first call of ``owner.name`` in any thread stops
    right after it returns, inside its caller's transaction with everything
    written but not committed, until ``release``: ``inside`` is set then."""

    def __init__(self, owner: Any, name: str) -> None:
        self.inside, self._released = threading.Event(), threading.Event()
        self._gate = threading.Lock()
        wrapped = getattr(owner, name)

        def held(*args: Any, **kwargs: Any) -> Any:
            out = wrapped(*args, **kwargs)
            if self._gate.acquire(blocking=False):
                self.inside.set()
                if not self._released.wait(RACE_TIMEOUT_S):
                    raise AssertionError("never released")
            return out

        self._patch = mock.patch.object(owner, name, held)

    def __enter__(self) -> Hold:
        self._patch.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()
        self._patch.stop()

    def release(self) -> None:
        self._released.set()


def start(call: Callable[[], Any], outcome: Outcome) -> threading.Thread:
    """``call`` on a thread of its own (with its own database connections),
    what it got in ``outcome``."""

    def run() -> None:
        try:
            outcome.value = call()
        except BaseException as error:
            outcome.error = error
        finally:
            connections.close_all()

    thread = threading.Thread(target=run)
    thread.start()
    return thread


def lockstep(
    first: Callable[[], Any],
    second: Callable[[], Any],
    hold: tuple[Any, str] = (projections, "write"),
    using: str = "default",
) -> list[Outcome]:
    """Run ``first`` until it is inside its transaction with everything
    written but not committed (``hold``: by default table locked, events
    appended, read models written), then ``second``, which must queue on a
    lock of the ``using`` database; let ``first`` commit once ``second``
    waits.  Their outcomes in order.

    This is the one interleaving a race only sometimes produces: the loser
    started its command before the winner committed and goes on after."""
    outcomes = [Outcome(), Outcome()]
    threads = []
    with Hold(*hold) as held:
        threads.append(start(first, outcomes[0]))
        try:
            assert held.inside.wait(RACE_TIMEOUT_S), "the first command never reached its write"
            threads.append(start(second, outcomes[1]))
            wait_for_lock_waiters(1, using=using)
        finally:
            held.release()
            for thread in threads:
                thread.join(RACE_TIMEOUT_S)
    assert not any(t.is_alive() for t in threads), "a command hung"
    return outcomes


def table_streams(table_id: int) -> dict[str, list[int]]:
    """Every stream of a table (its own and its hands') with its versions."""
    out: dict[str, list[int]] = {}
    rows = Event.objects.filter(stream=f"table-{table_id}") | Event.objects.filter(
        stream__startswith=f"hand-{table_id}-"
    )
    for stream, version in rows.order_by("stream", "version").values_list("stream", "version"):
        out.setdefault(stream, []).append(version)
    return out


def assert_log_sound(table_id: int) -> dict[str, list[int]]:
    """Each stream of the table runs 1..n with no gap and no double, every
    event belongs to a stored command or none, and the table and hand rows
    stand at their streams' last versions."""
    log = table_streams(table_id)
    for stream, versions in log.items():
        assert versions == list(range(1, len(versions) + 1)), (stream, versions)
    table = Table.objects.get(pk=table_id)
    assert table.version == len(log[table.stream])
    for hand in Hand.objects.filter(table_id=table_id):
        assert hand.version == len(log[hand.stream]), hand.pk
    assert set(log) == {table.stream} | {h.stream for h in Hand.objects.filter(table=table)}
    orphans = Event.objects.filter(command__isnull=False).exclude(command__in=Command.objects.all())
    assert not orphans.exists()
    return log


def wait_for_lock_waiters(count: int = 1, timeout: float = 10.0, using: str = "default") -> None:
    """Block until ``count`` sessions of the PostgreSQL database ``using``
    wait on a lock (a row lock taken with SELECT ... FOR UPDATE).  Call it
    outside a transaction: pg_stat_activity is read once per transaction."""
    deadline = time.monotonic() + timeout
    with connections[using].cursor() as cursor:
        while True:
            cursor.execute(
                "SELECT count(*) FROM pg_stat_activity"
                " WHERE datname = current_database() AND wait_event_type = 'Lock'"
            )
            (waiting,) = cursor.fetchone()
            if waiting >= count:
                return
            assert time.monotonic() < deadline, f"{waiting} of {count} sessions waiting"
            time.sleep(0.005)
