"""Project-wide test setup: tests that need a real PostgreSQL or Redis.

Mark a test ``@pytest.mark.postgres`` or ``@pytest.mark.redis`` (or ask for the
``pg_dsn`` / ``redis_url`` fixture) and it runs against the server named by
``TEST_DATABASE_URL`` / ``REDIS_URL``. When that server cannot be reached the
test is skipped with the reason, except under ``CI=true``, where it fails: CI
must never go green by skipping what it was meant to check.

The Django test database is separate: pytest-django builds ``test_<NAME>`` from
``DATABASE_URL`` (SQLite when unset), one per xdist worker.  A test that needs
the services themselves on PostgreSQL (row locks that mean something, a worker
process sharing its database) asks for ``pg_default``: with ``DATABASE_URL``
on PostgreSQL it changes nothing; otherwise, for that test, the ``default``
alias is the test database of the ``postgres`` alias (which settings add under
pytest when ``TEST_DATABASE_URL`` answers), emptied afterwards.  So these tests
too run whenever the server answers, and are skipped (failed under CI=true)
only when it does not.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Iterator
from typing import Any
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
def redis_url() -> Iterator[str]:
    """The URL of a Redis database of the test's own on the server at
    ``REDIS_URL`` (``tests/redisdb.py``): never the server's data, and
    whatever the test wrote there is deleted after it."""
    url = _redis_url()
    _require(_redis_problem(url))
    from tests.redisdb import RedisSlot

    slot = RedisSlot(url)
    yield slot.url
    slot.release()


@pytest.fixture
def redis_prefix(redis_url: str) -> Iterator[str]:
    """A Redis key prefix of the test's own (a channel layer's): every key
    under it is deleted after the test."""
    import uuid

    import redis

    prefix = f"test-{uuid.uuid4().hex[:10]}"
    yield prefix
    client = redis.Redis.from_url(redis_url)
    keys = list(client.scan_iter(f"{prefix}*"))
    if keys:
        client.delete(*keys)
    client.close()


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--keep-migrated-template",
        action="store_true",
        help="keep the migrated PostgreSQL template this run builds (tests/migrated.py),"
        " for the next run to copy",
    )


def pytest_configure(config: pytest.Config) -> None:
    """Transactional tests end by emptying only what they wrote (tests/flush.py);
    the run's id (tests/run.py) is the settings', and xdist's for its workers."""
    try:
        from tests import flush, run
    except ModuleNotFoundError:  # this file copied alone (tests/config/test_service_markers.py)
        return
    flush.install()
    from django.conf import settings

    run.start(settings.TEST_RUN_ID)
    if not hasattr(config, "workerinput") and config.getoption("testrunuid", None) is None:
        config.option.testrunuid = run.ID  # the workers' settings read it back


@pytest.hookimpl(trylast=True)
def pytest_sessionfinish(session: pytest.Session) -> None:
    """When the run ends (its last process: xdist's controller), what it made
    on the PostgreSQL server goes (tests/run.py, tests/migrated.py)."""
    if hasattr(session.config, "workerinput"):
        return
    try:
        from tests import migrated, run
    except ModuleNotFoundError:  # this file copied alone
        return
    if run.ID:
        keep = bool(session.config.getoption("keep_migrated_template", False))
        migrated.drop_run(_pg_dsn(), keep_template=keep)


def pytest_terminal_summary(terminalreporter: Any, config: pytest.Config) -> None:
    """The order's seed, even under ``-q`` (which hides pytest-randomly's
    header): a failure that depends on order is repeated with it."""
    seed = config.getoption("randomly_seed", None)
    if isinstance(seed, int):
        terminalreporter.write_line(f"random order: -p randomly --randomly-seed={seed} repeats it")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """A test that asks for ``pg_default`` also uses the ``postgres`` alias
    (when settings have it and ``default`` is not PostgreSQL already), so
    pytest-django creates that test database and empties it after the test."""
    from django.conf import settings

    if not settings.configured:
        return  # a project without Django (tests/config/test_service_markers.py)
    databases = settings.DATABASES
    if "postgres" not in databases or "postgresql" in databases["default"]["ENGINE"]:
        return
    for item in items:
        marker = item.get_closest_marker("django_db")
        if marker is None or "pg_default" not in getattr(item, "fixturenames", ()):
            continue
        aliases = set(marker.kwargs.get("databases") or ["default"]) | {"postgres"}
        widened = pytest.mark.django_db(
            *marker.args, **{**marker.kwargs, "databases": sorted(aliases)}
        )
        item.add_marker(widened, append=False)


@pytest.fixture
def pg_default() -> None:
    """The services' ``default`` database is PostgreSQL for this test (see
    ``_default_on_postgres``, which does the work; the test must be marked
    ``django_db(transaction=True)``: it commits, and others see it)."""


@pytest.fixture(autouse=True)
def _default_on_postgres(request: pytest.FixtureRequest) -> Iterator[None]:
    """For a test that asks for ``pg_default`` (itself or through another
    fixture), point ``default`` at the ``postgres`` alias's test database,
    unless it is PostgreSQL already.  Autouse at the root, so it is in place
    before every app's own fixtures and after them (their last checks, such
    as the ledger audit, read PostgreSQL).  pytest-django empties it after
    the test (see ``pytest_collection_modifyitems``)."""
    if "pg_default" not in request.fixturenames:
        yield
        return
    marker = request.node.get_closest_marker("django_db")
    if marker is None or not (marker.kwargs.get("transaction") or marker.args[:1] == (True,)):
        pytest.fail("pg_default needs @pytest.mark.django_db(transaction=True)", pytrace=False)
    request.getfixturevalue("_django_db_helper")
    from django.contrib.contenttypes.models import ContentType
    from django.db import connections

    if connections["default"].vendor == "postgresql":
        yield
        return
    if "postgres" not in connections.settings:
        _require(
            _postgres_problem(_pg_dsn())
            or f"PostgreSQL at {_redact(_pg_dsn())} did not answer when the settings were read"
        )
    original, sqlite = connections.settings["default"], connections["default"]
    connections.settings["default"] = {**connections["postgres"].settings_dict}
    postgres = connections.create_connection("default")
    connections["default"] = postgres  # this thread's; other threads make theirs from settings
    ContentType.objects.clear_cache()  # ids of the other database
    try:
        yield
    finally:
        postgres.close()
        connections.settings["default"] = original
        connections["default"] = sqlite
        ContentType.objects.clear_cache()


@pytest.fixture(autouse=True)
def database_threads_closed() -> Iterator[None]:
    """The connections the consumers' database threads opened are closed
    after the test (each thread keeps its own), as the test's own are: a
    test database is dropped at the end only once nobody is connected."""
    yield
    from kernel import dbthreads  # here: a test without Django imports nothing of it

    dbthreads.close_connections()
