"""Staff at work in the browser: a table opened from the staff page shows
up in a player's lobby without a reload, and leaves it when it is closed;
a player sees no staff page in his menu; a tournament director creates a
sit-and-go there (the API's refusals shown by the fields they name).  A
player's own account page: screen name, password, limits, self-exclusion
(asked twice) and logging out everywhere."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import WAIT_MS, grant, register, serious_violations
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
        # Refused by the API: the reason shows under the field it names.
        form.get_by_label("Name").fill("x" * 500)
        form.get_by_role("button", name="Open table").click()
        expect(form.locator('[data-field="name"]')).not_to_be_empty(timeout=WAIT_MS)
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


def test_a_director_creates_a_sit_and_go_that_shows_in_the_lobby_live(
    browser: Any, server: Server, shots: Any
) -> None:
    register(server, "td", PASSWORD)
    register(server, "railbird", PASSWORD)
    grant(server, ("td", "tournament_director"))
    contexts = [browser.new_context() for _ in range(2)]
    director, player = (c.new_page() for c in contexts)
    try:
        log_in(player, server.http, "railbird")
        expect(player.locator("#lobby-status")).to_have_text("live", timeout=WAIT_MS)

        log_in(director, server.http, "td")
        director.get_by_role("link", name="Staff").click()
        # The staff page in tabs: cash tables first, one section at a time.
        expect(director.locator("#panel-cash")).to_be_visible(timeout=WAIT_MS)
        expect(director.locator("#panel-tournaments")).to_be_hidden()
        director.get_by_role("tab", name="Tournaments").click()
        expect(director.locator("#panel-cash")).to_be_hidden()
        form = director.locator("#create-tournament")
        form.get_by_label("Tournament name").fill("Friday SNG")
        form.get_by_label("Game", exact=True).select_option("five-card-draw")
        form.get_by_label("Betting").select_option("pot-limit")
        form.get_by_label("Buy-in").fill("25")
        form.get_by_label("Fee").fill("3")
        form.get_by_label("Starting stack").fill("800")
        form.get_by_label("Players min").fill("6")
        form.get_by_label("Players max").fill("4")  # fewer than the minimum
        create = form.get_by_role("button", name="Create tournament")
        # The input checks' refusal, nested ({"rebuys": {"chips": [...]}}),
        # under the field it names.
        form.get_by_label("Rebuys until level").fill("1")
        create.click()
        rebuy_chips = form.locator('[data-field="rebuys.chips"]')
        expect(rebuy_chips).to_have_text("This field is required.", timeout=WAIT_MS)
        expect(form.locator('[data-field="rebuys.price"]')).to_have_text("This field is required.")
        form.get_by_label("Rebuys until level").fill("")
        create.click()
        # The rules' refusal, by the field it names (not a word left out).
        error = form.locator('[data-field="max_players"]')
        expect(error).to_have_text("a whole number from 6 to 10000", timeout=WAIT_MS)
        expect(rebuy_chips).to_be_empty()
        expect(form.get_by_label("Players max")).to_have_attribute(
            "aria-describedby", str(error.get_attribute("id"))
        )

        # Custom levels: a big blind not twice the small one, refused by
        # level and field (structure.levels[1].big_blind) under the levels.
        form.get_by_label("Players max").fill("6")
        form.get_by_label("Structure").select_option("custom")
        form.get_by_label("Levels").fill("10/20 15\n20/45 15")
        create.click()
        levels = form.locator('[data-field="structure.levels"]')
        expect(levels).to_contain_text("levels[1].big_blind", timeout=WAIT_MS)
        expect(levels).to_contain_text("twice the small blind")
        expect(error).to_be_empty()
        expect(form.get_by_role("alert")).to_have_text("Not created: see the fields marked above.")
        shots(director, "refused")

        form.get_by_label("Levels").fill("10/20 15\n20/40 15")
        create.click()
        link = director.locator("#staff-tournaments a", has_text="Friday SNG")
        expect(link).to_be_visible(timeout=WAIT_MS)
        expect(form.locator(".field-error:not(:empty)")).to_have_count(0)

        row = player.locator("#tournaments tr", has_text="Friday SNG")
        expect(row).to_contain_text("Five Card Draw, pot-limit", timeout=WAIT_MS)
        expect(row).to_contain_text("25+3")
        expect(row).to_contain_text("when full")
        expect(row).to_contain_text("0/6")

        link.click()
        page = director.locator("#tournament")
        expect(page).to_contain_text("Friday SNG", timeout=WAIT_MS)
        expect(page).to_contain_text("stack 800")
        shots(director, "created")
    finally:
        for context in contexts:
            context.close()


def test_a_player_runs_his_own_account_from_its_page(
    browser: Any, server: Server, shots: Any
) -> None:
    token = register(server, "owner", PASSWORD)
    context = browser.new_context()
    page = context.new_page()
    missing: list[str] = []
    page.on("response", lambda r: missing.append(r.url) if r.status == 404 else None)
    try:
        log_in(page, server.http, "owner")
        # The main pages pass axe-core with no serious finding.
        for route, ready in (("lobby", "#tables"), ("wallet", "#ledger"), ("hands", "h1")):
            page.goto(f"{server.http}/#/{route}")
            expect(page.locator(ready)).to_be_visible(timeout=WAIT_MS)
            assert serious_violations(page) == [], route
        # A phone: the lobby fits its width.
        page.set_viewport_size({"width": 390, "height": 844})
        page.goto(f"{server.http}/#/lobby")
        expect(page.locator("#lobby-status")).to_have_text("live", timeout=WAIT_MS)
        shots(page, "lobby-phone")
        assert page.evaluate("() => document.documentElement.scrollWidth") <= 390
        page.set_viewport_size({"width": 1280, "height": 800})
        page.locator("#who").click()
        account = page.locator("#account")
        expect(account).to_contain_text("Your account", timeout=WAIT_MS)
        expect(account.locator("#ledger")).to_be_visible()
        assert serious_violations(page) == []

        # The screen name: a refusal by field, then a new name in the menu.
        names = account.locator("#screen-name-form")
        names.get_by_label("Screen name").fill("x" * 300)
        names.get_by_role("button", name="Save screen name").click()
        expect(names.locator('[data-field="screen_name"]')).not_to_be_empty(timeout=WAIT_MS)
        names.get_by_label("Screen name").fill("The Owner")
        names.get_by_role("button", name="Save screen name").click()
        expect(page.locator("#who")).to_have_text("The Owner", timeout=WAIT_MS)
        expect(names.locator(".error:not(:empty)")).to_have_count(0)

        # The password: the wrong old one refused, then changed; the old
        # token stops working, this browser keeps going with a new one.
        password = account.locator("#password-form")
        password.get_by_label("Current password").fill("not it at all")
        password.get_by_label("New password").fill("another long secret 2")
        password.get_by_role("button", name="Change password").click()
        expect(password.get_by_role("alert")).not_to_be_empty(timeout=WAIT_MS)
        password.get_by_label("Current password").fill(PASSWORD)
        password.get_by_label("New password").fill("another long secret 2")
        password.get_by_role("button", name="Change password").click()
        expect(page.locator("#notice")).to_contain_text("Password changed", timeout=WAIT_MS)
        assert server.request("GET", "/api/me/", token)[0] == 401
        fresh = page.evaluate("() => localStorage.getItem('pokerroom.token')")
        assert fresh != token and server.request("GET", "/api/me/", fresh)[0] == 200

        # A deposit limit, then self-exclusion: asked again before it holds.
        limit = account.locator("#deposit-limit-form")
        limit.get_by_label("Most I may deposit").fill("500")
        limit.get_by_role("button", name="Set deposit limit").click()
        limits_now = account.locator("#limits-now")
        expect(limits_now).to_contain_text("500 in any 24 hours", timeout=WAIT_MS)
        exclusion = account.locator("#exclusion-form")
        exclusion.get_by_label("Days away from play").fill("3")
        exclusion.get_by_role("button", name="Exclude me").click()
        confirm = account.locator("#exclusion-confirm")
        expect(confirm).to_contain_text("cannot be shortened", timeout=WAIT_MS)
        assert server.request("GET", "/api/me/limits/", fresh)[1]["excluded_until"] is None
        shots(page, "account-confirm")
        confirm.get_by_role("button", name="Yes, exclude me for 3 days").click()
        expect(account.locator("#excluded-until")).to_be_visible(timeout=WAIT_MS)
        assert server.request("GET", "/api/me/limits/", fresh)[1]["excluded_until"]

        # Everywhere: this browser's token too.
        page.once("dialog", lambda d: d.accept())
        account.get_by_role("button", name="Log out everywhere").click()
        expect(page).to_have_url(re.compile("#/login$"), timeout=WAIT_MS)
        assert server.request("GET", "/api/me/", fresh)[0] == 401
        assert missing == []  # the icon too
    finally:
        context.close()
