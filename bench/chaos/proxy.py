"""The local proxy in front of the ASGI servers: a TCP proxy on the bots'
event loop, round robin over the servers, sticky nothing (any server can
serve any client).

A connection goes to the next server in turn; one that refuses (killed)
is skipped for the next, so the clients of a dead server come back
through the proxy to a live one.  ``drop`` cuts a share of the open
connections at once (both sides reset), as a network blip would.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import random

CHUNK = 65536


class Proxy:
    def __init__(self, backends: list[int]) -> None:
        self.backends = backends
        self._turn = itertools.count()
        self.port = 0
        self.server: asyncio.Server | None = None
        self.open: set[tuple[asyncio.StreamWriter, asyncio.StreamWriter]] = set()
        self.refused = 0
        """Connections a server refused (the next one took them)."""

    async def start(self) -> None:
        self.server = await asyncio.start_server(self._serve, "127.0.0.1", 0, backlog=4096)
        self.port = self.server.sockets[0].getsockname()[1]

    async def close(self) -> None:
        if self.server is not None:
            self.server.close()
        for pair in list(self.open):
            for writer in pair:
                writer.transport.abort()

    async def _connect(self) -> tuple[asyncio.StreamReader, asyncio.StreamWriter] | None:
        first = next(self._turn)
        for k in range(len(self.backends)):
            port = self.backends[(first + k) % len(self.backends)]
            try:
                return await asyncio.open_connection("127.0.0.1", port)
            except OSError:
                self.refused += 1
        return None

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        upstream = await self._connect()
        if upstream is None:
            writer.transport.abort()
            return
        up_reader, up_writer = upstream
        pair = (writer, up_writer)
        self.open.add(pair)
        try:
            await asyncio.gather(_pipe(reader, up_writer), _pipe(up_reader, writer))
        finally:
            self.open.discard(pair)
            for w in pair:
                w.transport.abort()

    def drop(self, share: float, rng: random.Random) -> int:
        """Cut ``share`` of the open connections at once; how many."""
        pairs = sorted(self.open, key=id)
        chosen = rng.sample(pairs, round(len(pairs) * share))
        for pair in chosen:
            for writer in pair:
                writer.transport.abort()
        return len(chosen)


async def _pipe(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    """Copy until either side ends; then end the other."""
    with contextlib.suppress(OSError, asyncio.IncompleteReadError):
        while data := await reader.read(CHUNK):
            writer.write(data)
            await writer.drain()
    writer.transport.abort()
