"""The timer dispatcher (``config.timers``): a command hands its timers
over and goes on; they reach the broker from the dispatcher's thread, and
``flush`` returns once they have.  On Redis, on a queue no worker reads."""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
import redis

from config import timers
from config.celery import app, use_broker
from poker.tasks import clock_expired

pytestmark = [pytest.mark.redis]

LATER = datetime.now(UTC) + timedelta(hours=1)


@pytest.fixture
def queue(settings: Any, redis_url: str) -> Iterator[str]:
    """A queue of the test's own on Redis, purged afterwards."""
    name = f"timers-{uuid.uuid4().hex[:10]}"
    settings.CLOCK_QUEUE = name
    broker = app.conf.broker_url
    use_broker(redis_url)
    yield name
    timers.flush()
    with app.connection_for_write() as conn:
        conn.default_channel.queue_purge(name)
    use_broker(broker)


def in_broker(redis_url: str, queue: str) -> int:
    """How many messages wait in ``queue`` on Redis."""
    return int(redis.Redis.from_url(redis_url).llen(queue))


def test_every_timer_handed_over_is_in_the_broker_once_flush_returns(queue, redis_url):
    for version in range(200):
        timers.send(clock_expired, (1, "hand-1-1", version), LATER)
    assert timers.flush()
    assert in_broker(redis_url, queue) == 200


def test_a_forked_child_sends_its_own_timers(queue, redis_url):
    """A prefork worker's child is a fork: the parent's dispatcher thread
    is not there, so the child starts one of its own."""
    timers.send(clock_expired, (1, "hand-1-1", 0), LATER)  # the parent's thread runs
    assert timers.flush()
    pid = os.fork()
    if pid == 0:  # the child: report by exit status only
        timers.send(clock_expired, (1, "hand-1-1", 1), LATER)
        os._exit(0 if timers.flush(10) else 1)
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0
    assert in_broker(redis_url, queue) == 2
