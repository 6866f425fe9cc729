"""Accounts test fixtures: players with money, staff in their roles, API
clients, and the audit that every test of money ends with."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from accounts import ledger
from accounts.audit import ledger_audit
from accounts.selectors import account_balance
from tests.isolation import (  # noqa: F401 - autouse
    fast_password_hashing,
    fresh_caches,
    generous_throttles,
    in_memory_channel_layer,
    local_cache,
)
from tests.people import client_for, user_maker  # noqa: F401 - client_for: a fixture
from tests.throttling import throttle_clock  # noqa: F401 - a fixture


@pytest.fixture
def make_user(db: None) -> Callable[..., Any]:
    """``make_user(name, cash=0, staff=False, role=None)``."""
    return user_maker(0)


@pytest.fixture
def cashier(make_user: Callable[..., Any]) -> Any:
    return make_user("cashier", role="cashier")


@pytest.fixture
def director(make_user: Callable[..., Any]) -> Any:
    return make_user("director", role="tournament_director")


def balance(ref: ledger.AccountRef, using: str = "default") -> int:
    return account_balance(ref, using=using)


def assert_sound(using: str = "default") -> None:
    """The audit finds nothing."""
    assert ledger_audit(using=using) == []
