"""Frames out through the channel layer: the one primitive every app's
publishing uses (after its commit), below the apps that decide what to say.

A command publishes from synchronous code.  ``async_to_sync`` there, with
no event loop running in the thread (a bench, a Celery task, a management
command), makes a new event loop in a new thread for every call, and the
Redis layer keeps its connections per loop: every command paid for a loop,
a thread and a fresh connection to Redis, a third of its CPU.  So on Redis
a command only hands its messages to its process's ``Publisher`` (an
append to an in-process queue), and the publisher's one thread sends
whatever has piled up at once, as the layer's ``group_send`` would, in two
pipelined round trips on connections it keeps (``config.redis_groups``);
a layer it cannot send that way goes through its own ``group_send`` in an
event loop of the thread's that lives as long as the process.

What stays as it was:

- Only committed work is published: ``send_all`` is still called from
  ``transaction.on_commit``.
- Order: one thread sends everything in the order it was handed over, so
  a table's frames leave a process in the order its commands committed
  (and reach each channel in that order: the Redis layer orders a
  channel's messages by the time they were sent, which the sender keeps
  increasing).
- The layer may drop a message; the event store is the truth (a client
  that misses a position asks for it).  A send that fails is logged and
  dropped, as Redis would lose it (with the rest of its turn).
- A process that stops sends what it still holds (``flush`` at exit); a
  forked child starts a publisher of its own (the parent's thread is not
  there, and what the parent had queued is the parent's to send).

The in-memory layer (no ``REDIS_URL``: the embedded defaults, the tests)
holds its queues in the event loop its consumers run in, which another
loop cannot wake, so a send there still goes through ``async_to_sync``:
onto the server's loop when one runs, as before.
"""

from __future__ import annotations

import asyncio
import atexit
import logging
import os
import threading
from queue import Empty, SimpleQueue
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import InMemoryChannelLayer, get_channel_layer

from config.redis_groups import GroupSender, usable

log = logging.getLogger(__name__)

Messages = list[tuple[str, dict[str, Any]]]

FLUSH_TIMEOUT_S = 10.0
"""How long ``flush`` waits for the sends before it gives up."""
BATCH_MAX = 500
"""Hand-overs sent in one turn of the publisher's loop at most."""
THREAD_NAME = "frame-publisher"


def send_all(messages: Messages) -> None:
    """Send (group, frame) pairs through the channel layer, in order: on
    Redis from the process's publisher (returns at once), in memory here."""
    layer = get_channel_layer()
    if layer is None or not messages:
        return
    if isinstance(layer, InMemoryChannelLayer):
        async_to_sync(_send_all)(layer, messages)
    else:
        publisher.send(layer, messages)


async def _send_all(layer: Any, messages: Messages) -> None:
    """A command's frames, sent in order."""
    for group, frame in messages:
        await layer.group_send(group, _message(frame))


def _message(frame: dict[str, Any]) -> dict[str, Any]:
    """A frame as the consumers' ``frame`` handler receives it."""
    return {"type": "frame", "frame": frame}


class Publisher:
    """This process's frames on their way to a channel layer that any
    event loop may use (Redis): see the module."""

    def __init__(self) -> None:
        self._reset()

    def _reset(self) -> None:
        self._queue: SimpleQueue[tuple[Any, Messages] | threading.Event] = SimpleQueue()
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()
        self._sender: GroupSender | None = None
        self._loop: asyncio.AbstractEventLoop | None = None

    def send(self, layer: Any, messages: Messages) -> None:
        """Have ``messages`` sent through ``layer`` after everything handed
        over before them; returns at once."""
        if self._thread is None:
            self._start()
        self._queue.put((layer, messages))

    def flush(self, timeout: float = FLUSH_TIMEOUT_S) -> bool:
        """Wait until every message handed over before this call was sent
        (or its send failed); whether that happened within ``timeout``."""
        if self._thread is None:
            return True  # nothing was ever handed over in this process
        done = threading.Event()
        self._queue.put(done)
        return done.wait(timeout)

    def _start(self) -> None:
        with self._lock:
            if self._thread is None:
                thread = threading.Thread(target=self._run, name=THREAD_NAME, daemon=True)
                thread.start()
                self._thread = thread

    def _run(self) -> None:
        while True:
            batch = [self._queue.get()]
            while len(batch) < BATCH_MAX:
                try:
                    batch.append(self._queue.get_nowait())
                except Empty:
                    break
            for layer, messages in _runs(batch):
                try:
                    self._send(layer, messages)
                except Exception:
                    log.exception("%d frames lost: clients catch up from the store", len(messages))
            for item in batch:
                if isinstance(item, threading.Event):
                    item.set()  # every message queued before it was just sent

    def _send(self, layer: Any, messages: Messages) -> None:
        """All of ``messages`` at once, as ``group_send`` would send each,
        or one by one through the layer's own in the thread's one loop."""
        if usable(layer):
            if self._sender is None or self._sender.layer is not layer:
                self._sender = GroupSender(layer)
            self._sender.send([(group, _message(frame)) for group, frame in messages])
        else:
            self._loop = self._loop or asyncio.new_event_loop()
            self._loop.run_until_complete(_send_all(layer, messages))


def _runs(batch: list[Any]) -> list[tuple[Any, Messages]]:
    """The hand-overs of a turn of the queue, in order, those in a row
    for one Redis layer sent at once made one."""
    out: list[tuple[Any, Messages]] = []
    for item in batch:
        if isinstance(item, threading.Event):
            continue
        layer, messages = item
        if out and out[-1][0] is layer and usable(layer):
            out[-1][1].extend(messages)
        else:
            out.append((layer, list(messages)))
    return out


publisher = Publisher()
flush = publisher.flush
os.register_at_fork(after_in_child=publisher._reset)
atexit.register(flush, 2.0)  # a server that stops sends what it still holds
