"""Real Celery workers for the clock tests, and a table to time out on.

A worker is a separate ``celery worker`` process on Redis, consuming a
queue of the test's own and reaching the test's PostgreSQL database (the
test commits: ``transaction=True``; ``pg_default`` puts it there when
``DATABASE_URL`` is not PostgreSQL).  The test's commands write their
clocks there; the worker's waker sends the drain on the test's queue.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from django.db import connection
from kombu import Queue

from config.celery import app, use_broker
from poker import services
from tests.funds import fund
from tests.process_groups import end_group

ROOT = Path(__file__).resolve().parents[2]
READY_TIMEOUT_S = 30


def database_url() -> str:
    """The URL of the database this test process writes to."""
    db = connection.settings_dict
    user = db["USER"] or "postgres"
    return f"postgres://{user}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"


class Worker:
    """One ``celery worker`` process (solo pool) on the test's queue."""

    def __init__(self, queue: str, redis_url: str, include: str = "", **env: str) -> None:
        self.log = tempfile.NamedTemporaryFile(suffix=".log", delete=False)  # noqa: SIM115
        child = {k: v for k, v in os.environ.items() if not k.startswith(("PYTEST_", "DJANGO_"))}
        child.update(
            DJANGO_SETTINGS_MODULE="config.settings",
            DATABASE_URL=database_url(),
            REDIS_URL=redis_url,
            CLOCK_QUEUE=queue,
            CHANNEL_LAYER_PREFIX=f"test-{queue}",
            CLOCKS_ENABLED="true",
            **env,
        )
        command = [sys.executable, "-m", "celery", "-A", "config", "worker", "-Q", queue]
        command += ["-P", "solo", "-c", "1", "-l", "info", "-n", f"{queue}-{uuid.uuid4().hex[:6]}"]
        command += ["--without-heartbeat", "--without-mingle", "--without-gossip"]
        if include:  # modules it imports once Django is set up (a test's clock kind)
            command += ["--include", include]
        self.process = subprocess.Popen(
            command,
            cwd=ROOT,
            env=child,
            stdout=self.log,
            stderr=subprocess.STDOUT,
            start_new_session=True,  # a group of its own: stop() ends all of it
        )
        self.wait_for(" ready.", READY_TIMEOUT_S)

    def text(self) -> str:
        return Path(self.log.name).read_text(errors="replace")

    def wait_for(self, needle: str, timeout: float, count: int = 1) -> None:
        """Wait until the log holds ``needle`` ``count`` times."""
        deadline = time.monotonic() + timeout
        while self.text().count(needle) < count:
            if self.process.poll() is not None:
                raise AssertionError(f"the worker exited:\n{self.text()[-3000:]}")
            if time.monotonic() > deadline:
                raise AssertionError(f"no {needle!r} x{count} in the log:\n{self.text()[-3000:]}")
            time.sleep(0.05)

    def kill(self) -> None:
        """SIGKILL: no chance to give anything back to the broker."""
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(10)

    def stop(self) -> None:
        """SIGTERM, then SIGKILL; the worker reaped and its group ended."""
        end_group(self.process)
        Path(self.log.name).unlink(missing_ok=True)


@pytest.fixture
def clock_queue(settings: Any, redis_url: str, pg_default: None) -> Iterator[str]:
    """Clocks on: this test's commands write them, and its workers' wakers
    send their drains on a queue of the test's own, on Redis; a worker
    process shares the test's database, so it is on PostgreSQL
    (``pg_default``)."""
    queue = f"clocks-{uuid.uuid4().hex[:10]}"
    settings.CLOCKS_ENABLED = True
    settings.CLOCK_QUEUE = queue
    broker = app.conf.broker_url
    use_broker(redis_url)
    yield queue
    with app.connection_for_write() as conn:
        Queue(queue).bind(conn.default_channel).purge()
    use_broker(broker)


@pytest.fixture
def start_worker(clock_queue: str, redis_url: str) -> Iterator[Callable[..., Worker]]:
    """Start workers on the test's queue (all stopped at the end)."""
    started: list[Worker] = []

    def start(include: str = "", **env: str) -> Worker:
        started.append(Worker(clock_queue, redis_url, include, **env))
        return started[-1]

    yield start
    for worker in started:
        worker.stop()


def timed_table(staff: Any, players: list[Any], **clocks: Any) -> int:
    """A 32 Card Draw table with the given clocks (short ones: seconds), its
    players seated in seats 1, 2, ... (the first hand is dealt at once)."""
    settings = {"time_bank_seconds": 0, "pause_seconds": 0, **clocks}
    table = services.table_create(
        by=staff,
        name="Clock",
        game="32-card-draw",
        betting="no-limit",
        small_blind=1,
        big_blind=2,
        **settings,
    )
    for seat, player in enumerate(players, start=1):
        services.seat_sit(by=fund(player), table_id=table.pk, seat=seat, buy_in=100)
    return int(table.pk)


def until(check: Callable[[], Any], timeout: float, what: str) -> Any:
    """Poll ``check`` until it answers something true."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = check()
        if found:
            return found
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what}")
