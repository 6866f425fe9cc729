"""The Redis channel layer with one reader per process for its sockets.

``channels_redis`` (4.3) receives a process's messages (``specific.<its
prefix>!<socket>``, all in one Redis key) through whichever socket's
``receive`` holds a lock: every socket waiting on the layer keeps two
tasks (the lock and its own buffer), and each message costs four round
trips to Redis (move the in-flight copy back, ``BZPOPMIN``, keep an
in-flight copy, drop it), one message after the other.  At a table's
message a second, that was a large share of a server's CPU per action.

``ProcessChannelLayer.receive`` instead hands each socket its messages
from one reader per event loop (``_read``): one ``BZMPOP`` (Redis 7)
takes every message waiting in the process's key, each is decoded once
and given to each of its sockets (a message carries the process's
channels it was sent to, as ``GroupSender`` and the layer's own
``group_send`` address it), the same object to all.  A socket waiting
costs one future, no task.

What stays as it was:

- Order: the key's messages are taken lowest score first, as sent, and
  given out in that order.
- Each socket buffers at most the layer's ``capacity`` messages; beyond
  that its oldest is dropped (a socket that stopped reading).
- Redis out of reach: every socket's next ``receive`` raises the error
  (``config.outage`` errors), those waiting at once, so that each socket
  joins its groups again once Redis answers (``poker.consumers.JsonFrames``);
  the next ``receive`` starts a new reader.
- A message popped but not yet given out when the process dies is lost,
  as the layer may lose one anyway (the event store is the truth).  The
  layer's in-flight copies guarded against a ``receive`` cancelled
  mid-read; here no socket's cancellation reaches the reader.

Channels not of the process (``receive`` of a name without ``!``) and
everything on the sending side are the layer's own.
"""

from __future__ import annotations

import asyncio
import logging
from collections import deque
from typing import Any

from channels_redis.core import RedisChannelLayer

log = logging.getLogger(__name__)

BATCH = 100
"""Messages one ``BZMPOP`` takes at most."""


class ProcessChannelLayer(RedisChannelLayer):  # type: ignore[misc]
    """``RedisChannelLayer`` whose process channels are read by one task per
    event loop and process key: see the module.

    The sockets' boxes are the layer's, whatever loop fills them (as the
    layer's own buffers are): a caller that receives through a new event
    loop each time (``async_to_sync``) loses nothing a reader of an earlier
    loop took.  A box's waiting ``receive`` is woken by a reader on its own
    loop; one on another loop leaves the message in the box."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.boxes: dict[str, Box] = {}
        self.readers: dict[tuple[asyncio.AbstractEventLoop, str], asyncio.Task[None]] = {}

    async def new_channel(self, prefix: str = "specific") -> str:
        channel: str = await super().new_channel(prefix)
        self._box(channel)
        return channel

    def _box(self, channel: str) -> Box:
        """The box of ``channel``: messages to it are kept from now on."""
        box = self.boxes.get(channel)
        if box is None:
            box = self.boxes[channel] = Box()
        return box

    async def receive(self, channel: str) -> dict[str, Any]:
        """The next message to ``channel``; for a process channel, the
        error that stopped its reader first, if one stopped since this
        channel's last ``receive``."""
        if "!" not in channel:
            message: dict[str, Any] = await super().receive(channel)
            return message
        assert self.require_valid_channel_name(channel)
        box = self._box(channel)
        if box.error is not None:
            error, box.error = box.error, None
            raise error
        if box.items:
            return box.items.popleft()
        loop = asyncio.get_running_loop()
        where = (loop, self.non_local_name(channel))
        if where not in self.readers:
            self.readers[where] = loop.create_task(self._read(*where))
        box.waiter = loop.create_future()
        try:
            return await box.waiter
        except asyncio.CancelledError:
            self._close(channel, where)
            raise
        finally:
            box.waiter = None

    def _close(self, channel: str, where: tuple[asyncio.AbstractEventLoop, str]) -> None:
        """The socket stopped receiving: its box goes, and the reader of its
        key with the last box there."""
        self.boxes.pop(channel, None)
        if not any(self.non_local_name(other) == where[1] for other in self.boxes):
            reader = self.readers.pop(where, None)
            if reader is not None:
                reader.cancel()

    async def _read(self, loop: asyncio.AbstractEventLoop, name: str) -> None:
        """Take the messages of process key ``name`` and give them out,
        until the loop ends, the last socket stops or Redis fails."""
        connection = self.connection(self.consistent_hash(name))
        key = self.prefix + name
        try:
            while True:
                popped = await connection.bzmpop(
                    self.brpop_timeout, 1, [key], min=True, count=BATCH
                )
                if popped:
                    for member, _ in popped[1]:
                        self._give(self.deserialize(member), loop)
        except asyncio.CancelledError:  # the loop ends, or its last socket stopped
            if self.readers.get((loop, name)) is asyncio.current_task():
                del self.readers[(loop, name)]
            raise
        except Exception as error:
            self._fail(error, loop, name)

    def _give(self, message: dict[str, Any], loop: asyncio.AbstractEventLoop) -> None:
        """``message`` to each of its channels that has a box (the same
        object to all)."""
        channels = message.pop("__asgi_channel__", None)
        for channel in channels if isinstance(channels, list) else (channels,):
            box = self.boxes.get(channel)
            if box is None:
                continue  # its socket is gone
            waiter = box.waiter
            if waiter is not None and not waiter.done() and waiter.get_loop() is loop:
                waiter.set_result(message)
            else:
                if len(box.items) >= self.capacity:
                    box.items.popleft()
                box.items.append(message)

    def _fail(self, error: Exception, loop: asyncio.AbstractEventLoop, name: str) -> None:
        """The reader of ``name`` stopped on ``error``: each of its sockets
        hears of it, at once if it waits; the next ``receive`` starts
        another reader."""
        log.warning("channel layer reader stopped: %s", error)
        self.readers.pop((loop, name), None)
        for channel, box in self.boxes.items():
            if self.non_local_name(channel) != name:
                continue
            if box.waiter is not None and not box.waiter.done():
                box.waiter.set_exception(error)
            else:
                box.error = error


class Box:
    """One socket's messages not yet taken, and its ``receive`` waiting."""

    __slots__ = ("error", "items", "waiter")

    def __init__(self) -> None:
        self.items: deque[dict[str, Any]] = deque()
        self.waiter: asyncio.Future[dict[str, Any]] | None = None
        self.error: BaseException | None = None
