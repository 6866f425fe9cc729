"""Timers sent to the broker off the command's thread.

A timer is a Celery task with an ETA (``poker.clocks``, ``tournaments``),
and sending one is a broker round trip: about a millisecond that every
command used to spend after its commit before it could answer.  Now a
command only hands the timer to its process's ``Dispatcher`` (``send``, a
few microseconds: an append to an in-process queue), and a thread of the
dispatcher's sends what has piled up in batches, on one connection, in one
pipelined round trip to Redis (``Producer.batch``; the in-memory transport
sends them one by one).

A table's timers replace one another: each command that sets one makes
every timer set before it at that table do nothing when it fires (it
finds its stream moved on).  So the thread gathers for ``GATHER_S`` after
the first timer, and of the timers gathered with one ``key`` (a table's)
sends only the one set last (the highest ``order``: the table's feed
position, fixed under its lock); a busy table then costs one send in
``GATHER_S``, not one per command.

What keeps every guarantee of the timers as it was:

- Only committed commands set timers: ``send`` is still called from
  ``transaction.on_commit``.
- Exactly once, only at its version: the task's own (its command id, its
  version check); when it was sent changes nothing.  A timer left out for
  a later one of its table would have done nothing.
- On time: a timer leaves at most ``GATHER_S`` later than it would have,
  a small part of the clocks' allowance (p99 late under 250 ms).
- A process that dies with timers handed over but not yet sent loses them,
  as a broker restarted loses its own: beat's sweeps fire every clock
  overdue by more than ``SWEEP_GRACE_SECONDS``.  A send that fails is
  logged and left to the sweeps the same way.
- A Celery task that sets timers (the next clock after a timeout, a timer
  that came early and is set again, a tournament's next deal) ``flush``es
  before it returns: acknowledged only after it ran (``acks_late``), it is
  acknowledged only once its timers are in the broker, so a worker killed
  at any point loses none (the task runs again, or its timers were sent).
- A forked child (a prefork worker's) starts a dispatcher of its own: the
  parent's thread does not exist there, and what the parent had queued is
  the parent's to send.
"""

from __future__ import annotations

import atexit
import logging
import os
import threading
import time
from collections.abc import Hashable
from dataclasses import dataclass
from datetime import datetime
from queue import Empty, SimpleQueue
from typing import Any

from django.conf import settings

log = logging.getLogger(__name__)

BATCH_MAX = 500
"""Timers sent in one round trip at most."""
GATHER_S = 0.02
"""How long the thread gathers timers after the first before it sends."""
FLUSH_TIMEOUT_S = 10.0
"""How long ``flush`` waits for the sends before it gives up."""
THREAD_NAME = "timer-dispatcher"


@dataclass(frozen=True, slots=True)
class Timer:
    """One ETA task to send: the task, its arguments, when, on which queue."""

    task: Any
    args: tuple[Any, ...]
    when: datetime
    queue: str
    key: Hashable | None = None
    """Timers with one key replace one another (None: none replaces it)."""
    order: int = 0
    """Among timers of one key, the one set last has the highest."""


class Dispatcher:
    """This process's timers on their way to the broker (see the module)."""

    def __init__(self) -> None:
        self._reset()

    def _reset(self) -> None:
        self._queue: SimpleQueue[Timer | threading.Event] = SimpleQueue()
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()

    def send(
        self,
        task: Any,
        args: tuple[Any, ...],
        when: datetime,
        *,
        key: Hashable | None = None,
        order: int = 0,
    ) -> None:
        """Have ``task`` sent with ``args`` for ``when`` on ``CLOCK_QUEUE``;
        returns at once.  ``key``: the timers it replaces and that replace
        it, ``order`` telling which of them was set last (see the module)."""
        if self._thread is None:
            self._start()
        self._queue.put(Timer(task, args, when, settings.CLOCK_QUEUE, key, order))

    def flush(self, timeout: float = FLUSH_TIMEOUT_S) -> bool:
        """Wait until every timer handed over before this call was sent, or
        replaced by a later one that was (or its send failed); whether that
        happened within ``timeout``.  No gathering waits for it."""
        if self._thread is None:
            return True  # nothing was ever handed over in this process
        done = threading.Event()
        self._queue.put(done)
        return done.wait(timeout)

    def _start(self) -> None:
        with self._lock:
            if self._thread is None:
                thread = threading.Thread(target=self._loop, name=THREAD_NAME, daemon=True)
                thread.start()
                self._thread = thread

    def _loop(self) -> None:
        while True:
            batch = [self._queue.get()]
            until = time.monotonic() + GATHER_S
            while len(batch) < BATCH_MAX and isinstance(batch[-1], Timer):  # a flush: send now
                try:
                    batch.append(self._queue.get(timeout=max(0.0, until - time.monotonic())))
                except Empty:
                    break
            _publish(latest([item for item in batch if isinstance(item, Timer)]))
            for item in batch:
                if isinstance(item, threading.Event):
                    item.set()  # every timer queued before it was just sent


def latest(timers: list[Timer]) -> list[Timer]:
    """``timers`` without those a later timer of their key replaces, in order."""
    last: dict[Hashable, Timer] = {}
    for timer in timers:
        if timer.key is not None:
            kept = last.get(timer.key)
            if kept is None or timer.order >= kept.order:
                last[timer.key] = timer
    return [t for t in timers if t.key is None or last[t.key] is t]


def _publish(timers: list[Timer]) -> None:
    """Send ``timers`` on one connection, in one pipelined batch."""
    if not timers:
        return
    from config.celery import app

    try:
        with app.producer_or_acquire() as producer, producer.batch(max_size=BATCH_MAX * 2):
            for timer in timers:
                timer.task.apply_async(
                    timer.args, eta=timer.when, queue=timer.queue, producer=producer
                )
    except Exception:
        log.exception("%d timers not sent: the sweeps fire them once overdue", len(timers))


dispatcher = Dispatcher()
send = dispatcher.send
flush = dispatcher.flush
os.register_at_fork(after_in_child=dispatcher._reset)
atexit.register(flush, 2.0)  # a server that stops sends what it still holds
