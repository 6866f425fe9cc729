"""The reports over REST: staff only, a period checked, JSON or CSV (the
same rows), and a cost that does not grow with the room's history."""

from __future__ import annotations

import csv
import io
import random
from datetime import date

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from accounts import services as accounts
from poker import services as tables
from reports.catalog import REPORTS
from tests.poker.api_support import Room
from tests.reports.conftest import play_hands
from tests.reports.support import around_today, report

pytestmark = [pytest.mark.django_db, pytest.mark.postgres]

NAMES = sorted(REPORTS)


def csv_rows(content: bytes) -> list[list[str]]:
    return list(csv.reader(io.StringIO(content.decode())))


def as_text(value: object) -> str:
    return "" if value is None else str(value)


@pytest.mark.parametrize("name", NAMES)
def test_the_csv_is_the_json_rows_under_a_header(world, client_for, name):
    client = client_for(world.boss)
    rows = report(client, name)
    assert rows, name  # the world made something of every report
    for asked in ({"format": "csv"}, {"HTTP_ACCEPT": "text/csv"}):
        query = {**around_today(), **{k: v for k, v in asked.items() if k == "format"}}
        headers = {k: v for k, v in asked.items() if k != "format"}
        response = client.get(f"/api/reports/{name}/", query, **headers)
        assert response.status_code == 200
        assert response["Content-Type"] == "text/csv; charset=utf-8"
        assert response["Content-Disposition"].startswith(f'attachment; filename="{name}-')
        header, *lines = csv_rows(response.content)
        assert header == REPORTS[name].columns == list(rows[0])
        assert lines == [[as_text(row[c]) for c in header] for row in rows]


def test_a_csv_cell_never_starts_a_formula(world, client_for):
    ann = world.users["ann"]
    accounts.profile_update(user=ann, screen_name="=Ann")
    response = client_for(world.boss).get(
        "/api/reports/players/", {**around_today(), "format": "csv"}
    )
    lines = csv_rows(response.content)
    assert ["'=Ann" in line for line in lines].count(True) == 1
    assert "=Ann" in [r["screen_name"] for r in report(client_for(world.boss), "players")]


@pytest.mark.parametrize("name", NAMES)
def test_players_are_refused_and_anonymous_visitors_asked_to_log_in(world, client_for, name):
    response = client_for(world.users["ann"]).get(f"/api/reports/{name}/")
    assert response.status_code == 403
    assert response.json()["code"] == "forbidden"
    assert client_for(None).get(f"/api/reports/{name}/").status_code == 401


def test_a_cashier_and_staff_may_read_the_reports(world, client_for, make_user):
    cashier = make_user("till", cash=0, role="cashier")
    director = make_user("td", cash=0, role="tournament_director")
    floor = make_user("floor", cash=0, staff=True)
    for user in (cashier, director, floor):
        assert client_for(user).get("/api/reports/income/").status_code == 200


def test_a_refusal_asked_as_csv_is_json(world, client_for):
    response = client_for(world.users["ann"]).get("/api/reports/income/", {"format": "csv"})
    assert (response.status_code, response["Content-Type"]) == (403, "application/json")
    bad = client_for(world.boss).get("/api/reports/income/", {"format": "csv", "from": "x"})
    assert bad.status_code == 400 and bad.json()["code"] == "invalid"


@pytest.mark.parametrize(
    ("query", "field"),
    [
        ({"from": "2026-02-30"}, "from"),
        ({"from": "yesterday"}, "from"),
        ({"to": ""}, "to"),
        ({"from": "2026-03-02", "to": "2026-03-01"}, "to"),
        ({"from": "2024-01-01", "to": "2025-12-31"}, "to"),
        ({"from": "1999-12-31", "to": "2000-01-01"}, "to"),
        ({"to": "9999-12-31"}, "to"),
        ({"format": "xml"}, None),
    ],
)
def test_a_bad_period_is_refused(world, client_for, query, field):
    response = client_for(world.boss).get("/api/reports/income/", query)
    if field is None:  # no such format: nothing to answer with
        assert response.status_code == 404
        return
    assert response.status_code == 400, response.content
    assert list(response.json()["fields"]) == [field]


def test_a_period_without_dates_is_the_last_thirty_days(world, client_for):
    body = client_for(world.boss).get("/api/reports/cashier/").json()
    first, last = date.fromisoformat(body["from"]), date.fromisoformat(body["to"])
    assert (last - first).days == 29
    assert body["rows"]


@pytest.mark.parametrize("name", NAMES)
def test_a_report_costs_the_same_queries_however_long_the_history(world, client_for, name):
    client = client_for(world.boss)

    def queries() -> int:
        with CaptureQueriesContext(connection) as captured:
            report(client, name)
        return len(captured)

    before = queries()
    room = Room(world.table)
    ann, cat = world.users["ann"], world.users["cat"]
    for user in (ann, cat):
        room.users[user.username] = user
        room.clients[user.pk] = client_for(user)
    tables.seat_sit(by=cat, table_id=world.table, seat=2, buy_in=200)
    play_hands(room, 4, random.Random(9))
    assert queries() == before <= 8
