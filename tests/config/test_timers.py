"""The timer dispatcher (``config.timers``): a command hands its timers
over and goes on; they reach the broker from the dispatcher's thread, and
``flush`` returns once they have; of a table's timers gathered together
only the last set goes.  On Redis, on a queue no worker reads."""

from __future__ import annotations

import base64
import json
import os
import time
import uuid
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
import redis

from config import timers
from config.celery import app, use_broker
from poker.tasks import casino_clock_expired, clock_expired
from tournaments.tasks import (
    tournament_clock_due,
    tournament_deal_due,
    tournament_rebuy_due,
    tournament_start_due,
)

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


def sent_args(redis_url: str, queue: str) -> list[list[Any]]:
    """The arguments of each task waiting in ``queue`` on Redis."""
    out = []
    for raw in redis.Redis.from_url(redis_url).lrange(queue, 0, -1):
        message = json.loads(raw)
        args, _, _ = json.loads(base64.b64decode(message["body"]))
        out.append(args)
    return out


def test_of_a_tables_timers_gathered_together_only_the_last_set_is_sent(queue, redis_url):
    for position in range(1, 21):  # a busy table: each command's timer replaces the last
        timers.send(clock_expired, (1, "hand-1-1", position), LATER, key=("t", 1), order=position)
    timers.send(clock_expired, (2, "hand-2-1", 7), LATER, key=("t", 2), order=7)
    timers.send(clock_expired, (2, "hand-2-1", 6), LATER, key=("t", 2), order=6)  # set earlier
    for version in range(3):
        timers.send(clock_expired, (3, "hand-3-1", version), LATER)  # no key: each is sent
    assert timers.flush()
    assert sorted(sent_args(redis_url, queue)) == sorted(
        [[1, "hand-1-1", 20], [2, "hand-2-1", 7]] + [[3, "hand-3-1", v] for v in range(3)]
    )


def test_flush_sends_at_once_without_waiting_for_more_timers(queue, redis_url, monkeypatch):
    monkeypatch.setattr(timers, "GATHER_S", 30.0)
    started = time.monotonic()
    timers.send(clock_expired, (1, "hand-1-1", 1), LATER, key=("t", 1), order=1)
    assert timers.flush(10)
    assert time.monotonic() - started < 10
    assert in_broker(redis_url, queue) == 1


def _without_ids(raw: bytes) -> dict[str, Any]:
    """A queued message with what differs between any two sends left out:
    the task id (also its root and correlation id), the delivery tag, and
    where results would go (``reply_to``: the sending thread's own id)."""
    message = json.loads(raw)
    for field in ("id", "root_id"):
        message["headers"].pop(field)
    for field in ("correlation_id", "delivery_tag", "reply_to"):
        message["properties"].pop(field)
    return message


@pytest.mark.parametrize(
    ("task", "args"),
    [
        (clock_expired, (1, "hand-1-1", 3)),
        (casino_clock_expired, (2, "round-2-7", 11)),
        (tournament_start_due, (5, 1_700_000_000)),
        (tournament_clock_due, (5, 2, 1_700_000_600)),
        (tournament_rebuy_due, (5, "17", 1_700_000_900)),
        (tournament_deal_due, (5,)),
    ],
)
def test_a_timer_is_queued_as_the_message_apply_async_queues(queue, redis_url, task, args):
    """What a worker reads is Celery's own message of the task: only the
    ids differ from what ``apply_async`` would have put on the queue."""
    task.apply_async(args, eta=LATER, queue=queue)
    timers.send(task, args, LATER)
    assert timers.flush()
    ours, theirs = redis.Redis.from_url(redis_url).lrange(queue, 0, -1)  # the last pushed first
    assert _without_ids(ours) == _without_ids(theirs)
    assert json.loads(ours)["properties"]["correlation_id"] == json.loads(ours)["headers"]["id"]
