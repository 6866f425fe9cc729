"""A Celery worker and beat inside the server process, for ``make run`` on
embedded defaults: the in-memory transport reaches only this process, so
the worker that runs the clock drains, the clock waker that sends them
(``kernel.waker``) and the beat must live here too.

Both run in threads of this process, never in a child: a process forked
off has an in-memory broker of its own (what its beat sent would never
reach this worker) and would outlive the server.  Celery's ``beat=True``
forks beat off, so beat runs beside the worker instead, as
``celery.beat.EmbeddedService(thread=True)``.

Every clock still runs through the same drain as with Redis and separate
workers (``kernel.tasks``).  The clocks are rows of the database: a server
back after a stop fires the ones that came due meanwhile.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from typing import Any, cast

from django.conf import settings

log = logging.getLogger(__name__)
BEAT_STOP_TIMEOUT_S = 10
_started = threading.Event()
_stops: list[Callable[[], None]] = []
"""How to stop what ``start`` set going, in the order it started."""


def start() -> bool:
    """Start the worker and beat threads once per process; whether this
    call did."""
    if _started.is_set():
        return False
    _started.set()
    from celery import current_app as app  # the room's (config.celery), as shared_task's
    from celery.beat import EmbeddedService

    from kernel import waker

    worker = app.WorkController(
        pool_cls="solo",
        concurrency=1,
        beat=False,  # it would fork beat off: beat runs in a thread below
        queues=[settings.CLOCK_QUEUE],
        without_heartbeat=True,
        without_mingle=True,
        without_gossip=True,
        loglevel="WARNING",
    )
    thread = threading.Thread(target=worker.start, name="celery-embedded", daemon=True)
    thread.start()
    _stops.append(lambda: worker.stop(in_sighandler=False))
    waker.start_in_worker()  # a worker run in place sends no worker_ready
    _stops.append(waker.stop_in_worker)
    # thread=True makes a thread (Celery's stubs name either kind).
    beat = cast(
        threading.Thread,
        EmbeddedService(app, thread=True, scheduler_cls=app.conf.beat_scheduler),
    )
    beat.start()  # a daemon thread: it dies with the process
    _stops.append(lambda: _stop_beat(beat))
    log.info("embedded Celery worker and beat started on %s", settings.CELERY_BROKER_URL)
    return True


def _stop_beat(beat: Any) -> None:
    """End beat's loop (it wakes at least every second) and wait a while
    for its thread; one that never got going is not waited for forever."""
    beat.service.stop()
    beat.join(BEAT_STOP_TIMEOUT_S)


def stop() -> None:
    """Stop the beat and worker this process started, if any (a command
    that started them to run its clocks ends with them)."""
    while _stops:
        _stops.pop()()  # beat first: nothing sent to a worker that stopped
