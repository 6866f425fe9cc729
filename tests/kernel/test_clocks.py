"""The kernel's clocks (``kernel.clocks``): one row per (stream, kind), set
in the caller's transaction, fired by the drain exactly once and only at
the version it was set for, and left for a later drain when a drain fails
or dies.  The rules run on a kind of the test's own, whose command records
what it saw; the tables' and tournaments' clocks are the same mechanism
(tests/poker/test_clocks.py, tests/tournaments, tests/casino)."""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import datetime, timedelta

import pytest
from django.db import connection, connections, transaction
from django.utils import timezone

from kernel import clocks
from kernel.models import Clock
from kernel.signals import clock_due

pytestmark = [pytest.mark.django_db(transaction=True)]

PROBE = "test.probe"
PAST = timedelta(seconds=1)


@dataclass
class Probe:
    """The test kind's command: what it fired, and how it behaves."""

    fired: list[tuple[str, int]] = field(default_factory=list)
    current: dict[str, int] = field(default_factory=dict)
    """The version each stream is at: a clock at another acts not."""
    fail_once: set[str] = field(default_factory=set)
    hold: threading.Event | None = None
    hold_at: str | None = None
    """Hold only the command of this stream's clock (None: every one)."""
    held: threading.Event = field(default_factory=threading.Event)
    early: dict[str, datetime] = field(default_factory=dict)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def fire(self, clock: Clock) -> None:
        if clock.stream in self.early:
            raise clocks.ClockEarly(self.early.pop(clock.stream))
        if self.current.get(clock.stream, clock.version) != clock.version:
            raise Moved()  # the stream moved on
        mark(f"fired-{clock.stream}")  # a write of the command's, in its transaction
        if clock.stream in self.fail_once:
            self.fail_once.discard(clock.stream)
            raise RuntimeError("the command failed")
        if self.hold is not None and self.hold_at in (None, clock.stream):
            self.held.set()
            self.hold.wait(10)
        with self.lock:
            self.fired.append((clock.stream, clock.version))


class Moved(Exception):
    """The test kind's refusal: its stream moved on."""


def mark(stream: str) -> None:
    """A row the command writes: there only if its transaction committed."""
    clocks.clock_set(stream=stream, kind="test.mark", version=0, due=timezone.now() + PAST * 3600)


def marked(stream: str) -> bool:
    return Clock.objects.filter(stream=f"fired-{stream}", kind="test.mark").exists()


@pytest.fixture
def probe() -> Iterator[Probe]:
    found = Probe()
    receiver = clocks.firing({PROBE}, found.fire, refused=Moved)
    clock_due.connect(receiver, dispatch_uid=PROBE)
    yield found
    clock_due.disconnect(dispatch_uid=PROBE)


def set_clock(stream: str, version: int, due: datetime) -> None:
    with transaction.atomic():
        clocks.clock_set(stream=stream, kind=PROBE, version=version, due=due)


def test_a_stream_has_one_clock_of_a_kind_the_one_set_last():
    now = timezone.now()
    set_clock("s-1", 1, now + PAST)
    set_clock("s-1", 2, now + 2 * PAST)
    with transaction.atomic():
        clocks.clock_set(stream="s-1", kind="test.other", version=7, due=now)
    rows = Clock.objects.filter(stream="s-1").order_by("kind")
    assert [(c.kind, c.version, c.due) for c in rows] == [
        ("test.other", 7, now),
        (PROBE, 2, now + 2 * PAST),
    ]


def test_a_clock_set_in_a_transaction_that_rolls_back_is_not_set():
    with pytest.raises(RuntimeError), transaction.atomic():
        clocks.clock_set(stream="s-1", kind=PROBE, version=1, due=timezone.now())
        raise RuntimeError("the command failed")
    assert not Clock.objects.exists()


