"""Autouse fixtures every Django app's tests share (each app's conftest.py
imports them): what a test caches in the process, and the groups it joins,
belong to that test alone; passwords hash fast; the throttles count in the
test's own cache, at rates no test reaches unless it sets its own."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from accounts import selectors
from poker import streams


def _forget() -> None:
    from casino import streams as casino_streams
    from poker.work import CURRENT
    from tournaments.work import folds

    for cache in (streams.hands, streams.tables, casino_streams, folds, CURRENT):
        cache.forget()


@pytest.fixture(autouse=True)
def fresh_caches() -> Iterator[None]:
    """Folds and names cached in the process belong to the test that made them."""
    _forget()
    selectors.screen_name.cache_clear()
    yield
    _forget()


@pytest.fixture(autouse=True)
def in_memory_channel_layer(settings: Any) -> None:
    """One process's own channel layer, even where REDIS_URL is set (CI):
    parallel tests must not hear each other's groups.  The real Redis layer
    is exercised by tests/integration."""
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}


@pytest.fixture(autouse=True)
def fast_password_hashing(settings: Any) -> None:
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


GENEROUS = "1000/s"
"""A rate no test reaches by playing: the throttle tests set their own."""


@pytest.fixture(autouse=True)
def local_cache(settings: Any) -> Iterator[None]:
    """The test's own empty cache, even where REDIS_URL is set: parallel
    tests must not count against each other's throttles."""
    from django.core.cache import cache

    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    cache.clear()
    yield
    cache.clear()


@pytest.fixture(autouse=True)
def generous_throttles(settings: Any) -> None:
    settings.THROTTLE_RATES = dict.fromkeys(settings.THROTTLE_RATES, GENEROUS)
