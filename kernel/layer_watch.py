"""Whether this process hears the Redis channel layer, told to its sockets.

The pub/sub layer keeps nothing for a listener that is not there: while a
server's connection to Redis is down (Redis restarted, a network cut), the
messages published meanwhile are gone for its sockets, and once redis-py
has connected again (subscribing again to everything it had) nothing says
so.  A table socket fetches what it skipped with its table's next message,
but a table that stands still, the lobby or a wallet would stay behind.

So each event loop that has sockets on the layer keeps one ``Watch``: a
channel of the layer's own, to which it sends a probe every ``PROBE_S``
and which it reads as the sockets read theirs.  A probe that cannot be
sent (Redis away), or that does not come back within ``ECHO_S``, means
the process may have missed messages; the next one that comes back means
the subscriptions are in place again (redis-py subscribes again to
everything on the connection it makes anew before reading from it), and
each socket of the loop gets a ``layer.resumed`` message (through the
layer), on which its stream catches up from the store
(``kernel.consumers.JsonFrames.layer_resumed``).  ``ECHO_S`` is generous:
a busy loop answers late, and a late answer costs every socket a read of
the store.

A restart short enough to fall between two probes can go unnoticed here;
a table socket then still catches up with its table's next message.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

log = logging.getLogger(__name__)

PROBE_S = 1.0
"""Seconds between two probes."""
ECHO_S = 10.0
"""Seconds a probe may take to be sent and come back."""

RESUMED = {"type": "layer.resumed"}

_watches: dict[tuple[asyncio.AbstractEventLoop, int], Watch] = {}


def watch(layer: Any, channel: str) -> None:
    """Tell ``channel`` (a socket's, on the running loop) when ``layer``
    is heard again after this process may have missed messages."""
    key = (asyncio.get_running_loop(), id(layer))
    found = _watches.get(key)
    if found is None:
        found = _watches[key] = Watch(layer, key)
    found.channels.add(channel)


def unwatch(layer: Any, channel: str) -> None:
    """``channel``'s socket is gone."""
    found = _watches.get((asyncio.get_running_loop(), id(layer)))
    if found is not None:
        found.channels.discard(channel)


class Watch:
    """The probes of one event loop on one layer: see the module."""

    def __init__(self, layer: Any, key: tuple[asyncio.AbstractEventLoop, int]) -> None:
        self.layer = layer
        self.key = key
        self.channels: set[str] = set()
        self.echoes: asyncio.Queue[int] = asyncio.Queue()
        self.task = asyncio.ensure_future(self._run())

    async def _run(self) -> None:
        try:
            channel = await self._own_channel()
            reader = asyncio.ensure_future(self._read(channel))
            try:
                await self._probe(channel)
            finally:
                reader.cancel()
        finally:
            if _watches.get(self.key) is self:
                del _watches[self.key]

    async def _own_channel(self) -> str:
        while True:
            try:
                return str(await self.layer.new_channel("watch."))
            except Exception as error:  # Redis away: try again
                log.warning("channel layer unreachable: %s", error)
                await asyncio.sleep(PROBE_S)

    async def _read(self, channel: str) -> None:
        """The probes that came back, by number."""
        while True:
            try:
                message = await self.layer.receive(channel)
            except Exception:  # Redis away: the probes say so
                await asyncio.sleep(PROBE_S)
                continue
            self.echoes.put_nowait(message["n"])

    async def _probe(self, channel: str) -> None:
        """One probe every ``PROBE_S`` until no socket is left; after one
        that failed, the next that comes back resumes every socket."""
        missed = False
        n = 0
        while self.channels or n == 0:
            n += 1
            if not await self._round_trip(channel, n):
                missed = True
            elif missed:
                missed = not await self._resume()
            await asyncio.sleep(PROBE_S)

    async def _resume(self) -> bool:
        """``layer.resumed`` to every socket; whether it went out."""
        log.warning("channel layer heard again: %d sockets catch up", len(self.channels))
        try:
            for socket in list(self.channels):
                await self.layer.send(socket, RESUMED)
        except Exception:
            return False
        return True

    async def _round_trip(self, channel: str, n: int) -> bool:
        """Whether probe ``n`` went out and came back within ``ECHO_S``."""
        try:
            async with asyncio.timeout(ECHO_S):
                await self.layer.send(channel, {"type": "probe", "n": n})
                while await self.echoes.get() != n:
                    pass
        except Exception:
            return False
        return True
