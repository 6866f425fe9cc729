"""``make run`` on embedded defaults runs the clocks too: with no
``REDIS_URL`` the server process starts a Celery worker of its own on the
in-memory transport, and a player who lets his clock run out is folded and
sat out through the very same task code."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.integration.cluster import ROOT, SEED, Server, child_env

CLOCKS = {"action_seconds": 1, "bet_seconds": 1, "time_bank_seconds": 0, "pause_seconds": 0}


@pytest.fixture
def embedded(tmp_path: Path) -> Iterator[tuple[Server, dict[str, Any]]]:
    """A server on a SQLite file and no Redis at all, and a seeded table."""
    url = f"sqlite:///{tmp_path / 'room.sqlite3'}"
    env = child_env(DATABASE_URL=url)
    manage = [sys.executable, "manage.py", "migrate", "--noinput", "-v0"]
    subprocess.run(manage, cwd=ROOT, env=env, check=True, timeout=120)
    request = json.dumps({"prefix": "solo", "players": ["ann", "bob"], "table": CLOCKS})
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
    server = Server("solo", url, redis_url="")
    server.env["CLOCKS_ENABLED"] = "true"  # as with no environment at all
    server.start()
    try:
        yield server, json.loads(seeded.stdout.strip().splitlines()[-1])
    finally:
        server.stop()


def test_an_idle_player_is_timed_out_by_the_worker_inside_the_server(embedded):
    server, seed = embedded
    table = seed["table"]
    ann, bob = seed["players"]
    for seat, player in enumerate((ann, bob), start=1):
        status, body = server.request(
            "POST", f"/api/tables/{table}/sit/", player["token"], {"seat": seat, "buy_in": 100}
        )
        assert status == 200, body
    status, view = server.request("GET", f"/api/tables/{table}/")
    idle = view["hand"]["to_act_seat"]
    assert view["clock"]["kind"] == "action" and view["clock"]["seat"] == idle
    deadline = time.monotonic() + 20
    while view["hand"]["phase"] != "complete":
        assert time.monotonic() < deadline, server.tail()
        time.sleep(0.1)
        status, view = server.request("GET", f"/api/tables/{table}/")
    seats = {s["seat"]: s for s in view["seats"]}
    assert seats[idle]["sitting_out"] is True
    folded = [p for p in view["hand"]["players"] if p["folded"]]
    assert [p["seat"] for p in folded] == [idle]
