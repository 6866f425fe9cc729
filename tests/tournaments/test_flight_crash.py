"""A process killed mid-carry loses nothing and leaves nothing half done.

The event is played by separate processes (``flight_crash_driver.py``) on a
database they share (a SQLite file, and a PostgreSQL database of its own
when the server answers), as ``tests/poker/test_crash_recovery.py`` does
for the cash tables.  Day 1A stops at its mark; its carry into Day 2 is
killed with SIGKILL inside its transaction, after the flight's pool was
moved on the ledger.  A fresh process finds Day 2 as before the carry and
the pool still in the flight; beat's sweep then carries the flight exactly
once from the events: Day 2 gets the whole pool and every bagged chip and
starts, the ledger is sound, and the read models rebuild the same."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from tests.poker.processes import BACKENDS, Child, SharedDatabase, children, shared_database

DRIVER = Path(__file__).with_name("flight_crash_driver.py")


@pytest.fixture(scope="module", params=BACKENDS)
def shared(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[SharedDatabase]:
    yield from shared_database(request.param, tmp_path_factory, "flights")


@pytest.fixture
def start(shared: SharedDatabase) -> Iterator[Callable[[], Child]]:
    yield from children(shared, DRIVER)


def test_a_carry_killed_inside_its_transaction_is_done_once_by_the_sweep(start):
    first = start()
    ids = first.call("setup", prefix=f"crash{os.getpid()}")
    first.send("stop", flight=ids["one"], hang=True)
    inside = first.receive()
    assert inside == {"inside": {"moved": 600}}
    first.kill()

    fresh = start()
    before = fresh.call("look", event=ids["event"])
    assert before["carried"] == [2]  # Day 1B (called off) only: the kill undid Day 1A's
    assert before["pools"] == {"0": 0, "1": 600, "2": 0}
    assert "tournament.flight_carried" in before["day_two_events"]
    assert before["day_two_events"].count("tournament.flight_carried") == 1
    assert before["audit"] == []

    assert fresh.call("sweep") == 1
    assert fresh.call("sweep") == 0
    after = fresh.call("look", event=ids["event"])
    assert after["carried"] == [1, 2]
    assert after["day_two_events"].count("tournament.flight_carried") == 2
    assert after["day_two_events"].count("tournament.day_two_ready") == 1
    assert after["pools"] == {"0": 600, "1": 0, "2": 0}
    assert after["day_two_status"] == "running"  # its start had come: at once
    assert after["chips"] == after["bags"] == 6 * 1000
    assert after["audit"] == []
    assert fresh.call("rebuilt") is True
