"""Cash-table test fixtures: users, API clients, a table, a helper to act."""

from __future__ import annotations

import uuid
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from rest_framework.test import APIClient

from poker import selectors, streams


@pytest.fixture(autouse=True)
def fresh_caches() -> Iterator[None]:
    """Folds and names cached in the process belong to the test that made them."""
    streams.hands.forget()
    streams.tables.forget()
    selectors.username.cache_clear()
    yield
    streams.hands.forget()
    streams.tables.forget()


@pytest.fixture(autouse=True)
def in_memory_channel_layer(settings: Any) -> None:
    """One process's own channel layer, even where REDIS_URL is set (CI):
    parallel tests must not hear each other's groups.  The real Redis layer
    is exercised by tests/integration."""
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}


@pytest.fixture
def make_user(db: None) -> Callable[..., Any]:
    def make(name: str, *, staff: bool = False) -> Any:
        return get_user_model().objects.create_user(name, password="pw", is_staff=staff)

    return make


@pytest.fixture
def staff(make_user: Callable[..., Any]) -> Any:
    return make_user("boss", staff=True)


@pytest.fixture
def client_for() -> Callable[[Any], APIClient]:
    def make(user: Any) -> APIClient:
        client = APIClient()
        if user is not None:
            client.force_authenticate(user)
        return client

    return make


@pytest.fixture
def open_table(staff: Any, client_for: Callable[[Any], APIClient]) -> Callable[..., dict[str, Any]]:
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
