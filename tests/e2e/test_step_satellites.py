"""Step satellites in the browser: the director finds the chain on the
staff page and sees its steps, prices and tickets outstanding; a player
holding a step ticket sees in his wallet what it enters, its value and
when it expires."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import WAIT_MS, grant, manage, register
from tests.e2e.test_table_play import PASSWORD, log_in
from tests.integration.cluster import Server

pytestmark = pytest.mark.postgres


def _chain(server: Server, director: str) -> dict[str, Any]:
    later = (datetime.now(UTC) + timedelta(days=7)).isoformat()
    status, target = server.request(
        "POST", "/api/tournaments/", director,
        {
            "name": "Main event", "game": "32-card-draw", "betting": "no-limit",
            "structure": {"levels": [{"small_blind": 10, "big_blind": 20, "minutes": 30}]},
            "starting_stack": 500, "buy_in": 1000, "fee": 100, "starts_at": later,
        },
    )  # fmt: skip
    assert status == 201, target
    status, chain = server.request(
        "POST", "/api/step-chains/", director,
        {
            "name": "Road to the Main", "target": target["id"], "expires_at": later,
            "steps": [{"price": 110}, {"price": 330, "consolation": [2, 1]}],
        },
    )  # fmt: skip
    assert status == 201, chain
    return chain


def _house_ticket(server: Server, username: str, into: str, value: int) -> None:
    """A promotional ticket from the house (funded first), as a cashier's
    shell would give one."""
    script = "; ".join(
        [
            "import uuid",
            "from django.contrib.auth import get_user_model",
            "from accounts import money",
            f"money.house_fund(transfer_id=uuid.uuid4(), amount={value})",
            f"user = get_user_model().objects.get(username={username!r})",
            "money.ticket_award(transfer_id=uuid.uuid4(), user_id=user.pk, "
            f"target={into!r}, value={value})",
        ]
    )
    manage(server, "shell", "-c", script)


def test_the_director_sees_the_chain_and_a_holder_his_ticket(
    browser: Any, server: Server, shots: Any
) -> None:
    base = server.http
    director = register(server, "stepboss", PASSWORD)
    grant(server, ("stepboss", "tournament_director"))
    register(server, "gil", PASSWORD)
    chain = _chain(server, director)
    ticket = chain["steps"][1]["ticket"]
    _house_ticket(server, "gil", ticket, 330)
    contexts = [browser.new_context(viewport={"width": 1280, "height": 860}) for _ in range(2)]
    errors: list[str] = []
    try:
        page, boss = (c.new_page() for c in contexts)
        page.on("pageerror", lambda e: errors.append(str(e)))
        log_in(page, base, "gil")
        page.goto(f"{base}/#/wallet")
        held = page.locator(f'li[data-ticket="{ticket}"]')
        expect(held).to_contain_text("1 ticket(s) into Road to the Main, step 2", timeout=WAIT_MS)
        expect(held).to_contain_text("worth 330 each, good until")
        shots(page, "ticket")

        boss.on("pageerror", lambda e: errors.append(str(e)))
        log_in(boss, base, "stepboss")
        boss.goto(f"{base}/#/staff")
        boss.get_by_role("tab", name="Tournaments").click()
        boss.locator("#staff-step-chains a", has_text="Road to the Main").click()
        steps = boss.locator("#steps")
        expect(steps.locator('tr[data-step="2"] .outstanding')).to_have_text("1", timeout=WAIT_MS)
        expect(steps.locator('tr[data-step="1"] .outstanding')).to_have_text("0")
        expect(steps.locator('tr[data-step="2"]')).to_contain_text("step 2, step 1")
        expect(boss.locator("#step-target")).to_contain_text("Main event")
        shots(boss, "chain")
    finally:
        for context in contexts:
            context.close()
    assert errors == []
