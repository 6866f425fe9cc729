"""``make run`` on embedded defaults runs the clocks too: with no
``REDIS_URL`` the server process runs a Celery worker and beat of its own on
the in-memory transport, and a player who lets his clock run out is folded
and sat out through the very same drain.

- A clock lives in the database (``kernel.clocks``), not in the broker: a
  table clock or a tournament's start set by a server that stopped fires
  once a server is back on the same database.
- Nothing the server starts outlives it: after SIGTERM no process of its
  group is left.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from tests import migrated
from tests.integration.cluster import ROOT, SEED, Server, child_env
from tests.process_groups import group_members

CLOCKS = {"action_seconds": 1, "bet_seconds": 1, "time_bank_seconds": 0, "pause_seconds": 0}
TOURNAMENT = {
    "name": "Restart 32",
    "game": "32-card-draw",
    "betting": "no-limit",
    "structure": {"levels": [{"small_blind": 10, "big_blind": 20, "minutes": 15}]},
    "starting_stack": 1000,
    "buy_in": 10,
    "fee": 0,
    "min_players": 2,
    "max_players": 9,
}
WAIT_S = 60
"""How long a condition may take to come true (a loaded machine is slow)."""
START_ROOM_S = 5
"""How far ahead a tournament is scheduled to start: one request's time, at
most, on a loaded machine (too short is refused, not a pass)."""


@pytest.fixture
def room(tmp_path: Path) -> tuple[str, dict[str, Any]]:
    """A SQLite file, migrated, and a seeded table with short clocks."""
    url = migrated.sqlite(tmp_path / "room.sqlite3", child_env())
    env = child_env(DATABASE_URL=url)
    request = json.dumps(
        {"prefix": "solo", "players": ["ann", "bob"], "table": CLOCKS, "director": True}
    )
    seeded = subprocess.run(
        [sys.executable, str(SEED)],
        input=request,
        text=True,
        capture_output=True,
        cwd=ROOT,
        env=env,
        check=True,
        timeout=60,
    )
    return url, json.loads(seeded.stdout.strip().splitlines()[-1])


@pytest.fixture
def serve(room: tuple[str, dict[str, Any]]) -> Iterator[Callable[..., Server]]:
    """Start servers on the room's SQLite file and no Redis at all, as with
    no environment but the database (every one stopped, with its process
    group, at the end)."""
    started: list[Server] = []

    def start(runner: str = "uvicorn", **env: str) -> Server:
        server = Server(f"solo{len(started)}", room[0], redis_url="", runner=runner)
        server.env.update(CLOCKS_ENABLED="true", CLOCK_SWEEP_SECONDS="1")  # as make run, faster
        server.env.update(env)
        started.append(server)
        return server.start()

    try:
        yield start
    finally:
        for server in started:
            server.stop()


def sit_both(server: Server, seed: dict[str, Any]) -> int:
    """Seat both players (a hand is dealt at once); the seat to act."""
    table = seed["table"]
    for seat, player in enumerate(seed["players"], start=1):
        status, body = server.request(
            "POST", f"/api/tables/{table}/sit/", player["token"], {"seat": seat, "buy_in": 100}
        )
        assert status == 200, body
    status, view = server.request("GET", f"/api/tables/{table}/")
    assert status == 200, view
    idle: int = view["hand"]["to_act_seat"]
    assert view["clock"]["kind"] == "action" and view["clock"]["seat"] == idle
    return idle


def timed_out(server: Server, seed: dict[str, Any], idle: int) -> None:
    """Wait until the hand is over; ``idle`` folded and sat out by his clock."""
    table = seed["table"]
    deadline = time.monotonic() + WAIT_S
    _, view = server.request("GET", f"/api/tables/{table}/")
    while view["hand"]["phase"] != "complete":
        assert time.monotonic() < deadline, server.tail()
        time.sleep(0.2)
        _, view = server.request("GET", f"/api/tables/{table}/")
    seats = {s["seat"]: s for s in view["seats"]}
    assert seats[idle]["sitting_out"] is True
    folded = [p for p in view["hand"]["players"] if p["folded"]]
    assert [p["seat"] for p in folded] == [idle]


def test_an_idle_player_is_timed_out_by_the_worker_inside_the_server(serve, room):
    server = serve()
    seed = room[1]
    timed_out(server, seed, sit_both(server, seed))


def test_a_clock_set_by_a_server_that_stopped_fires_once_a_server_is_back(serve, room):
    seed = room[1]
    # The hand is dealt and its clock set, by a server that runs no worker
    # and stops before the clock comes due.
    first = serve("daphne", EMBEDDED_WORKER="false")
    idle = sit_both(first, seed)
    first.stop()
    timed_out(serve("daphne"), seed, idle)  # the next server's waker and drain


def test_a_tournament_whose_start_was_set_by_a_server_that_stopped_starts(serve, room):
    seed = room[1]
    # Created and entered on a server that runs no worker and stops before
    # the start comes due.
    first = serve("daphne", EMBEDDED_WORKER="false")
    # Room for the request to reach the server before the start; entering
    # needs none: with no worker nothing starts it, registration stays
    # open.  Stopping this server and starting the next take longer.
    starts = datetime.now(UTC) + timedelta(seconds=START_ROOM_S)
    data = {**TOURNAMENT, "starts_at": starts.isoformat()}
    status, body = first.request("POST", "/api/tournaments/", seed["staff"]["token"], data)
    assert status == 201, body
    path = f"/api/tournaments/{body['id']}/"
    for player in seed["players"]:
        status, answer = first.request("POST", f"{path}register/", player["token"], {})
        assert status == 200, answer
    first.stop()
    second = serve("daphne")
    deadline = time.monotonic() + WAIT_S
    while (detail := second.request("GET", path)[1])["status"] != "running":
        assert time.monotonic() < deadline, (detail["status"], second.tail())
        time.sleep(0.2)


@pytest.mark.parametrize("runner", ["daphne", "uvicorn"])
def test_nothing_the_server_started_outlives_it_after_sigterm(serve, room, runner):
    server = serve(runner)
    seed = room[1]
    timed_out(server, seed, sit_both(server, seed))  # the worker (and beat) at work
    assert server.process is not None
    group = server.process.pid
    os.kill(group, signal.SIGTERM)
    server.process.wait(WAIT_S)
    deadline = time.monotonic() + WAIT_S
    while left := group_members(group):
        assert time.monotonic() < deadline, f"left behind: {left}\n{server.tail()}"
        time.sleep(0.2)
