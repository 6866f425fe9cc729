"""A Celery worker (with beat) inside the server process, for ``make run``
on embedded defaults: the in-memory transport reaches only this process, so
the worker that runs the table clocks must live here too.

Every timer still runs through the same task code as with Redis and
separate workers (``poker.tasks``).  What an in-memory broker holds dies
with the process; the beat's sweep fires the clocks that were due
meanwhile as soon as the server is back.
"""

from __future__ import annotations

import logging
import threading

from django.conf import settings

log = logging.getLogger(__name__)
_started = threading.Event()
_running: list[object] = []


def start() -> bool:
    """Start the worker thread once per process; whether this call did."""
    if _started.is_set():
        return False
    _started.set()
    from config.celery import app

    worker = app.WorkController(
        pool_cls="solo",
        concurrency=1,
        beat=True,
        queues=[settings.CLOCK_QUEUE],
        without_heartbeat=True,
        without_mingle=True,
        without_gossip=True,
        loglevel="WARNING",
    )
    thread = threading.Thread(target=worker.start, name="celery-embedded", daemon=True)
    thread.start()
    _running.append(worker)
    log.info("embedded Celery worker started on %s", settings.CELERY_BROKER_URL)
    return True


def stop() -> None:
    """Stop the worker this process started, if any (a command that started
    one to run its clocks ends with it; beat's thread would keep it alive)."""
    while _running:
        worker = _running.pop()
        worker.stop(in_sighandler=False)  # type: ignore[attr-defined]
