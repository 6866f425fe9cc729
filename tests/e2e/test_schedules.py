"""A schedule in the browser: a tournament director sets one up on the
staff page (a refusal of its template shown), sees the tournaments it
created ahead and pauses it; a player's lobby lists them under coming
up, soonest first, with the schedule's name."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import WAIT_MS, grant, register, serious_violations
from tests.e2e.test_table_play import PASSWORD, log_in
from tests.integration.cluster import Server

pytestmark = pytest.mark.postgres


def test_a_schedule_set_up_on_the_staff_page_fills_the_lobby_coming_up(
    browser: Any, server: Server, shots: Any
) -> None:
    register(server, "planner", PASSWORD)
    register(server, "early_bird", PASSWORD)
    grant(server, ("planner", "tournament_director"))
    contexts = [browser.new_context() for _ in range(2)]
    director, player = (c.new_page() for c in contexts)
    try:
        log_in(director, server.http, "planner")
        director.get_by_role("link", name="Staff").click()
        director.get_by_role("tab", name="Schedules").click()
        form = director.locator("#create-schedule")
        form.get_by_label("Name", exact=True).fill("Nightly Turbo")
        form.get_by_label("Every", exact=True).select_option("weekly")
        form.get_by_label("Created ahead (days)").fill("7")
        create = form.get_by_role("button", name="Set up schedule")
        create.click()  # weekly, but no day ticked: refused by the field it names
        expect(form.get_by_role("alert")).to_contain_text(
            "A weekly schedule names its days.", timeout=WAIT_MS
        )
        form.get_by_label("Every", exact=True).select_option("daily")
        form.get_by_label("Time zone (empty: the room's)").fill("Europe/Berlin")
        create.click()
        line = director.locator("#staff-schedules > li", has_text="Nightly Turbo")
        expect(line).to_contain_text(
            "every day at 20:00 (Europe/Berlin), 7 days ahead", timeout=WAIT_MS
        )
        expect(line.locator("ul li")).to_have_count(7)  # today's start may have passed
        assert serious_violations(director) == []
        shots(director, "schedules")

        log_in(player, server.http, "early_bird")
        rows = player.locator("#coming-up tr", has_text="Nightly Turbo")
        expect(rows.first).to_contain_text("Nightly Turbo", timeout=WAIT_MS)
        assert rows.count() >= 6
        expect(rows.first).to_contain_text("100+10")
        shots(player, "coming-up")

        line.get_by_role("button", name="Pause").click()
        expect(line).to_contain_text("paused", timeout=WAIT_MS)
        expect(line.get_by_role("button", name="Resume")).to_be_visible()
    finally:
        for context in contexts:
            context.close()