def test_a_clock_fires_once_when_due_and_not_before(probe):
    now = timezone.now()
    set_clock("s-1", 3, now + PAST)
    assert clocks.drain(kinds=[PROBE], now=now) == 0
    assert clocks.drain(kinds=[PROBE], now=now + PAST) == 1
    assert clocks.drain(kinds=[PROBE], now=now + 2 * PAST) == 0
    assert probe.fired == [("s-1", 3)]
    assert not Clock.objects.filter(kind=PROBE).exists()


def test_a_moved_clock_fires_only_at_the_version_it_was_moved_to(probe):
    now = timezone.now()
    set_clock("s-1", 3, now - PAST)  # due, but moved on before any drain
    probe.current["s-1"] = 4
    set_clock("s-1", 4, now + PAST)
    assert clocks.drain(kinds=[PROBE], now=now) == 0  # the old version is gone, not due
    assert clocks.drain(kinds=[PROBE], now=now + PAST) == 1
    assert probe.fired == [("s-1", 4)]


def test_a_clock_whose_stream_moved_on_is_dropped_without_acting(probe):
    set_clock("s-1", 3, timezone.now() - PAST)
    probe.current["s-1"] = 5  # the command that moved it did not clear it
    assert clocks.drain(kinds=[PROBE]) == 0
    assert probe.fired == [] and not Clock.objects.filter(kind=PROBE).exists()


def test_a_cleared_clock_does_not_fire(probe):
    set_clock("s-1", 3, timezone.now() - PAST)
    with transaction.atomic():
        clocks.clock_clear(stream="s-1", kind=PROBE)
    assert clocks.drain(kinds=[PROBE]) == 0 and probe.fired == []


def test_a_clock_that_comes_early_is_set_again_for_its_time(probe):
    now = timezone.now()
    set_clock("s-1", 3, now - PAST)
    probe.early["s-1"] = now + PAST
    assert clocks.drain(kinds=[PROBE], now=now) == 0
    again = Clock.objects.get(kind=PROBE)
    assert (again.version, again.due) == (3, now + PAST)
    assert clocks.drain(kinds=[PROBE], now=now + PAST) == 1
    assert probe.fired == [("s-1", 3)]


def test_a_failed_command_leaves_its_clock_for_a_later_drain(probe):
    set_clock("s-1", 3, timezone.now() - PAST)
    set_clock("s-2", 8, timezone.now() - PAST)
    probe.fail_once.add("s-1")
    assert clocks.drain(kinds=[PROBE]) == 1  # s-2 fired; s-1 rolled back, not lost
    assert not marked("s-1") and marked("s-2")  # nothing of the failed command stays
    assert Clock.objects.get(kind=PROBE).stream == "s-1"
    assert clocks.drain(kinds=[PROBE]) == 1
    assert sorted(probe.fired) == [("s-1", 3), ("s-2", 8)]
    assert marked("s-1")


def test_the_drain_takes_only_the_kinds_asked_for(probe):
    set_clock("s-1", 3, timezone.now() - PAST)
    assert clocks.drain(kinds=["test.elsewhere"]) == 0
    assert Clock.objects.filter(kind=PROBE).exists()
    assert clocks.drain() == 1


def test_the_nearest_due_time_is_what_the_waker_sleeps_until():
    now = timezone.now()
    assert clocks.nearest() is None
    set_clock("s-1", 1, now + 5 * PAST)
    set_clock("s-2", 1, now + 2 * PAST)
    assert clocks.nearest() == now + 2 * PAST
    assert clocks.nearest(after=now + 2 * PAST) == now + 5 * PAST


# --------------------------------------------------------------------------
# Several drainers, and a drainer that dies (PostgreSQL: row locks)


def in_thread(target: object) -> threading.Thread:
    def run() -> None:
        try:
            target()  # type: ignore[operator]
        finally:
            connections.close_all()

    thread = threading.Thread(target=run)
    thread.start()
    return thread


