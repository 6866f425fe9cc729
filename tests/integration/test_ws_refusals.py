"""WebSocket refusals and the Origin rule on real servers (daphne, as
deployed, and uvicorn), with a real client (the ``websockets`` library).

A refused socket is accepted, gets an error frame saying why, and is closed
with the refusal's code (4401, 4403, 4404); uvicorn also passes the close
reason on, daphne drops it (hence the frame).  A client with a ticket needs
no Origin header; without one, the Origin must be this site's own (scheme,
host and port).  An unknown path is refused with 4404, not an HTTP 500.
"""

from __future__ import annotations

import asyncio
import json
import os
from collections.abc import Iterator
from typing import Any

import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from bench.tickets import ws_ticket
from tests.integration.cluster import Server
from tests.integration.room import Cluster

pytestmark = [pytest.mark.postgres, pytest.mark.redis]

WAIT_S = 10
RUNNERS = ("daphne", "uvicorn")


@pytest.fixture(scope="module")
def cluster() -> Iterator[tuple[Cluster, dict[str, Server], dict[str, Any]]]:
    cluster = Cluster(
        os.environ.get("TEST_DATABASE_URL") or "postgres://postgres@127.0.0.1:5432/test",
        os.environ.get("REDIS_URL") or "redis://127.0.0.1:6379/0",
    )
    servers: dict[str, Server] = {}
    try:
        seeded = cluster.db.seed(prefix="refuse", players=["ann"])
        for runner in RUNNERS:
            server = Server(runner, cluster.db.url, cluster.redis.url, runner=runner)
            cluster.started.append(server)
            servers[runner] = server.start()
        yield cluster, servers, seeded
    finally:
        cluster.close()


async def refusal(url: str, origin: str | None) -> tuple[int, str, dict[str, Any]]:
    """(close code, close reason, the one frame before the close)."""
    async with connect(url, origin=origin, open_timeout=WAIT_S) as ws:  # type: ignore[arg-type]
        frame = json.loads(await asyncio.wait_for(ws.recv(), WAIT_S))
        with pytest.raises(ConnectionClosed) as closed:
            await asyncio.wait_for(ws.recv(), WAIT_S)
    received = closed.value.rcvd
    assert received is not None
    return received.code, received.reason, frame


def reason_on_the_wire(runner: str, reason: str) -> str:
    return "" if runner == "daphne" else reason


@pytest.mark.parametrize("runner", RUNNERS)
async def test_a_refused_socket_says_why_with_a_frame_and_a_close_code(cluster, runner):
    _, servers, seeded = cluster
    server = servers[runner]
    allowed = f"http://127.0.0.1:{server.port}"
    cases = [
        (f"{server.ws}/ws/me/", allowed, 4401, "not_authenticated"),
        (f"{server.ws}/ws/lobby/", "http://evil.example", 4403, "origin_refused"),
        (f"{server.ws}/ws/lobby/", None, 4403, "origin_refused"),
        (f"{server.ws}/ws/tables/{seeded['table'] + 1000}/", allowed, 4404, "not_found"),
        (f"{server.ws}/ws/lobby/", f"http://127.0.0.1:{server.port + 1}", 4403, "origin_refused"),
        (f"{server.ws}/ws/lobby/", f"https://127.0.0.1:{server.port}", 4403, "origin_refused"),
        (f"{server.ws}/ws/nope/", allowed, 4404, "not_found"),
        (f"{server.ws}/ws/tables/abc/", allowed, 4404, "not_found"),
    ]
    for url, origin, code, error in cases:
        got_code, reason, frame = await refusal(url, origin)
        assert (got_code, frame["type"], frame["code"]) == (code, "error", error), url
        assert frame["message"] and reason == reason_on_the_wire(runner, frame["message"])


@pytest.mark.parametrize("runner", RUNNERS)
async def test_a_ticket_opens_a_socket_without_an_origin(cluster, runner):
    _, servers, seeded = cluster
    server = servers[runner]
    ann = seeded["players"][0]
    url = f"{server.ws}/ws/me/?ticket={ws_ticket(server.http, ann['token'])}"
    async with connect(url, open_timeout=WAIT_S) as ws:
        frame = json.loads(await asyncio.wait_for(ws.recv(), WAIT_S))
    assert frame["type"] == "wallet" and frame["wallet"]["user"] == ann["id"]
    ticket = ws_ticket(server.http, ann["token"])
    table = f"{server.ws}/ws/tables/{seeded['table']}/?ticket={ticket}"
    async with connect(table, origin="http://evil.example", open_timeout=WAIT_S) as ws:  # type: ignore[arg-type]
        assert json.loads(await asyncio.wait_for(ws.recv(), WAIT_S))["type"] == "snapshot"
