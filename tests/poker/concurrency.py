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

from django.db import connection, connections

from config.api_errors import ApiError
from poker import projections
from poker.models import Command, Event, Hand, Table

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

    def racer(k: int, call: Callable[[], Any]) -> None:
        try:
            barrier.wait(RACE_TIMEOUT_S)
            outcomes[k].value = call()
        except BaseException as error:
            outcomes[k].error = error
        finally:
            connections.close_all()  # this thread's connections only

    threads = [threading.Thread(target=racer, args=(k, c)) for k, c in enumerate(calls)]
    for thread in threads:
        thread.start()
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


def lockstep(first: Callable[[], Any], second: Callable[[], Any]) -> list[Outcome]:
    """Run ``first`` until it is inside its transaction with everything
    written but not committed (table locked, events appended, read models
    written), then ``second``, which must queue on the table lock; let
    ``first`` commit once ``second`` waits.  Their outcomes in order.

    This is the one interleaving a race only sometimes produces: the loser
    started its command before the winner committed and goes on after."""
    inside, release = threading.Event(), threading.Event()
    gate = threading.Lock()
    write = projections.write

    def held_write(work: Any, recorded: Any) -> None:
        write(work, recorded)
        if gate.acquire(blocking=False):
            inside.set()
            if not release.wait(RACE_TIMEOUT_S):
                raise AssertionError("never released")

    outcomes = [Outcome(), Outcome()]

    def runner(k: int, call: Callable[[], Any]) -> None:
        try:
            outcomes[k].value = call()
        except BaseException as error:
            outcomes[k].error = error
        finally:
            connections.close_all()

    threads = [threading.Thread(target=runner, args=(k, c)) for k, c in enumerate((first, second))]
    with mock.patch.object(projections, "write", held_write):
        threads[0].start()
        try:
            assert inside.wait(RACE_TIMEOUT_S), "the first command never reached its write"
            threads[1].start()
            wait_for_lock_waiters(1)
        finally:
            release.set()
            for thread in threads:
                if thread.ident is not None:  # started
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


def wait_for_lock_waiters(count: int = 1, timeout: float = 10.0) -> None:
    """Block until ``count`` sessions of this PostgreSQL database wait on a
    lock (a row lock taken with SELECT ... FOR UPDATE).  Call it outside a
    transaction: pg_stat_activity is read once per transaction."""
    deadline = time.monotonic() + timeout
    with connection.cursor() as cursor:
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
