"""A heads-up knockout in the browser: each player's table shows the head
on both players; the director stops the clock and offers a chip-chop deal;
each player sees it on the tournament's page and accepts it there, and the
page then shows the tournament finished and the deal made."""

from __future__ import annotations

import time
import uuid
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import WAIT_MS, grant, register
from tests.e2e.test_table_play import PASSWORD, log_in
from tests.integration.cluster import Server

pytestmark = pytest.mark.postgres

OFFER_S = 60
"""How long the running hand may take to end by the players' clocks."""


def _knockout(server: Server) -> dict[str, Any]:
    director = register(server, "kboss")
    grant(server, ("kboss", "tournament_director"), ("kboss", "cashier"))
    tokens = {}
    for name in ("kai", "lou"):
        tokens[name] = register(server, name, PASSWORD)
        player = server.request("GET", "/api/me/", tokens[name])[1]["id"]
        body = {"transfer_id": str(uuid.uuid4()), "amount": 100}
        status, answer = server.request("POST", f"/api/wallets/{player}/deposit/", director, body)
        assert status in (200, 201), answer
    status, tournament = server.request(
        "POST", "/api/tournaments/", director,
        {
            "name": "Heads-up KO", "game": "32-card-draw", "betting": "no-limit",
            "structure": {"levels": [{"small_blind": 10, "big_blind": 20, "minutes": 30}]},
            "starting_stack": 500, "buy_in": 10, "fee": 0, "min_players": 2,
            "max_players": 2, "sit_and_go": True, "bounty": {"amount": 5},
            "clocks": {"action_seconds": 3, "draw_seconds": 3, "time_bank_seconds": 0},
        },
    )  # fmt: skip
    assert status == 201, tournament
    return {"id": tournament["id"], "director": director, "tokens": tokens}


def test_the_heads_show_at_the_table_and_a_deal_is_accepted_on_the_page(
    browser: Any, server: Server, shots: Any
) -> None:
    base = server.http
    ko = _knockout(server)
    t = ko["id"]
    for token in ko["tokens"].values():
        status, body = server.request("POST", f"/api/tournaments/{t}/register/", token, {})
        assert status == 200, body
    contexts = [browser.new_context(viewport={"width": 1280, "height": 860}) for _ in range(2)]
    pages = {name: c.new_page() for name, c in zip(("kai", "lou"), contexts, strict=True)}
    errors: list[str] = []
    try:
        for name, page in pages.items():
            page.on("pageerror", lambda e: errors.append(str(e)))
            log_in(page, base, name)
            page.goto(f"{base}/#/tournaments/{t}")
            page.locator("#your-entry a").click()
            expect(page.locator("#bounties")).to_contain_text("kai 5", timeout=WAIT_MS)
            expect(page.locator("#bounties")).to_contain_text("lou 5")
        shots(pages["kai"], "heads")

        director = ko["director"]
        status, body = server.request("POST", f"/api/tournaments/{t}/pause/", director, {})
        assert status == 200, body
        deadline = time.monotonic() + OFFER_S
        while True:  # the hand running ends by the players' clocks
            status, body = server.request(
                "POST", f"/api/tournaments/{t}/deal-propose/", director, {"kind": "chip_chop"}
            )
            if status == 200:
                break
            assert status == 409 and time.monotonic() < deadline, body
            time.sleep(0.5)

        for page in pages.values():
            page.goto(f"{base}/#/tournaments/{t}")
            expect(page.locator("#deal")).to_contain_text("Deal offered", timeout=WAIT_MS)
            page.locator("#deal-accept").click()
        for page in pages.values():
            expect(page.locator("#deal")).to_contain_text("Deal made", timeout=WAIT_MS)
            expect(page.locator("#tournament-clock")).to_have_text("finished", timeout=WAIT_MS)
        shots(pages["lou"], "deal")
        status, results = server.request("GET", f"/api/tournaments/{t}/results/")
        assert sum(r["prize"] for r in results) == 20  # the prize pool, dealt
        assert sum(r["bounty_won"] for r in results) == 10  # each his own head back
        assert errors == []
    except BaseException:
        for name, page in pages.items():
            shots(page, f"failed-{name}")
        raise
    finally:
        for context in contexts:
            context.close()
