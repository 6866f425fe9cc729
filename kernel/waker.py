"""The waker: sends the drain (``kernel.tasks.clock_drain``) when the
nearest clock comes due, so only a clock that comes due becomes Celery work.

One thread per worker's main process (started on Celery's
``worker_ready``, once a prefork pool has forked its children, so none of
them inherits the waker's connection; the embedded worker starts it
itself).  It reads the earliest due time from the due-time index and
sleeps until then, at most ``POLL_S`` at a time (a clock another process
set for sooner is seen within that), and wakes at once when this process
sets a clock earlier than the one it waits for.  Once a clock is due it
sends a drain for every clock due by then (``covered``), one per due clock
up to ``DRAINS_MAX`` (a burst is drained side by side); a clock still
there ``RESEND_S`` after its drain was sent (that drain failed, or its
worker died) is sent a drain again.  Several workers' wakers may send
drains for the same moment: drains skip each other's rows, and a drain
that finds nothing due costs one query.
"""

from __future__ import annotations

import logging
import os
import threading
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import connection
from django.utils import timezone

from kernel import clocks

log = logging.getLogger(__name__)

POLL_S = 0.2
"""The longest the waker sleeps without reading the index again."""
RESEND_S = 2.0
"""A clock still due this long after a drain was sent for it: send again."""
DRAINS_MAX = int(os.environ.get("CLOCK_DRAINS_MAX") or os.cpu_count() or 1)
"""Drains sent at most for one due moment: a worker's processes, by default."""
THREAD_NAME = "clock-waker"


class Waker:
    """Sends drains as clocks come due (see the module)."""

    def __init__(self) -> None:
        self._stop = threading.Event()
        self._nudged = threading.Event()
        self._waiting_for: datetime | None = None
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
        if self.thread is not None:
            self.thread.join(5)

    def nudge(self, due: datetime) -> None:
        """A clock set in this process for ``due``: wake now if that is
        earlier than what the waker waits for."""
        if self._waiting_for is None or due < self._waiting_for:
            self._nudged.set()

    def run(self) -> None:
        while not self._stop.is_set():
            try:
                wait = self.step(timezone.now())
            except Exception:
                log.exception("clock waker: index not read, trying again")
                connection.close()
                wait = RESEND_S
            self._nudged.wait(wait)
            self._nudged.clear()
        connection.close()

    def step(self, now: datetime) -> float:
        """Send a drain if a clock came due; how long to sleep."""
        fresh = clocks.nearest(after=self.covered)
        if fresh is not None and fresh <= now:
            self.send(now, clocks.due_count(now, DRAINS_MAX))
            self.covered = now
            fresh = clocks.nearest(after=now)
        elif self.sent_at is not None and now - self.sent_at >= timedelta(seconds=RESEND_S):
            left = clocks.nearest()
            if left is not None and self.covered is not None and left <= self.covered:
                self.send(now)  # a drain sent for it did not take it
        self._waiting_for = fresh
        if fresh is None:
            return POLL_S
        return max(0.0, min(POLL_S, (fresh - now).total_seconds()))

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
    clocks.on_set(_waker.nudge)
    _waker.start()


def stop_in_worker(**_: Any) -> None:
    """Stop this process's waker (Celery's ``worker_shutdown``)."""
    global _waker
    if _waker is not None:
        _waker.stop()
        _waker = None
