"""The waker: sends the drain (``kernel.tasks.clock_drain``) when the
nearest clock comes due, so only a clock that comes due becomes Celery work.

One thread per worker's main process (started on Celery's
``worker_ready``, once a prefork pool has forked its children, so none of
them inherits the waker's connections; the embedded worker starts it
itself).  It reads the earliest due time from the due-time index and
sleeps until then, and wakes sooner for a clock set to come due earlier:

- on PostgreSQL it listens on ``CHANNEL`` (``LISTEN`` on a connection of
  its own, in autocommit, through psycopg's ``notifies``): a clock written
  to come due before every other clock still to come sends ``NOTIFY`` in
  its transaction (a trigger, kernel migration 0002), heard at its
  commit.  It still reads the index at least every
  ``CLOCK_SAFETY_POLL_SECONDS`` (a notification sent while its connection
  was down is lost), and a lost connection is opened again, the index read
  again at once;
- on SQLite, which has no ``NOTIFY``, it reads the index at least every
  ``POLL_S`` (a clock another process set for sooner is seen within that),
  and wakes at once when this process sets a clock earlier than the one it
  waits for.

Once a clock is due it sends a drain for every clock due by then
(``covered``), one per due clock up to ``DRAINS_MAX`` (a burst is drained
side by side), at most once every ``SEND_GAP_S`` (a drain takes the clocks
due meanwhile in one batch); a clock still there ``RESEND_S`` after its drain was sent
(that drain failed, or its worker died) is sent a drain again.  Several
workers' wakers may send drains for the same moment: drains skip each
other's rows, and a drain that finds nothing due costs one query.
"""

from __future__ import annotations

import logging
import os
import threading
from datetime import datetime, timedelta
from typing import Any

import psycopg
from django.conf import settings
from django.db import connection
from django.utils import timezone
from psycopg import pq
from psycopg.rows import TupleRow

from kernel import clocks

log = logging.getLogger(__name__)

POLL_S = 0.2
"""On SQLite, the longest the waker sleeps without reading the index again."""
SEND_GAP_S = 0.025
"""The least time between two sends of drains: clocks coming due closer
together than that are drained by one batch (``kernel.clocks.BATCH``)
rather than one Celery task each, at most that much later."""
RESEND_S = 2.0
"""A clock still due this long after a drain was sent for it: send again."""
RECONNECT_S = 1.0
"""How long the waker waits after its listening connection failed."""
DRAINS_MAX = int(os.environ.get("CLOCK_DRAINS_MAX") or os.cpu_count() or 1)
"""Drains sent at most for one due moment: a worker's processes, by default."""
CHANNEL = "kernel_clock"
"""The channel a clock set earlier than the others is announced on (the
trigger of kernel migration 0002 names it too)."""
THREAD_NAME = "clock-waker"


class Listener:
    """The waker's ``LISTEN`` connection to PostgreSQL: psycopg, autocommit,
    named ``clock-waker <pid>`` in ``pg_stat_activity``."""

    def __init__(self, settings_dict: dict[str, Any]) -> None:
        self.params = connect_params(settings_dict)
        self.name = f"{THREAD_NAME} {os.getpid()}"
        self._connection: psycopg.Connection[TupleRow] | None = None

    def wait(self, timeout: float) -> None:
        """Return on a notification or after ``timeout`` seconds; at once,
        having connected, when not connected (what was announced meanwhile
        is lost: the caller reads the index again).  Raises
        ``psycopg.Error`` when the connection fails."""
        if self._connection is None or self._connection.closed:
            self._connection = psycopg.connect(
                **self.params, autocommit=True, application_name=self.name
            )
            self._connection.execute(f"LISTEN {CHANNEL}")
            return
        for _ in self._connection.notifies(timeout=timeout, stop_after=1):
            pass  # what it says does not matter: the index says what is due

    def close(self) -> None:
        if self._connection is not None:
            self._connection.close()
            self._connection = None

    def interrupt(self) -> None:
        """Wake the waiting ``wait`` (a notification of its own, from a
        short connection: the waiting one is busy); best effort."""
        try:
            with psycopg.connect(**self.params, autocommit=True, connect_timeout=2) as other:
                other.execute("SELECT pg_notify(%s, '')", [CHANNEL])
        except psycopg.Error:
            log.warning("clock waker: not interrupted, it stops at its next wake")


def connect_params(settings_dict: dict[str, Any]) -> dict[str, Any]:
    """psycopg's connection parameters for a Django database's settings
    (``NAME``, ``USER``, ``PASSWORD``, ``HOST``, ``PORT`` and the libpq
    parameters among its ``OPTIONS``)."""
    libpq = {option.keyword.decode() for option in pq.Conninfo.get_defaults()}
    options = settings_dict.get("OPTIONS") or {}
    params = {key: value for key, value in options.items() if key in libpq}
    params.update({key: settings_dict[name] for key, name in NAMED if settings_dict.get(name)})
    return params


