"""Frames out through the channel layer: the one primitive every app's
publishing uses (after its commit), below the apps that decide what to say.

On Redis the layer is channels_redis's ``RedisPubSubChannelLayer``: a
group message is one ``PUBLISH``, and each server process subscribed to
the group (one subscription per process, whatever its sockets there) gets
it once and hands it to each of its sockets in the group.  Nothing is
stored in Redis: a server that is not listening at that moment (Redis
restarted, a connection lost) misses the message, and its sockets fetch
what they missed from the event store, by position, with the next message
(``kernel.consumers.FeedConsumer``).

A command publishes from synchronous code.  ``async_to_sync`` there, with
no event loop running in the thread (a bench, a Celery task, a command run
on a server's database thread), makes a new event loop for every call, and
the pub/sub layer keeps its connections per loop: every command would pay
for a loop and a fresh connection to Redis.  So on Redis a command only
hands its messages to its process's ``Publisher`` (an append to an
in-process queue: ``kernel.sender``), and the publisher's one thread sends
them through the layer's own ``group_send`` in one event loop of its own
that lives as long as the process (one connection, kept).

What this keeps:

- Only committed work is published: ``send_all`` is called from
  ``transaction.on_commit``.
- Order: one thread sends everything in the order it was handed over, so
  a table's frames leave a process in the order its commands committed.
  Across processes there is no order: a socket that sees a position out of
  turn fetches the ones it skipped from the store.
- The layer may drop a message; the event store is the truth.  A send that
  fails is logged and dropped, with the rest of its hand-over.
- A process that stops sends what it still holds (``flush`` at exit); a
  forked child starts a publisher of its own (``kernel.sender``).

The in-memory layer (no ``REDIS_URL``: the embedded defaults, the tests)
holds its queues in the event loop its consumers run in, which another
loop cannot wake, so a send there goes through ``async_to_sync``: onto the
server's loop when one runs.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Mapping, Sequence
from typing import Any, Literal, TypedDict

from asgiref.sync import async_to_sync
from channels.layers import InMemoryChannelLayer, get_channel_layer

from kernel.sender import Sender

log = logging.getLogger(__name__)

Messages = list[tuple[str, Mapping[str, Any]]]
"""(group, frame) pairs: what a command sends, in order."""
Outgoing = Sequence[tuple[str, Mapping[str, Any]]]


class LayerMessage(TypedDict):
    """A frame as the consumers' ``frame`` handler receives it."""

    type: Literal["frame"]
    frame: Mapping[str, Any]


THREAD_NAME = "frame-publisher"


def send_all(messages: Outgoing) -> None:
    """Send (group, frame) pairs through the channel layer, in order: on
    Redis from the process's publisher (returns at once), in memory here."""
    layer = get_channel_layer()
    if layer is None or not messages:
        return
    if isinstance(layer, InMemoryChannelLayer):
        async_to_sync(_send_all)(layer, messages)
    else:
        publisher.send(layer, messages)


async def _send_all(layer: Any, messages: Outgoing) -> None:
    """A command's frames, sent in order: one ``group_send`` each."""
    for group, frame in messages:
        await layer.group_send(group, _message(frame))


def _message(frame: Mapping[str, Any]) -> LayerMessage:
    return {"type": "frame", "frame": frame}


class Publisher(Sender[tuple[Any, Outgoing]]):
    """This process's frames on their way to a channel layer that any
    event loop may use (Redis): see the module."""

    name = THREAD_NAME

    def _reset(self) -> None:
        super()._reset()
        self._loop: asyncio.AbstractEventLoop | None = None

    def send(self, layer: Any, messages: Outgoing) -> None:
        """Have ``messages`` sent through ``layer`` after everything handed
        over before them; returns at once."""
        self.put((layer, messages))

    def send_batch(self, items: list[tuple[Any, Outgoing]]) -> None:
        """Each hand-over in turn, in the thread's one event loop."""
        if self._loop is None:
            self._loop = asyncio.new_event_loop()
        self._loop.run_until_complete(_send_batch(items))


async def _send_batch(items: list[tuple[Any, Outgoing]]) -> None:
    for layer, messages in items:
        try:
            await _send_all(layer, messages)
        except Exception:
            log.exception("%d frames lost: clients catch up from the store", len(messages))


publisher = Publisher()
flush = publisher.flush
