"""A Celery worker's pool process keeps its database connection from task
to task (``config.celery``): a timer that reads one row opens no
connection for it; a broken connection, or one past its age, is closed
around a task, as Django does around a request."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.db import connection

from config.celery import app, connections_checked, keep_connections


@pytest.fixture
def max_age() -> Iterator[None]:
    """The connection's own ``CONN_MAX_AGE`` given back after the test."""
    before = connection.settings_dict["CONN_MAX_AGE"]
    yield
    connection.settings_dict["CONN_MAX_AGE"] = before
    connection.close()


def _backend() -> int:
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        return int(cursor.fetchone()[0])


def test_celerys_own_fix_up_leaves_the_connections_to_the_projects_checks() -> None:
    assert app.conf.get("CELERY_DB_REUSE_MAX") >= 2**31


@pytest.mark.django_db(transaction=True)
def test_a_pool_process_runs_its_tasks_on_one_connection(
    pg_default: None, max_age: None, settings: Any
) -> None:
    settings.WORKER_CONN_MAX_AGE = 60
    connection.close()
    keep_connections()
    first = _backend()
    connections_checked()  # after the task
    connections_checked()  # before the next
    assert connection.connection is not None and _backend() == first


@pytest.mark.django_db(transaction=True)
def test_a_connection_past_its_age_or_broken_is_closed_around_a_task(
    pg_default: None, max_age: None, settings: Any
) -> None:
    settings.WORKER_CONN_MAX_AGE = 0  # as the web processes' default: every task its own
    connection.close()
    keep_connections()
    _backend()
    connections_checked()
    assert connection.connection is None
    settings.WORKER_CONN_MAX_AGE = 60
    keep_connections()
    _backend()
    connection.connection.close()  # the server went away
    connection.errors_occurred = True  # as a failed statement marks it
    connections_checked()
    assert connection.connection is None
