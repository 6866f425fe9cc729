"""Multi-flight events in the browser: a player opens the event, sees its
flights and Day 2 waiting for them, enters Day 1A with the button (then
Day 1B is closed to him while he plays 1A) and finds the event from the
flight's own page; the director finds the event on the staff page."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import WAIT_MS, grant, register
from tests.e2e.test_table_play import PASSWORD, log_in
from tests.integration.cluster import Server

pytestmark = pytest.mark.postgres


def _event(server: Server, director: str) -> dict[str, Any]:
    now = datetime.now(UTC)
    status, event = server.request(
        "POST", "/api/flight-events/", director,
        {
            "name": "Flighted Main", "game": "32-card-draw", "betting": "no-limit",
            "structure": {"levels": [{"small_blind": 10, "big_blind": 20, "minutes": 30}]},
            "starting_stack": 500, "buy_in": 100, "fee": 10,
            "flights": [(now + timedelta(days=k)).isoformat() for k in (1, 2)],
            "day_two_starts_at": (now + timedelta(days=3)).isoformat(),
            "advance_percent": 15, "carry": "latest",
        },
    )  # fmt: skip
    assert status == 201, event
    return event


def test_a_player_enters_a_flight_and_sees_the_event(browser: Any, server: Server, shots: Any):
    base = server.http
    director = register(server, "flightboss", PASSWORD)
    grant(server, ("flightboss", "tournament_director"), ("flightboss", "cashier"))
    status, me = server.request("GET", "/api/me/", register(server, "flight_hal", PASSWORD))
    assert status == 200, me
    status, paid = server.request(
        "POST", f"/api/wallets/{me['id']}/deposit/", director,
        {"transfer_id": str(uuid.uuid4()), "amount": 500},
    )  # fmt: skip
    assert status in (200, 201), paid
    event = _event(server, director)
    contexts = [browser.new_context(viewport={"width": 1280, "height": 860}) for _ in range(2)]
    errors: list[str] = []
    try:
        page, boss = (c.new_page() for c in contexts)
        page.on("pageerror", lambda e: errors.append(str(e)))
        log_in(page, base, "flight_hal")
        page.goto(f"{base}/#/flight-events/{event['id']}")
        flights = page.locator("#flights")
        expect(flights.locator('tr[data-flight="2"]')).to_contain_text("Day 1B", timeout=WAIT_MS)
        expect(page.locator("#day-two")).to_contain_text("waiting for the flights (0 of 2 in)")
        expect(page.locator("#your-bags")).to_contain_text("You have not bagged chips yet.")
        expect(page.get_by_text("latest bag goes through")).to_be_visible()
        flights.locator('tr[data-flight="1"] button', has_text="Enter").click()
        expect(page.locator("#notice")).to_contain_text("You are in Day 1A", timeout=WAIT_MS)
        expect(flights.locator("button")).to_have_count(0, timeout=WAIT_MS)  # in 1A: not 1B
        shots(page, "event")
        flights.locator('tr[data-flight="1"] a', has_text="Day 1A").click()
        expect(page.locator("#flight-event")).to_contain_text("Flighted Main", timeout=WAIT_MS)

        boss.on("pageerror", lambda e: errors.append(str(e)))
        log_in(boss, base, "flightboss")
        boss.goto(f"{base}/#/staff")
        boss.get_by_role("tab", name="Tournaments").click()
        boss.locator("#staff-flight-events a", has_text="Flighted Main").click()
        expect(boss.locator("#flights tbody tr")).to_have_count(2, timeout=WAIT_MS)
        shots(boss, "staff-event")
    finally:
        for context in contexts:
            context.close()
    assert errors == []
