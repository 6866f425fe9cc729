"""``pg_default`` (tests/conftest.py): a test that needs the services on
PostgreSQL runs there whenever the server at ``TEST_DATABASE_URL`` answers,
``DATABASE_URL`` set or not, and leaves nothing behind."""

from __future__ import annotations

import threading

import pytest
from django.contrib.auth import get_user_model
from django.db import connection, connections

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def _in_another_thread() -> tuple[str, int]:
    """What a racer's thread sees: its own connection, made from settings."""
    seen: list[tuple[str, int]] = []

    def look() -> None:
        try:
            seen.append((connection.vendor, get_user_model().objects.count()))
        finally:
            connection.close()

    racer = threading.Thread(target=look)
    racer.start()
    racer.join()
    return seen[0]


@pytest.mark.parametrize("round_", [1, 2])
def test_the_services_database_is_postgresql_in_every_thread(pg_default, round_):
    assert connection.vendor == "postgresql"
    assert connections["default"].settings_dict["NAME"].startswith("test_")
    get_user_model().objects.create(username=f"ann{round_}")
    assert _in_another_thread() == ("postgresql", 1)  # committed, and emptied between rounds