@pytest.mark.postgres
def test_concurrent_drainers_fire_each_clock_once(probe, pg_default):
    now = timezone.now()
    with transaction.atomic():
        for n in range(60):
            clocks.clock_set(stream=f"s-{n}", kind=PROBE, version=n, due=now - PAST)
    counts: list[int] = []
    start = threading.Barrier(4)

    def drainer() -> None:
        start.wait(10)
        counts.append(clocks.drain(kinds=[PROBE]))

    for thread in [in_thread(drainer) for _ in range(4)]:
        thread.join(60)
    assert sorted(probe.fired) == sorted((f"s-{n}", n) for n in range(60))  # each once
    assert sum(counts) == 60
    assert not Clock.objects.filter(kind=PROBE).exists()


@pytest.mark.postgres
def test_a_drainer_whose_connection_dies_mid_command_leaves_the_clock(probe, pg_default):
    set_clock("s-1", 3, timezone.now() - PAST)
    probe.hold = threading.Event()
    pids: list[int] = []
    errors: list[BaseException] = []

    def drainer() -> None:
        pids.append(connection.cursor().connection.info.backend_pid)
        try:
            clocks.drain(kinds=[PROBE])
        except BaseException as error:  # its connection is gone: nothing to go on with
            errors.append(error)

    thread = in_thread(drainer)
    assert probe.held.wait(10)  # inside the command, the row deleted and locked
    assert clocks.drain(kinds=[PROBE]) == 0  # another drain skips the locked row
    with connection.cursor() as cursor:  # the drainer's process dies: its session ends
        cursor.execute("SELECT pg_terminate_backend(%s)", [pids[0]])
    probe.hold.set()
    thread.join(30)
    assert probe.fired == [("s-1", 3)]  # it ran, but never committed
    assert Clock.objects.filter(kind=PROBE, stream="s-1").exists()
    assert not marked("s-1")
    probe.hold, probe.fired = None, []
    assert clocks.drain(kinds=[PROBE]) == 1  # a later drain fires it, once
    assert probe.fired == [("s-1", 3)] and marked("s-1")


@pytest.mark.postgres
def test_a_drainer_that_dies_mid_batch_gives_back_the_clocks_it_fired_too(probe, pg_default):
    now = timezone.now()
    set_clock("s-1", 3, now - 2 * PAST)
    set_clock("s-2", 5, now - PAST)  # the same batch, after s-1
    probe.hold, probe.hold_at = threading.Event(), "s-2"
    pids: list[int] = []

    def drainer() -> None:
        pids.append(connection.cursor().connection.info.backend_pid)
        with contextlib.suppress(BaseException):  # its connection is gone
            clocks.drain(kinds=[PROBE])

    thread = in_thread(drainer)
    assert probe.held.wait(10)  # s-1's command ran; s-2's runs, both rows deleted
    assert clocks.drain(kinds=[PROBE]) == 0  # both rows are the dying drain's
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_terminate_backend(%s)", [pids[0]])
    probe.hold.set()
    thread.join(30)
    assert sorted(probe.fired) == [("s-1", 3), ("s-2", 5)]  # ran, never committed
    assert not marked("s-1") and not marked("s-2")
    assert Clock.objects.filter(kind=PROBE).count() == 2
    probe.hold, probe.fired = None, []
    assert clocks.drain(kinds=[PROBE]) == 2  # a later drain fires each, once
    assert sorted(probe.fired) == [("s-1", 3), ("s-2", 5)]
    assert marked("s-1") and marked("s-2")


def test_a_drain_takes_its_clocks_in_batches_and_fires_every_one(probe, monkeypatch):
    monkeypatch.setattr(clocks, "BATCH", 3)
    now = timezone.now()
    with transaction.atomic():
        for n in range(8):
            clocks.clock_set(stream=f"s-{n}", kind=PROBE, version=n, due=now - PAST)
    assert clocks.drain(kinds=[PROBE]) == 8
    assert sorted(probe.fired) == sorted((f"s-{n}", n) for n in range(8))
    assert not Clock.objects.filter(kind=PROBE).exists()
