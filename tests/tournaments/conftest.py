"""Tournament service test fixtures: players with money, directors, API
clients, a clock the test moves, fresh caches, and the ledger audit that
every test using the database ends with."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest

from accounts.audit import ledger_audit
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
from tests.tournaments.service_support import ServiceClock, pools_disagreeing

CASH = 10_000
"""What a test player has unless a test says otherwise."""


@pytest.fixture(autouse=True)
def tables_from_outside(settings: Any) -> None:
    """The tests report hands themselves (``service_support.hand``): the
    tournament's own tables stay out of it (``tests/tournaments/
    test_play.py`` turns them on)."""
    settings.TOURNAMENT_TABLES = False


@pytest.fixture(autouse=True)
def audited(request: pytest.FixtureRequest) -> Iterator[None]:
    """Every test that touches the database leaves the ledger sound: each
    balance its entries' sum, each transfer summing to zero, nothing below
    zero that may not be (the database is set up first, so this runs
    before it is torn down)."""
    if request.node.get_closest_marker("django_db") is None:
        yield
        return
    request.getfixturevalue("_django_db_helper")
    yield
    assert ledger_audit() == []


@pytest.fixture
def pools_paid(request: pytest.FixtureRequest) -> Iterator[None]:
    """The service's tests also end with every tournament's prize pool in
    the ledger holding what the rules say it holds: the pool as it stands
    while it is being played for, nothing once paid out or refunded."""
    request.getfixturevalue("_django_db_helper")
    yield
    assert pools_disagreeing() == []


@pytest.fixture
def make_user(db: None) -> Callable[..., Any]:
    """``make_user(name, cash=CASH, staff=False, role=None)``."""
    return user_maker(CASH)


@pytest.fixture
def director(make_user: Callable[..., Any]) -> Any:
    """A tournament director by role (not ``is_staff``)."""
    return make_user("director", cash=0, role="tournament_director")


@pytest.fixture
def staff(make_user: Callable[..., Any]) -> Any:
    """The house's superuser: every permission, directing included."""
    boss = make_user("boss", cash=0, staff=True)
    boss.is_superuser = True
    boss.save(update_fields=["is_superuser"])
    return boss


@pytest.fixture
def players(make_user: Callable[..., Any]) -> Callable[[int], list[Any]]:
    """``players(n)``: n players with ``CASH`` each."""
    return lambda n: [make_user(f"p{i}") for i in range(1, n + 1)]


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> ServiceClock:
    """The service's clock, moved by the test."""
    return ServiceClock(monkeypatch)
