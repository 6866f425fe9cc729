"""The clock waker on PostgreSQL (``kernel.waker``): a clock written to come
due before every other one still to come is announced (NOTIFY, on commit),
and a real worker's waker, listening, fires it although its safety poll is
an hour away; its listening connection, killed, is opened again.  On
SQLite the waker polls (tests/config/test_embedded_worker.py)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from datetime import datetime, timedelta
from typing import Any

import psycopg
import pytest
from django.db import connection, transaction
from django.utils import timezone

from kernel import clocks, waker
from kernel.models import Clock
from tests.kernel.worker_kind import KIND, MODULE, times_fired
from tests.poker.clock_support import Worker, until

pytestmark = [pytest.mark.django_db(transaction=True)]

HOUR = "3600"
"""The safety poll of the workers here: no test waits for it."""
SOON = timedelta(milliseconds=50)


def set_clock(stream: str, due: datetime) -> None:
    with transaction.atomic():
        clocks.clock_set(stream=stream, kind=KIND, version=1, due=due)


@pytest.fixture
def listening(pg_default: None) -> Iterator[psycopg.Connection[Any]]:
    """A connection of the test's own listening on the waker's channel."""
    params = waker.connect_params(connection.settings_dict)
    with psycopg.connect(**params, autocommit=True) as listener:
        listener.execute(f"LISTEN {waker.CHANNEL}")
        yield listener


def announced(listener: psycopg.Connection[Any]) -> int:
    """How many notifications came before a marker sent now (notifications
    arrive in the order their transactions committed)."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_notify(%s, 'marker')", [waker.CHANNEL])
    for count, notify in enumerate(listener.notifies(timeout=30)):
        if notify.payload == "marker":
            return count
    raise AssertionError("the marker never arrived")


@pytest.mark.postgres
def test_a_clock_is_announced_only_when_it_comes_due_before_every_other(
    listening: psycopg.Connection[Any],
) -> None:
    now = timezone.now()
    set_clock("s-1", now + timedelta(minutes=10))
    assert announced(listening) == 1  # the only one
    set_clock("s-2", now + timedelta(minutes=20))
    assert announced(listening) == 0  # s-1 comes first: the wakers wake for it anyway
    set_clock("s-2", now + timedelta(minutes=5))  # moved before s-1
    assert announced(listening) == 1
    with pytest.raises(RuntimeError), transaction.atomic():
        clocks.clock_set(stream="s-3", kind=KIND, version=1, due=now + timedelta(minutes=1))
        raise RuntimeError("the command failed")
    assert announced(listening) == 0  # rolled back: nothing heard
    assert Clock.objects.filter(kind=KIND).count() == 2


def listeners_of(worker: Worker) -> list[int]:
    """The backends of ``worker``'s waker that listen on the channel."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT pid FROM pg_stat_activity WHERE application_name = %s AND query = %s",
            [f"{waker.THREAD_NAME} {worker.process.pid}", f"LISTEN {waker.CHANNEL}"],
        )
        return [pid for (pid,) in cursor.fetchall()]


@pytest.fixture
def listening_worker(start_worker: Callable[..., Worker]) -> Worker:
    """A worker whose waker polls once an hour: only a notification wakes
    it for a clock set after it started; its waker listens."""
    worker = start_worker(include=MODULE, CLOCK_SAFETY_POLL_SECONDS=HOUR)
    until(lambda: listeners_of(worker), 30, "the worker's waker to listen")
    return worker


def fires_once_when_set_soon(stream: str) -> None:
    """A clock due in 50 ms, set behind one due in an hour (so the waker
    sleeps for that one), fires, once."""
    set_clock(f"{stream}-later", timezone.now() + timedelta(hours=1))
    set_clock(stream, timezone.now() + SOON)
    until(lambda: times_fired(stream), 30, f"clock {stream} to fire")
    assert not Clock.objects.filter(stream=stream, kind=KIND).exists()
    assert times_fired(stream) == 1
    assert times_fired(f"{stream}-later") == 0


@pytest.mark.redis
@pytest.mark.postgres
def test_a_clock_due_in_50_ms_is_fired_once_woken_by_its_notification(
    listening_worker: Worker,
) -> None:
    fires_once_when_set_soon("s-1")
    fires_once_when_set_soon("s-2")  # the waker, woken for s-1, sleeps for the hour again
    assert times_fired("s-1") == 1


@pytest.mark.redis
@pytest.mark.postgres
def test_the_waker_listens_again_once_its_connection_is_killed(listening_worker: Worker) -> None:
    [killed] = listeners_of(listening_worker)
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_terminate_backend(%s)", [killed])
    again = until(
        lambda: [pid for pid in listeners_of(listening_worker) if pid != killed],
        30,
        "the waker to listen on a new connection",
    )
    assert killed not in again
    fires_once_when_set_soon("s-1")
    listening_worker.wait_for("listening connection failed, opening another", 5)


def test_the_waker_connects_with_the_database_settings() -> None:
    params = waker.connect_params(
        {
            "NAME": "room",
            "USER": "poker",
            "PASSWORD": "",
            "HOST": "db.internal",
            "PORT": 6432,
            "OPTIONS": {"sslmode": "require", "server_side_binding": True, "pool": False},
        }
    )
    assert params == {
        "dbname": "room",
        "user": "poker",
        "host": "db.internal",
        "port": 6432,
        "sslmode": "require",  # a libpq parameter; Django's own options are not
    }


def test_drains_are_sent_at_most_every_send_gap_so_close_clocks_share_a_batch() -> None:
    woken = waker.Waker()
    now = timezone.now()
    gap = timedelta(seconds=waker.SEND_GAP_S)
    assert woken.may_send(now)  # nothing sent yet
    woken.sent_at = now
    assert not woken.may_send(now + gap / 2)
    assert woken.may_send(now + gap)
    # a clock due at once after a send: the waker sleeps out the gap
    assert woken.wait_from(now, now) == pytest.approx(waker.SEND_GAP_S)
    assert woken.wait_from(now, now + 2 * gap) == pytest.approx(2 * waker.SEND_GAP_S)