NAMED = (
    ("dbname", "NAME"),
    ("user", "USER"),
    ("password", "PASSWORD"),
    ("host", "HOST"),
    ("port", "PORT"),
)
"""psycopg's parameter for each of Django's database settings."""


class Waker:
    """Sends drains as clocks come due (see the module)."""

    def __init__(self) -> None:
        self._stop = threading.Event()
        self._nudged = threading.Event()
        self._waiting_for: datetime | None = None
        self.listener: Listener | None = None
        self.poll_s = POLL_S
        if connection.vendor == "postgresql":
            self.listener = Listener(connection.settings_dict)
            self.poll_s = float(settings.CLOCK_SAFETY_POLL_SECONDS)
        self.covered: datetime | None = None
        """Drains were sent for every clock due by then."""
        self.sent_at: datetime | None = None
        self.thread: threading.Thread | None = None

    def start(self) -> None:
        self.thread = threading.Thread(target=self.run, name=THREAD_NAME, daemon=True)
        self.thread.start()

    def stop(self) -> None:
        self._stop.set()
        self._nudged.set()
        if self.listener is not None:
            self.listener.interrupt()
        if self.thread is not None:
            self.thread.join(5)

    def nudge(self, due: datetime) -> None:
        """A clock set in this process for ``due`` (SQLite): wake now if
        that is earlier than what the waker waits for."""
        if self._waiting_for is None or due < self._waiting_for:
            self._nudged.set()

    def run(self) -> None:
        wait = 0.0  # on PostgreSQL the first sleep connects: LISTEN before the first read
        while True:
            self.sleep(wait)
            if self._stop.is_set():
                break
            try:
                wait = self.step(timezone.now())
            except Exception:
                log.exception("clock waker: index not read, trying again")
                connection.close()
                wait = RESEND_S
        connection.close()
        if self.listener is not None:
            self.listener.close()

    def sleep(self, wait: float) -> None:
        """Until a notification (PostgreSQL) or a nudge (SQLite), at most
        ``wait`` seconds."""
        if self.listener is None:
            self._nudged.wait(wait)
            self._nudged.clear()
            return
        try:
            self.listener.wait(wait)
        except psycopg.Error as error:
            log.warning("clock waker: listening connection failed, opening another: %r", error)
            self.listener.close()
            self._stop.wait(RECONNECT_S)

    def step(self, now: datetime) -> float:
        """Send a drain if a clock came due; how long to sleep."""
        fresh = clocks.nearest(after=self.covered)
        if fresh is not None and fresh <= now and self.may_send(now):
            self.send(now, clocks.due_count(now, DRAINS_MAX))
            self.covered = now
            fresh = clocks.nearest(after=now)
        elif self.sent_at is not None and now - self.sent_at >= timedelta(seconds=RESEND_S):
            left = clocks.nearest()
            if left is not None and self.covered is not None and left <= self.covered:
                self.send(now)  # a drain sent for it did not take it
            else:
                self.sent_at = None  # the drains sent took their clocks
        self._waiting_for = fresh
        return self.wait_from(now, fresh)

    def wait_from(self, now: datetime, fresh: datetime | None) -> float:
        """How long to sleep at ``now``: until the nearest clock ``fresh``,
        the check of the drains last sent, or the poll, whichever is first."""
        wakes = [now + timedelta(seconds=self.poll_s)]
        if fresh is not None and self.sent_at is not None:
            fresh = max(fresh, self.sent_at + timedelta(seconds=SEND_GAP_S))
        if fresh is not None:
            wakes.append(fresh)
        if self.sent_at is not None:
            wakes.append(self.sent_at + timedelta(seconds=RESEND_S))
        return max(0.0, (min(wakes) - now).total_seconds())

    def may_send(self, now: datetime) -> bool:
        """Whether ``SEND_GAP_S`` has passed since drains were last sent."""
        return self.sent_at is None or now - self.sent_at >= timedelta(seconds=SEND_GAP_S)

    def send(self, now: datetime, drains: int = 1) -> None:
        from kernel.tasks import clock_drain

        for _ in range(max(1, drains)):
            clock_drain.apply_async(queue=settings.CLOCK_QUEUE)
        self.sent_at = now


_waker: Waker | None = None


def start_in_worker(**_: Any) -> None:
    """Start this process's waker (Celery's ``worker_ready``), once."""
    global _waker
    if _waker is not None or not settings.CLOCKS_ENABLED:
        return
    _waker = Waker()
    if _waker.listener is None:  # on PostgreSQL the clock's commit notifies
        clocks.on_set(_waker.nudge)
    _waker.start()


def stop_in_worker(**_: Any) -> None:
    """Stop this process's waker (Celery's ``worker_shutdown``)."""
    global _waker
    if _waker is not None:
        _waker.stop()
        _waker = None
