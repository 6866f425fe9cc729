"""No secret reaches a server's log: a whole session on real servers
(uvicorn and daphne, logging everything they can: every handshake and
request, at DEBUG) -- sign-up, a ticket, the player's own stream and a
table socket, a client that still puts its token in the URL, logout --
leaves neither the API token, nor a ticket, nor the password in the log.
The servers did log the sockets (their paths are there): the secrets in
them were redacted."""

from __future__ import annotations

import asyncio
import json
import os
import secrets
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest
from websockets.asyncio.client import connect

from bench.tickets import ws_ticket
from tests.integration.cluster import Server
from tests.integration.room import Cluster

pytestmark = [pytest.mark.postgres, pytest.mark.redis]

WAIT_S = 10
RUNNERS = ("uvicorn-verbose", "daphne-verbose")


@pytest.fixture(scope="module")
def cluster() -> Iterator[tuple[dict[str, Server], dict[str, Any]]]:
    cluster = Cluster(
        os.environ.get("TEST_DATABASE_URL") or "postgres://postgres@127.0.0.1:5432/test",
        os.environ.get("REDIS_URL") or "redis://127.0.0.1:6379/0",
    )
    servers: dict[str, Server] = {}
    try:
        seeded = cluster.db.seed(prefix="secret", players=["ann"])
        for runner in RUNNERS:
            server = Server(runner, cluster.db.url, cluster.redis.url, runner=runner)
            server.env["LOG_LEVEL"] = "DEBUG"
            cluster.started.append(server)
            servers[runner] = server.start()
        yield servers, seeded
    finally:
        cluster.close()


async def first_frame(url: str) -> dict[str, Any]:
    async with connect(url, open_timeout=WAIT_S) as ws:
        frame: dict[str, Any] = json.loads(await asyncio.wait_for(ws.recv(), WAIT_S))
        return frame


@pytest.mark.parametrize("runner", RUNNERS)
async def test_a_session_leaves_no_token_ticket_or_password_in_the_servers_log(cluster, runner):
    servers, seeded = cluster
    server = servers[runner]
    password = secrets.token_urlsafe(16)
    name = f"sl{secrets.token_hex(4)}"
    status, session = server.request(
        "POST", "/api/auth/register/", body={"username": name, "password": password}
    )
    assert status == 201, session
    status, session = server.request(
        "POST", "/api/auth/login/", body={"username": name, "password": password}
    )
    assert status == 200, session
    token = session["token"]
    tickets = [ws_ticket(server.http, token) for _ in range(3)]
    own = await first_frame(f"{server.ws}/ws/me/?after=0&ticket={tickets[0]}")
    assert own["type"] == "wallet" and own["wallet"]["user"] == session["user"]["id"]
    table = f"{server.ws}/ws/tables/{seeded['table']}/"
    assert (await first_frame(f"{table}?ticket={tickets[1]}"))["type"] == "snapshot"
    # A token in the URL is no ticket: without an Origin, refused.
    assert (await first_frame(f"{table}?token={token}"))["code"] == "origin_refused"
    assert (await first_frame(f"{server.ws}/ws/nope/?ticket={tickets[2]}"))["code"] == "not_found"
    logout = urllib.request.Request(
        f"{server.http}/api/auth/logout/",
        method="POST",
        headers={"Authorization": f"Token {token}"},
    )
    with urllib.request.urlopen(logout, timeout=WAIT_S) as answer:
        assert answer.status == 204
    log = server.tail(10**7)
    for secret in (token, *tickets, password):
        assert secret not in log
    if runner.startswith("uvicorn"):  # it logs each handshake, with its query
        assert "/ws/me/?after=0&ticket=[redacted]" in log
        assert f"/ws/tables/{seeded['table']}/?token=[redacted]" in log
