"""The clock benchmark's own kind of clock, ``bench.tick``, connected to
the kernel's ``clock_due`` in the benchmark's worker when it imports this module (``celery worker
--include bench.clock_kind``, after Django is set up; a prefork pool's
processes inherit it).

Its command only records when it ran, in the drain's transaction, into a
table the benchmark made (``TABLE``): a recorded tick was fired and
committed, and what is measured is the clock machinery (the waker, the
notification, the drain), not a game's command."""

from __future__ import annotations

from django.db import connection
from django.utils import timezone

from kernel import clocks
from kernel.models import Clock
from kernel.signals import clock_due

KIND = "bench.tick"
TABLE = "bench_tick_fired"
CREATE = f"CREATE TABLE {TABLE} (stream text, version bigint, due timestamptz, fired timestamptz)"


def fire(clock: Clock) -> None:
    """Record the tick: its clock, when it was due, and when it ran."""
    with connection.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO {TABLE} (stream, version, due, fired) VALUES (%s, %s, %s, %s)",
            [clock.stream, clock.version, clock.due, timezone.now()],
        )


due = clocks.firing({KIND}, fire)
clock_due.connect(due, dispatch_uid=KIND)
