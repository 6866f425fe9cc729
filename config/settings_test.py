"""The test suite's settings (pytest's ``DJANGO_SETTINGS_MODULE``): the
product's settings, read from the same environment, plus what only the tests
need.

- The test databases are named after the run, so two runs on one server
  never drop each other's: xdist gives a run's workers one id (pytest-django
  adds each worker's own suffix), a run without xdist makes its own.
- Storage suites run on both backends side by side: an in-memory SQLite
  (``sqlite``) and, when it answers, PostgreSQL at ``TEST_DATABASE_URL``
  (``postgres``: a test database of its own, so it never clashes with
  ``default``).
- Commands set no timers unless a test turns the clocks on (a test that runs
  a worker does).

Processes the tests start (servers, workers, ``manage.py``) run
``config.settings``, as a deployment does.
"""

import os
import secrets
import socket
import tempfile
from pathlib import Path
from typing import Any

from config.settings import *  # noqa: F403
from config.settings import DATABASES, REDIS_URL, env


def _postgres_answers(db: dict[str, Any]) -> bool:
    """Whether something listens at the database's host and port (1 s)."""
    try:
        socket.create_connection(
            (db.get("HOST") or "127.0.0.1", int(db.get("PORT") or 5432)), 1
        ).close()
    except OSError:
        return False
    return True


TEST_RUN_ID = os.environ.get("PYTEST_XDIST_TESTRUNUID", "")[:8] or secrets.token_hex(4)
"""The run's id, in the name of every database it makes (tests/run.py)."""
_suffix = f"_{TEST_RUN_ID}"
if DATABASES["default"]["ENGINE"] != "django.db.backends.sqlite3":
    DATABASES["default"]["TEST"] = {"NAME": f"test_{DATABASES['default']['NAME']}{_suffix}"}
else:
    # A file, as the embedded default serves from: an in-memory database
    # shared between threads locks whole tables and fails at once where a
    # file's writer waits its turn ("database table is locked").
    _file = Path(tempfile.gettempdir()) / f"test_pokerroom{_suffix}.sqlite3"
    DATABASES["default"]["TEST"] = {"NAME": str(_file)}
DATABASES["sqlite"] = {
    "ENGINE": "django.db.backends.sqlite3",
    "NAME": ":memory:",
    "TEST": {"DEPENDENCIES": []},
}
_test_pg = env.db_url("TEST_DATABASE_URL", default="postgres://postgres@127.0.0.1:5432/test")
if _postgres_answers(_test_pg):
    DATABASES["postgres"] = {
        **_test_pg,
        "TEST": {"NAME": f"test_pokerroom_pg{_suffix}", "DEPENDENCIES": []},
    }

CLOCKS_ENABLED = env.bool("CLOCKS_ENABLED", default=False)
"""Whether commands set timers: off unless a test turns them on."""
EMBEDDED_WORKER = env.bool("EMBEDDED_WORKER", default=not REDIS_URL and CLOCKS_ENABLED)
"""No worker inside the test process unless asked: tests start their own."""
