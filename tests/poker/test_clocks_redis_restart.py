"""A worker rides out a restart of its Redis (issue 17): a real worker on a
Redis of the test's own (a spare port, as ``bench.chaos`` runs it), which
the test restarts while a clock runs.  Celery 5.7 let the worker exit
then (``config.broker`` says why); now it reconnects, and a clock set
after the restart fires, once."""

from __future__ import annotations

import pytest

from bench.chaos import instances
from kernel.models import Command, Event
from poker import clocks
from poker.models import Hand
from tests.poker.clock_support import timed_table, until

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.redis, pytest.mark.postgres]


@pytest.fixture
def redis_url(own_redis: instances.Redis) -> str:
    """The clock fixtures' broker: the test's own Redis."""
    return own_redis.url


def test_a_worker_outlives_a_redis_restart_and_fires_a_clock_set_after_it(
    own_redis, start_worker, make_user, staff
):
    worker = start_worker()
    held = timed_table(staff, [make_user("ann"), make_user("bob")], action_seconds=60)
    own_redis.restart()
    worker.wait_for("Connected to", 30, count=2)  # wait_for fails if the worker exited
    assert worker.process.poll() is None
    players = [make_user("cid"), make_user("dan")]
    table = timed_table(staff, players, action_seconds=1, bet_seconds=1)
    hand = Hand.objects.get(table=table, number=1)
    until(lambda: Hand.objects.get(pk=hand.pk).ended_at, 30, "the clock set after the restart")
    folds = Event.objects.filter(stream=hand.stream, type="hand.folded")
    assert [f.data["timed_out"] for f in folds] == [True]
    assert Command.objects.filter(id=clocks.timer_id(hand.stream, hand.version)).count() == 1
    assert worker.process.poll() is None
    assert Hand.objects.get(table=held, number=1).ended_at is None  # its clock still runs
