"""Cash-table test fixtures: users, API clients, a table, a helper to act."""

from __future__ import annotations

import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from rest_framework.test import APIClient

from bench.chaos import instances
from tests.funds import FUNDS
from tests.isolation import (  # noqa: F401 - autouse
    fast_password_hashing,
    fresh_caches,
    generous_throttles,
    in_memory_channel_layer,
    local_cache,
)
from tests.people import client_for, user_maker  # noqa: F401 - client_for: a fixture
from tests.poker.clock_support import clock_queue, start_worker  # noqa: F401 - fixtures
from tests.throttling import throttle_clock  # noqa: F401 - a fixture


@pytest.fixture
def make_user(db: None) -> Callable[..., Any]:
    """Users with ``FUNDS`` in their wallets (every seat is bought from them)."""
    return user_maker(FUNDS)


@pytest.fixture
def staff(make_user: Callable[..., Any]) -> Any:
    return make_user("boss", staff=True)


@pytest.fixture
def open_table(staff: Any, client_for: Callable[[Any], APIClient]) -> Callable[..., dict[str, Any]]:  # noqa: F811 - the fixture
    """Open a table through the API; returns its view."""

    def make(**settings: Any) -> dict[str, Any]:
        body = {
            "name": "Main",
            "game": "32-card-draw",
            "betting": "no-limit",
            "small_blind": 1,
            "big_blind": 2,
            **settings,
        }
        response = client_for(staff).post("/api/tables/", body, format="json")
        assert response.status_code == 201, response.json()
        return response.json()

    return make


def act(client: APIClient, table: int, view: dict[str, Any], action: str, **more: Any) -> Any:
    """Post one action at the version ``view`` shows."""
    hand = view["hand"]
    body = {
        "hand": hand["id"],
        "version": hand["version"],
        "command_id": str(uuid.uuid4()),
        "action": action,
        **more,
    }
    return client.post(f"/api/tables/{table}/actions/", body, format="json")


@pytest.fixture
def own_redis(tmp_path: Path) -> Iterator[instances.Redis]:
    """A Redis server of the test's own (as the chaos run starts them), to
    stop and restart without disturbing anything else."""
    server = instances.Redis(tmp_path)
    server.start()
    yield server
    server.stop()
