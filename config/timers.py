"""Timers sent to the broker off the command's thread.

A timer is a Celery task with an ETA (``poker.clocks``, ``tournaments``),
and sending one is a broker round trip: about a millisecond that every
command used to spend after its commit before it could answer.  Now a
command only hands the timer to its process's ``Dispatcher`` (``send``, a
few microseconds: an append to an in-process queue, ``config.sender``),
and a thread of the dispatcher's sends what has piled up in batches: on
Redis Celery's own messages of the tasks pushed onto their queue in one
round trip, on a connection it keeps (``config.redis_broker``); on the
in-memory broker (tests, the embedded defaults) through ``apply_async``.

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
- A forked child (a prefork worker's) starts a dispatcher of its own, on
  a connection of its own (``config.sender``).
"""

from __future__ import annotations

import logging
from collections.abc import Hashable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.conf import settings

from config.redis_broker import TaskPusher, usable
from config.sender import Sender

log = logging.getLogger(__name__)

BATCH_MAX = 500
"""Timers sent in one round trip at most."""
GATHER_S = 0.02
"""How long the thread gathers timers after the first before it sends."""
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


class Dispatcher(Sender[Timer]):
    """This process's timers on their way to the broker (see the module)."""

    name = THREAD_NAME
    batch_max = BATCH_MAX

    @property
    def gather_s(self) -> float:
        return GATHER_S

    def _reset(self) -> None:
        super()._reset()
        self.forget_broker()

    def forget_broker(self) -> None:
        """Look at the app's broker again before the next send (it was
        pointed elsewhere: ``config.celery.use_broker``)."""
        self._broker: tuple[TaskPusher | None] | None = None

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
        self.put(Timer(task, args, when, settings.CLOCK_QUEUE, key, order))

    def send_batch(self, items: list[Timer]) -> None:
        timers = latest(items)
        try:
            self._publish(timers)
        except Exception:
            log.exception("%d timers not sent: the sweeps fire them once overdue", len(timers))

    def _publish(self, timers: list[Timer]) -> None:
        """Send ``timers``: on Redis in one round trip, else through
        ``apply_async`` on one connection (the in-memory broker)."""
        from config.celery import app

        if self._broker is None:  # the app's settings, looked up once
            self._broker = (TaskPusher(app) if usable(app) else None,)
        pusher = self._broker[0]
        if pusher is not None:
            pusher.push([(t.task, t.args, t.when, t.queue) for t in timers])
            return
        with app.producer_or_acquire() as producer:
            for timer in timers:
                timer.task.apply_async(
                    timer.args, eta=timer.when, queue=timer.queue, producer=producer
                )


def latest(timers: list[Timer]) -> list[Timer]:
    """``timers`` without those a later timer of their key replaces, in order."""
    last: dict[Hashable, Timer] = {}
    for timer in timers:
        if timer.key is not None:
            kept = last.get(timer.key)
            if kept is None or timer.order >= kept.order:
                last[timer.key] = timer
    return [t for t in timers if t.key is None or last[t.key] is t]


dispatcher = Dispatcher()
send = dispatcher.send
flush = dispatcher.flush
