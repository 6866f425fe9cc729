"""A clock kind for the kernel's tests on a real worker, ``test.worker``:
connected to the kernel's ``clock_due`` in a worker that imports this module (``celery worker
--include tests.kernel.worker_kind``).  Its command writes, in the drain's
transaction, a row of its own for each time it fired (a clock of kind
``test.fired:<n>`` on the clock's stream, due in a day), so the test counts
how often a clock fired, and a firing that rolled back leaves none."""

from __future__ import annotations

import uuid
from datetime import timedelta

from django.utils import timezone

from kernel import clocks
from kernel.models import Clock
from kernel.signals import clock_due

MODULE = __name__
KIND = "test.worker"
FIRED = "test.fired"


def fire(clock: Clock) -> None:
    clocks.clock_set(
        stream=clock.stream,
        kind=f"{FIRED}:{uuid.uuid4().hex}",
        version=clock.version,
        due=timezone.now() + timedelta(days=1),
    )


def times_fired(stream: str) -> int:
    """How often a clock of ``stream`` fired (and committed)."""
    return Clock.objects.filter(stream=stream, kind__startswith=f"{FIRED}:").count()


due = clocks.firing({KIND}, fire)
clock_due.connect(due, dispatch_uid=KIND)
