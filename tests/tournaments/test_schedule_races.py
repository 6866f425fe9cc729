"""Schedules filled by runs racing on PostgreSQL (two beats, a task run
twice; one thread and connection each): every occurrence gets one
tournament, and the ledger holds one guarantee for each."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime, timedelta

import pytest

from accounts import money
from tests.poker.concurrency import race
from tests.tournaments.service_support import house
from tests.tournaments.test_schedules import TEMPLATE, make
from tournaments import schedules
from tournaments.models import Schedule, Tournament

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("pools_paid", "pg_default"),
    pytest.mark.postgres,
]


def test_runs_racing_create_each_occurrence_once(client_for, director, clock):
    money.house_fund(transfer_id=uuid.uuid4(), amount=10_000)
    clock.at(datetime(2026, 3, 26, 12, tzinfo=UTC))
    row = make(client_for, director, horizon_days=1, template={**TEMPLATE, "guarantee": 300})
    Schedule.objects.update(horizon_days=6)  # five more days come into the horizon at once
    fill = lambda: schedules.schedules_fill(now=clock.now)  # noqa: E731
    outcomes = race(fill, fill, fill, lambda: schedules.schedule_fill(row.pk, now=clock.now))
    assert [o.code for o in outcomes] == [None] * 4
    assert sum(o.value for o in outcomes) == 5
    days = list(Schedule.objects.get().occurrences.values_list("day", flat=True))
    assert len(days) == len(set(days)) == 6 == Tournament.objects.count()
    assert house() == 10_000 - 6 * 300
    assert days[-1] - days[0] == timedelta(days=5)
