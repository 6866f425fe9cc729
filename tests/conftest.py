"""Project-wide test setup: tests that need a real PostgreSQL or Redis.

Mark a test ``@pytest.mark.postgres`` or ``@pytest.mark.redis`` (or ask for the
``pg_dsn`` / ``redis_url`` fixture) and it runs against the server named by
``TEST_DATABASE_URL`` / ``REDIS_URL``. When that server cannot be reached the
test is skipped with the reason, except under ``CI=true``, where it fails: CI
must never go green by skipping what it was meant to check.

The Django test database is separate: pytest-django builds ``test_<NAME>`` from
``DATABASE_URL`` (SQLite when unset), one per xdist worker.
"""

from __future__ import annotations

import functools
import os
from urllib.parse import urlsplit, urlunsplit

import pytest

DEFAULT_TEST_DATABASE_URL = "postgres://postgres@127.0.0.1:5432/test"
DEFAULT_REDIS_URL = "redis://127.0.0.1:6379/0"
CONNECT_TIMEOUT_S = 1


def _pg_dsn() -> str:
    return os.environ.get("TEST_DATABASE_URL") or DEFAULT_TEST_DATABASE_URL


def _redis_url() -> str:
    return os.environ.get("REDIS_URL") or DEFAULT_REDIS_URL


def _in_ci() -> bool:
    return os.environ.get("CI", "").strip().lower() in {"1", "true", "yes"}


def _redact(url: str) -> str:
    """The URL without its password, for messages."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    netloc = parts.netloc.replace(f":{parts.password}@", ":***@", 1)
    return urlunsplit(parts._replace(netloc=netloc))


def _one_line(exc: Exception) -> str:
    return " ".join(str(exc).split()) or type(exc).__name__


@functools.cache
def _postgres_problem(dsn: str) -> str | None:
    """None if PostgreSQL at ``dsn`` accepts a connection, else why not."""
    import psycopg

    try:
        psycopg.connect(dsn, connect_timeout=CONNECT_TIMEOUT_S).close()
    except Exception as exc:
        return f"PostgreSQL not reachable at {_redact(dsn)}: {_one_line(exc)}"
    return None


@functools.cache
def _redis_problem(url: str) -> str | None:
    """None if Redis at ``url`` answers PING, else why not."""
    import redis

    client = redis.Redis.from_url(
        url, socket_connect_timeout=CONNECT_TIMEOUT_S, socket_timeout=CONNECT_TIMEOUT_S
    )
    try:
        client.ping()
    except Exception as exc:
        return f"Redis not reachable at {_redact(url)}: {_one_line(exc)}"
    finally:
        client.close()
    return None


def _require(problem: str | None) -> None:
    """Skip (or, under CI=true, fail) the current test if a service is missing."""
    if problem is None:
        return
    if _in_ci():
        pytest.fail(f"{problem} (CI=true: a missing service fails the run)", pytrace=False)
    pytest.skip(problem)


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item: pytest.Item) -> None:
    if item.get_closest_marker("postgres") is not None:
        _require(_postgres_problem(_pg_dsn()))
    if item.get_closest_marker("redis") is not None:
        _require(_redis_problem(_redis_url()))


@pytest.fixture
def pg_dsn() -> str:
    """The DSN of a reachable PostgreSQL server (TEST_DATABASE_URL)."""
    dsn = _pg_dsn()
    _require(_postgres_problem(dsn))
    return dsn


@pytest.fixture
def redis_url() -> str:
    """The URL of a reachable Redis server (REDIS_URL)."""
    url = _redis_url()
    _require(_redis_problem(url))
    return url
