"""Staff at work in the browser: a table opened from the staff page shows
up in a player's lobby without a reload, and leaves it when it is closed;
a player sees no staff page in his menu."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import WAIT_MS, grant, register
from tests.e2e.test_table_play import PASSWORD, log_in
from tests.integration.cluster import Server

pytestmark = pytest.mark.postgres


def test_a_table_opened_and_closed_by_staff_comes_and_goes_in_the_lobby_live(
    browser: Any, server: Server, shots: Any
) -> None:
    register(server, "floor", PASSWORD)
    register(server, "punter", PASSWORD)
    grant(server, ("floor", "cashier"))  # a cashier is staff: he opens tables
    contexts = [browser.new_context() for _ in range(2)]
    staff, player = (c.new_page() for c in contexts)
    try:
        log_in(player, server.http, "punter")
        expect(player.locator("#nav")).not_to_contain_text("Staff")
        expect(player.locator("#lobby-status")).to_have_text("live", timeout=WAIT_MS)

        log_in(staff, server.http, "floor")
        staff.get_by_role("link", name="Staff").click()
        form = staff.locator("#open-table")
        form.get_by_label("Game").select_option("five-card-draw")
        form.get_by_label("Betting").select_option("pot-limit")
        form.get_by_label("Name").fill("Late Game")
        form.get_by_label("Small blind").fill("5")
        form.get_by_label("Big blind").fill("10")
        form.get_by_role("button", name="Open table").click()
        line = staff.locator("#staff-tables li", has_text="Late Game")
        expect(line).to_be_visible(timeout=WAIT_MS)
        shots(staff, "staff")

        row = player.locator("#tables tr", has_text="Late Game")
        expect(row).to_contain_text("Five Card Draw, pot-limit", timeout=WAIT_MS)
        expect(row).to_contain_text("5/10")

        line.get_by_role("button", name="Close").click()
        expect(row).to_have_count(0, timeout=WAIT_MS)
        expect(staff.locator("#staff-tables li", has_text="Late Game")).to_have_count(0)
    finally:
        for context in contexts:
            context.close()
