"""The ASGI servers read WebSocket messages no larger than a consumer
accepts (``MAX_FRAME``, 16 KiB), as they are run (``make run``'s daphne,
the deployed uvicorn): a client cannot make a server buffer megabytes
before the consumer refuses them.  A message over the limit closes the
socket; one at the limit is still read."""

from __future__ import annotations

import asyncio
import json
import os
from collections.abc import Iterator
from typing import Any

import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from kernel.consumers import MAX_FRAME
from tests.integration.cluster import Server
from tests.integration.room import Cluster

pytestmark = [pytest.mark.postgres, pytest.mark.redis]

WAIT_S = 10
RUNNERS = ("daphne", "uvicorn")
TOO_BIG = 1009


@pytest.fixture(scope="module")
def servers() -> Iterator[dict[str, Server]]:
    cluster = Cluster(
        os.environ.get("TEST_DATABASE_URL") or "postgres://postgres@127.0.0.1:5432/test",
        os.environ.get("REDIS_URL") or "redis://127.0.0.1:6379/0",
    )
    started: dict[str, Server] = {}
    try:
        for runner in RUNNERS:
            server = Server(f"frames-{runner}", cluster.db.url, cluster.redis.url, runner=runner)
            cluster.started.append(server)
            started[runner] = server.start()
        yield started
    finally:
        cluster.close()


def lobby(server: Server) -> Any:
    origin = f"http://127.0.0.1:{server.port}"
    return connect(f"{server.ws}/ws/lobby/", origin=origin, open_timeout=WAIT_S, max_size=None)  # type: ignore[arg-type]


async def next_frame(ws: Any) -> dict[str, Any]:
    frame: dict[str, Any] = json.loads(await asyncio.wait_for(ws.recv(), WAIT_S))
    return frame


@pytest.mark.parametrize("runner", RUNNERS)
async def test_a_message_over_the_limit_ends_the_socket_unread(servers, runner):
    """Ended by the server before the consumer sees it (no ``malformed``
    answer): uvicorn closes with 1009, daphne drops the connection."""
    answers = []
    async with lobby(servers[runner]) as ws:
        await next_frame(ws)  # the lobby as it is
        await ws.send(json.dumps({"type": "ping", "pad": "x" * (4 * MAX_FRAME)}))
        with pytest.raises(ConnectionClosed) as closed:
            while True:
                answers.append(await next_frame(ws))
    assert not [a for a in answers if a["type"] == "error"], answers
    if runner == "uvicorn":
        assert closed.value.rcvd is not None and closed.value.rcvd.code == TOO_BIG


@pytest.mark.parametrize("runner", RUNNERS)
async def test_a_message_at_the_limit_is_read(servers, runner):
    ping = {"type": "ping", "pad": ""}
    ping["pad"] = "x" * (MAX_FRAME - len(json.dumps(ping)))
    assert len(json.dumps(ping).encode()) == MAX_FRAME
    async with lobby(servers[runner]) as ws:
        await next_frame(ws)
        await ws.send(json.dumps(ping))
        frame = await next_frame(ws)
        while frame["type"] != "pong":
            frame = await next_frame(ws)
