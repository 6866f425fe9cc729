"""Helpers for the throttle tests: a clock the test moves, low rates set
for one test, and the shape every throttled answer has."""

from __future__ import annotations

from typing import Any

import pytest

from accounts.throttles import Throttle


class Clock:
    """The throttles' ``timer``: a callable object (a plain function set on
    the class would be bound as a method), still until the test moves it."""

    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


@pytest.fixture
def throttle_clock(monkeypatch: pytest.MonkeyPatch) -> Clock:
    fake = Clock()
    monkeypatch.setattr(Throttle, "timer", fake)
    return fake


def set_rates(settings: Any, **rates: str | None) -> None:
    """Low rates for the scopes named; the others stay as they were."""
    settings.THROTTLE_RATES = {**settings.THROTTLE_RATES, **rates}


def throttled(response: Any) -> int:
    """A 429 ``throttled`` answer with ``retry_after`` and ``Retry-After``
    agreeing; the seconds to wait."""
    assert response.status_code == 429, (response.status_code, response.content[:300])
    body = response.json()
    assert body["code"] == "throttled" and body["message"], body
    wait = body["retry_after"]
    assert isinstance(wait, int) and wait >= 1, body
    assert response["Retry-After"] == str(wait)
    return wait
