"""WebSocket clients of a table's feed (``ws/tables/<id>/``), over real
sockets with the ``websockets`` library, as a browser would connect: an
``Origin`` of the server's own host, a ticket asked with the player's API
token in the query string (a new one for each connection)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import uuid
from typing import Any

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from bench.tickets import ws_ticket
from tests.integration.cluster import Server

WAIT_S = 10


class FeedClient:
    """One socket on one server: everything it received, in order."""

    def __init__(
        self,
        label: str,
        server: Server,
        table: int,
        token: str | None = None,
        after: int | None = 0,
        player: str | None = None,
    ) -> None:
        self.label = label
        self.player = player
        """The player whose token it uses (None: a spectator)."""
        self.server = server
        self.table = table
        self.token = token
        self.after = after
        self.received: list[dict[str, Any]] = []
        """Every frame of every connection of this client, in order."""
        self.afters: list[int | None] = []
        """The ``after`` of each connection, in order."""
        self.closed = True
        self._ws: ClientConnection | None = None
        self._reader: asyncio.Task[None] | None = None
        self._changed = asyncio.Event()
        self._answers: dict[str, asyncio.Future[dict[str, Any]]] = {}

    def __repr__(self) -> str:
        return f"<{self.label} on {self.server.name}>"

    # -- frames ---------------------------------------------------------------

    @property
    def public(self) -> list[dict[str, Any]]:
        return [f for f in self.received if f["type"] == "event"]

    @property
    def private(self) -> list[dict[str, Any]]:
        return [f for f in self.received if f["type"] == "private"]

    @property
    def snapshots(self) -> list[dict[str, Any]]:
        return [f for f in self.received if f["type"] == "snapshot"]

    @property
    def last_position(self) -> int:
        """The last feed position this client saw (its snapshot's, if no
        frame came after it)."""
        for frame in reversed(self.received):
            if frame["type"] in ("event", "private", "snapshot"):
                return int(frame["position"])
        return 0

    # -- connection -----------------------------------------------------------

    def url(self, after: int | None, ticket: str | None = None) -> str:
        query = []
        if after is not None:
            query.append(f"after={after}")
        if ticket is not None:
            query.append(f"ticket={ticket}")
        return f"{self.server.ws}/ws/tables/{self.table}/" + (
            "?" + "&".join(query) if query else ""
        )

    async def open(self, after: int | None = None, server: Server | None = None) -> FeedClient:
        """Connect (again), from ``after`` (default: as constructed for the
        first connection, else the last position seen)."""
        if server is not None:
            self.server = server
        if not self.afters:
            after = self.after if after is None else after
        elif after is None:
            after = self.last_position
        ticket = None
        if self.token is not None:
            ticket = await asyncio.to_thread(ws_ticket, self.server.http, self.token)
        self._ws = await connect(
            self.url(after, ticket),
            origin=f"http://127.0.0.1:{self.server.port}",  # type: ignore[arg-type]
            open_timeout=WAIT_S,
            max_size=2**22,
        )
        self.afters.append(after)
        self.closed = False
        self._reader = asyncio.create_task(self._read(self._ws))
        return self

    async def _read(self, ws: ClientConnection) -> None:
        try:
            async for raw in ws:
                frame = json.loads(raw)
                self.received.append(frame)
                if (
                    frame["type"] in ("answer", "error")
                    and frame.get("command_id") in self._answers
                ):
                    future = self._answers.pop(frame["command_id"])
                    if not future.done():
                        future.set_result(frame)
                self._changed.set()
        except ConnectionClosed:
            pass
        finally:
            self.closed = True
            self._changed.set()

    async def close(self) -> None:
        if self._ws is not None:
            await self._ws.close()
        if self._reader is not None:
            with contextlib.suppress(asyncio.CancelledError):
                await self._reader

    async def wait_closed(self) -> None:
        """Until the server's end of the socket is gone (the reader ends)."""
        if self._reader is not None:
            await asyncio.wait_for(asyncio.shield(self._reader), WAIT_S)

    async def until(self, position: int, timeout: float = WAIT_S) -> None:
        """Until this client has seen feed position ``position``."""
        async with asyncio.timeout(timeout):
            while self.last_position < position:
                if self.closed:
                    raise AssertionError(f"{self} was closed at {self.last_position} < {position}")
                self._changed.clear()
                await self._changed.wait()

    # -- acting ---------------------------------------------------------------

    async def act(self, hand: dict[str, Any], action: str, **more: Any) -> dict[str, Any]:
        """One action at the version of ``hand`` (a hand view); the answer frame."""
        assert self._ws is not None and not self.closed, f"{self} is not connected"
        command_id = str(uuid.uuid4())
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._answers[command_id] = future
        body = {
            "type": "act",
            "hand": hand["id"],
            "version": hand["version"],
            "command_id": command_id,
            "action": action,
            **more,
        }
        await self._ws.send(json.dumps(body))
        return await asyncio.wait_for(future, WAIT_S)
