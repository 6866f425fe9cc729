"""This test run's id, in the name of every database the run makes on a
shared server: the Django test databases (``config/settings_test.py``:
``TEST_RUN_ID``, shared by the run's xdist workers, each adding its own
suffix) and the copies of the migrated template (``database_name``).  Two
runs on one server never touch each other's databases, and a run drops
whatever of its own is left when it ends (``migrated.drop_run``).

Nothing here imports Django (see ``tests/integration/cluster.py``).
"""

from __future__ import annotations

import secrets

ID = ""
"""The run's id, set once by ``tests/conftest.py`` from the settings."""


def start(run_id: str) -> None:
    global ID
    ID = run_id


def database_name(kind: str) -> str:
    """A new database's name: ``pokerroom_<kind>_<run id>_<random>``."""
    assert ID, "tests/conftest.py sets the run's id first"
    return f"pokerroom_{kind}_{ID}_{secrets.token_hex(4)}"
