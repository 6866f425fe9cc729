"""The simulation's bots wake like clients: a pass reads the open tables
with their current hands in one query, and a table whose streams have not
moved since a pass found nobody to act there is not read again."""

from __future__ import annotations

import random
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from bench.simulation import Idle, Report, _act_at_share
from poker.models import Table
from tests.tournaments.service_support import create, register, start, tournament_tables

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("pools_paid")]


def test_a_pass_reads_no_table_whose_streams_have_not_moved_since_nobody_was_to_act(
    director: Any, players: Any, clock: Any, settings: Any
) -> None:
    settings.TOURNAMENT_TABLES = True
    people = players(12)
    t = create(director)
    register(t, *people)
    row = start(t, clock)
    report = Report(row, None, {str(u.pk): u for u in people})
    tables = tournament_tables(t)
    assert len(tables) >= 2 and all(table.current_hand_id for table in tables)

    idle: Idle = {}
    for table in Table.objects.filter(tournament=t.pk).select_related("current_hand"):
        idle[table.pk] = (table.version, table.current_hand.version)
    with CaptureQueriesContext(connection) as caught:
        assert _act_at_share(report, 0, 1, random.Random(1), idle) == 0
    assert len(caught.captured_queries) == 1  # the open tables and their hands, nothing more

    idle.clear()  # streams moved (as far as the driver knows): every table is looked at again
    assert _act_at_share(report, 0, 1, random.Random(1), idle) == len(tables)
    assert report.actions == len(tables)
