"""A TCP relay that can slow one server's link to Redis down, on demand.

It runs its own event loop in a thread of its own (so it keeps relaying
whatever the test's loop does), accepts on a free port of 127.0.0.1 and
relays every connection to the target.  While ``delay`` is set, each chunk
from the client is held that long before it goes on (order kept): the
server's Redis commands, its channel layer's ``group_send`` among them,
arrive late, as on a congested network.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading


class SlowLink:
    def __init__(self, host: str, port: int) -> None:
        self.host, self.target = host, port
        self.delay = 0.0
        self._writers: set[asyncio.StreamWriter] = set()
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, daemon=True)
        self._thread.start()
        self.port: int = asyncio.run_coroutine_threadsafe(self._listen(), self._loop).result(5)

    async def _listen(self) -> int:
        self._server = await asyncio.start_server(self._relay, "127.0.0.1", 0)
        port: int = self._server.sockets[0].getsockname()[1]
        return port

    async def _relay(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            up_reader, up_writer = await asyncio.open_connection(self.host, self.target)
        except OSError:
            writer.close()
            return
        self._writers |= {writer, up_writer}
        await asyncio.gather(
            self._pump(reader, up_writer, slow=True), self._pump(up_reader, writer, slow=False)
        )

    async def _pump(
        self, source: asyncio.StreamReader, sink: asyncio.StreamWriter, slow: bool
    ) -> None:
        try:
            while data := await source.read(65536):
                if slow and self.delay:
                    await asyncio.sleep(self.delay)
                sink.write(data)
                await sink.drain()
        except (ConnectionError, OSError):
            pass
        finally:
            self._writers.discard(sink)
            sink.close()

    def url(self, db: int) -> str:
        return f"redis://127.0.0.1:{self.port}/{db}"

    def close(self) -> None:
        async def stop() -> None:
            self._server.close()
            for writer in list(self._writers):
                writer.close()
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._server.wait_closed(), 2)

        asyncio.run_coroutine_threadsafe(stop(), self._loop).result(5)
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(5)
