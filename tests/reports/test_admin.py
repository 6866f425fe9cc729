"""The reports as admin pages: listed in the admin for staff, each one a
table over the period asked, with its CSV; nothing for players."""

from __future__ import annotations

import pytest
from django.test import Client

from tests.reports.support import around_today, report

pytestmark = [pytest.mark.django_db, pytest.mark.postgres]

LIST = "/admin/reports/report/"


def logged_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_the_admin_index_and_the_list_show_the_reports_to_staff(world):
    client = logged_in(world.boss)
    assert LIST in client.get("/admin/").content.decode()
    page = client.get(LIST).content.decode()
    for title in ("The house&#x27;s income", "Deposits and withdrawals", "Players"):
        assert title in page
    assert f"{LIST}income/" in page
    # The reports' docstrings read as text: no reST markup shows through.
    assert "``" not in page and "<code>" in page


def test_a_report_page_shows_the_rows_and_links_its_csv(world, client_for):
    period = around_today()
    response = logged_in(world.boss).get(f"{LIST}tournaments/", period)
    assert response.status_code == 200
    page = response.content.decode()
    [row] = report(client_for(world.boss), "tournaments")
    assert response.context["rows"] == [[row[c] for c in response.context["columns"]]]
    assert "<td>Sunday</td>" in page
    assert f"/api/reports/tournaments/?from={period['from']}&amp;to={period['to']}" in page
    assert "format=csv" in page
    assert "``" not in page


def test_a_bad_period_on_a_page_says_why(world):
    response = logged_in(world.boss).get(
        f"{LIST}income/", {"from": "2026-03-02", "to": "2026-03-01"}
    )
    assert response.status_code == 200
    assert "after it ends" in response.content.decode()
    assert "rows" not in response.context


def test_players_cannot_open_the_reports_pages(world):
    response = logged_in(world.users["ann"]).get(f"{LIST}income/")
    assert response.status_code == 302 and "/admin/login/" in response["Location"]


def test_an_unknown_report_is_not_found(world):
    assert logged_in(world.boss).get(f"{LIST}nothing/").status_code == 404
