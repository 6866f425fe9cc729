"""Casino-table test fixtures: users, API clients, a funded bankroll, a table."""

from __future__ import annotations

import uuid
from collections.abc import Callable
from typing import Any

import pytest
from rest_framework.test import APIClient

from accounts import money
from tests.isolation import (  # noqa: F401 - autouse
    fast_password_hashing,
    fresh_caches,
    generous_throttles,
    in_memory_channel_layer,
    local_cache,
)
from tests.people import client_for, user_maker  # noqa: F401 - client_for: a fixture
from tests.poker.clock_support import clock_queue, start_worker  # noqa: F401 - fixtures

WALLET = 10_000
"""What each test player holds: a few rounds' worth at the tables' bets."""
BANKROLL = 1_000_000
"""What the house's bankroll holds unless a test says otherwise."""


@pytest.fixture
def make_user(db: None) -> Callable[..., Any]:
    return user_maker(WALLET)


@pytest.fixture
def staff(make_user: Callable[..., Any]) -> Any:
    return make_user("boss", staff=True, role="cashier", cash=0)


@pytest.fixture
def bankroll(db: None) -> Callable[[int], None]:
    """``bankroll(amount)``: fund the house (by the system)."""

    def fund(amount: int = BANKROLL) -> None:
        money.bankroll_fund(transfer_id=uuid.uuid4(), amount=amount)

    return fund


@pytest.fixture
def open_casino(
    staff: Any,
    client_for: Callable[[Any], APIClient],  # noqa: F811 - the fixture
) -> Callable[..., dict[str, Any]]:
    """Open a casino table through the API; returns its view."""

    def make(**settings: Any) -> dict[str, Any]:
        body = {"name": "Casino", "min_bet": 10, "max_bet": 100, **settings}
        response = client_for(staff).post("/api/casino/tables/", body, format="json")
        assert response.status_code == 201, response.json()
        return response.json()

    return make
