"""Frames out through the channel layer: the one primitive every app's
publishing uses (after its commit), below the apps that decide what to say.

A command publishes from synchronous code.  ``async_to_sync`` there, with
no event loop running in the thread (a bench, a Celery task, a management
command), makes a new event loop in a new thread for every call, and the
Redis layer keeps its connections per loop: every command paid for a loop,
a thread and a fresh connection to Redis, a third of its CPU.  So on Redis
a command only hands its messages to its process's ``Publisher`` (an
append to an in-process queue: ``config.sender``), and the publisher's one
thread sends whatever has piled up at once, as the layer's ``group_send``
would, in one round trip (two when a group has members) on connections it
keeps (``config.redis_groups``); a layer it cannot send that way goes
through its own ``group_send`` in an event loop of the thread's that
lives as long as the process.

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
  forked child starts a publisher of its own (``config.sender``).

The in-memory layer (no ``REDIS_URL``: the embedded defaults, the tests)
holds its queues in the event loop its consumers run in, which another
loop cannot wake, so a send there still goes through ``async_to_sync``:
onto the server's loop when one runs, as before.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import InMemoryChannelLayer, get_channel_layer

from config.redis_groups import GroupSender, usable
from config.sender import Sender

log = logging.getLogger(__name__)

Messages = list[tuple[str, dict[str, Any]]]

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


class Publisher(Sender[tuple[Any, Messages]]):
    """This process's frames on their way to a channel layer that any
    event loop may use (Redis): see the module."""

    name = THREAD_NAME

    def _reset(self) -> None:
        super()._reset()
        self._sender: GroupSender | None = None
        self._loop: asyncio.AbstractEventLoop | None = None

    def send(self, layer: Any, messages: Messages) -> None:
        """Have ``messages`` sent through ``layer`` after everything handed
        over before them; returns at once."""
        self.put((layer, messages))

    def send_batch(self, items: list[tuple[Any, Messages]]) -> None:
        for layer, messages in self._runs(items):
            try:
                self._send(layer, messages)
            except Exception:
                log.exception("%d frames lost: clients catch up from the store", len(messages))

    def _send(self, layer: Any, messages: Messages) -> None:
        """All of ``messages`` at once, as ``group_send`` would send each,
        or one by one through the layer's own in the thread's one loop."""
        sender = self._group_sender(layer)
        if sender is not None:
            sender.send([(group, _message(frame)) for group, frame in messages])
        else:
            self._loop = self._loop or asyncio.new_event_loop()
            self._loop.run_until_complete(_send_all(layer, messages))

    def _group_sender(self, layer: Any) -> GroupSender | None:
        """What sends to ``layer`` many messages at once (None: it cannot)."""
        if self._sender is None or self._sender.layer is not layer:
            if not usable(layer):
                return None
            self._sender = GroupSender(layer)
        return self._sender

    def _runs(self, items: list[tuple[Any, Messages]]) -> list[tuple[Any, Messages]]:
        """The hand-overs of a batch, in order, those in a row for one
        layer that takes many at once made one."""
        out: list[tuple[Any, Messages]] = []
        for layer, messages in items:
            if out and out[-1][0] is layer and self._group_sender(layer) is not None:
                out[-1][1].extend(messages)
            else:
                out.append((layer, list(messages)))
        return out


publisher = Publisher()
flush = publisher.flush
