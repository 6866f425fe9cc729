"""A sit-and-go in the browser: two players register on its page, it
starts when full with its clock on screen, each finds his table from the
tournament's page, and they play it to the end (all-in when the bet
window allows) until the page shows the winner."""

from __future__ import annotations

import contextlib
import re
import time
import uuid
from typing import Any

import pytest
from playwright.sync_api import Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from tests.e2e.conftest import WAIT_MS, grant, register, serious_violations
from tests.e2e.test_table_play import PASSWORD, log_in, view
from tests.integration.cluster import Server

pytestmark = pytest.mark.postgres

PLAY_S = 150
"""How long the two may take to finish it (a loaded machine is slow)."""


@pytest.fixture
def sit_and_go(server: Server) -> dict[str, Any]:
    """A director (cashier too), two funded players, and a heads-up
    sit-and-go of 32 Card Draw with a short level clock."""
    director = register(server, "director")
    grant(server, ("director", "tournament_director"), ("director", "cashier"))
    players = {}
    for name in ("cy", "di"):
        status, me = server.request("GET", "/api/me/", register(server, name, PASSWORD))
        assert status == 200, me
        player = me["id"]
        status, body = server.request(
            "POST",
            f"/api/wallets/{player}/deposit/",
            director,
            {"transfer_id": str(uuid.uuid4()), "amount": 100},
        )
        assert status in (200, 201), body
        players[name] = player
    status, tournament = server.request(
        "POST",
        "/api/tournaments/",
        director,
        {
            "name": "Heads-up SNG",
            "game": "32-card-draw",
            "betting": "no-limit",
            "structure": {
                "levels": [
                    {"small_blind": 10, "big_blind": 20, "minutes": 15},
                    {"small_blind": 20, "big_blind": 40, "minutes": 15},
                ],
                # A "minute" of 12 s: 3 minutes a level, a 1 s pause between hands.
                "minute_seconds": 12,
            },
            "starting_stack": 500,
            "buy_in": 10,
            "fee": 0,
            "min_players": 2,
            "max_players": 2,
            "sit_and_go": True,
        },
    )
    assert status == 201, tournament
    return {"id": tournament["id"], "players": players}


def play_one(page: Page) -> None:
    """One action of a player who shoves: all-in when he may bet or
    raise, else call or check; stands pat, declines Parole, shows."""
    for kind in ("raise", "bet"):
        button = page.locator(f"#act-{kind}")
        if button.count():
            field = page.locator("#amount")
            if field.count():
                field.fill(field.get_attribute("max") or "")
            button.click()
            return
    for action in ("call", "check", "stand", "decline", "show"):
        button = page.locator(f"#act-{action}")
        if button.count():
            button.click()
            return


def test_a_sit_and_go_runs_to_the_end_with_its_clock_on_screen(
    browser: Any, server: Server, sit_and_go: dict[str, Any], shots: Any
) -> None:
    base = server.http
    tournament = sit_and_go["id"]
    contexts = [browser.new_context(viewport={"width": 1280, "height": 860}) for _ in range(2)]
    pages = {name: c.new_page() for name, c in zip(("cy", "di"), contexts, strict=True)}
    errors: list[str] = []
    try:
        for registered, (name, page) in enumerate(pages.items(), start=1):
            page.on("pageerror", lambda e: errors.append(str(e)))
            log_in(page, base, name)
            page.get_by_role("link", name="Heads-up SNG").click()
            expect(page.locator("#tournament")).to_contain_text("Heads-up SNG", timeout=WAIT_MS)
            expect(page.locator("#tournament-players")).to_contain_text(
                f"Registered {registered - 1} of 2 seats"
            )
            if registered == 1:  # the page a player enters it from
                assert serious_violations(page) == [], "registration"
            page.locator("#register").click()
            expect(page.locator("#your-entry")).to_be_visible(timeout=WAIT_MS)
            if registered == 1:  # before the start: registered, no stack yet
                expect(page.locator("#your-entry")).to_have_text("You are registered (paid 10).")
                expect(page.locator("#tournament-players")).to_contain_text(
                    "Registered 1 of 2 seats"
                )

        # Full: it starts, the clock runs on both pages.
        for page in pages.values():
            expect(page.locator("#tournament-clock")).to_contain_text(
                re.compile(r"Level 1: 10/20 · [23]:\d\d left · next 20/40"), timeout=WAIT_MS
            )
        # At a glance: a big clock, the blinds now and next with the over
        # blind, players left of entries, the stacks, the payouts, his own.
        glance = pages["cy"].locator("#glance")
        expect(glance.locator("#big-clock")).to_have_text(re.compile(r"^\d+:\d\d$"))
        expect(glance.locator("#glance-blinds")).to_have_text("10/20 · OB 40")
        expect(glance.locator("#glance-next")).to_have_text("20/40 · OB 80")
        expect(glance.locator("#glance-players")).to_have_text("2 left of 2 entries")
        expect(glance.locator("#glance-stacks")).to_have_text(
            re.compile(r"^average \d+ · largest \d+ · smallest \d+$")
        )
        expect(glance.locator("#glance-you")).to_contain_text("of 2, stack ")
        expect(glance.locator("#glance-payouts li").first).to_contain_text("1st: ")
        shots(pages["cy"], "clock", readme="tournament")
        assert serious_violations(pages["cy"]) == [], "running, at a glance"

        # The director pauses the clock from his page, and the players'
        # pages say so live; he resumes it.
        desk = browser.new_context()
        contexts.append(desk)
        director = desk.new_page()
        log_in(director, base, "director")
        director.goto(f"{base}/#/tournaments/{tournament}")
        # Only the clock button that applies; the director's panel above
        # the structure, which is folded; Disqualify marked dangerous.
        expect(director.get_by_role("button", name="Resume")).to_have_count(0, timeout=WAIT_MS)
        disqualify = director.locator("#disqualify-form").get_by_role("button", name="Disqualify")
        expect(disqualify).to_have_class("danger")
        assert director.evaluate(
            "() => document.querySelector('.director').compareDocumentPosition("
            "document.querySelector('#structure')) & Node.DOCUMENT_POSITION_FOLLOWING"
        )
        expect(director.locator("#structure table")).not_to_be_visible()
        director.get_by_role("button", name="Pause").click()
        for page in pages.values():
            expect(page.locator("#tournament-clock")).to_contain_text("paused", timeout=WAIT_MS)
        expect(director.get_by_role("button", name="Pause")).to_have_count(0, timeout=WAIT_MS)
        shots(director, "director")
        assert serious_violations(director) == [], "director's page"
        director.get_by_role("button", name="Resume").click()
        for page in pages.values():
            expect(page.locator("#tournament-clock")).not_to_contain_text("paused", timeout=WAIT_MS)
        # A disqualification asks first; dismissed, nothing happens.
        # The question is read once Playwright has seen the dialog: the
        # click can return before the dialog's event is handled.
        director.once("dialog", lambda d: d.dismiss())
        director.locator("#disqualify-form").get_by_label("Player number").fill(
            str(sit_and_go["players"]["cy"])
        )
        with director.expect_event("dialog", timeout=WAIT_MS) as asked:
            disqualify.click()
        assert "cy (player" in asked.value.message.lower(), asked.value.message
        for page in pages.values():
            page.locator("#your-entry a").click()
            expect(page.locator("#feed-status")).to_have_text("live", timeout=WAIT_MS)
            # A tournament table: chips come and go with the tournament only.
            expect(page.locator("#sit-out")).to_be_visible(timeout=WAIT_MS)
            expect(page.locator("#top-up")).to_have_count(0)
            expect(page.locator("#leave")).to_have_count(0)
        assert serious_violations(pages["cy"]) == [], "a running tournament's table"

        deadline = time.monotonic() + PLAY_S
        while True:
            status, state = server.request("GET", f"/api/tournaments/{tournament}/")
            assert status == 200
            if state["status"] == "finished":
                break
            assert time.monotonic() < deadline, state
            for page in pages.values():
                if page.locator("#controls .actions").count():
                    hand = view(page)["hand"]
                    play_one(page)
                    # A refusal (the bet window closed meanwhile) moves
                    # nothing: the loop asks again with the new menu.
                    with contextlib.suppress(PlaywrightTimeout):
                        page.wait_for_function(
                            "h => { const v = window.pokerTable?.state.view.hand;"
                            " return !v || v.id !== h.id || v.version > h.version; }",
                            arg={"id": hand["id"], "version": hand["version"]},
                            timeout=5_000,
                        )
            pages["cy"].wait_for_timeout(100)

        # The tournament's page names the winner first, the loser second.
        standings = [
            s["name"] for s in server.request("GET", f"/api/tournaments/{tournament}/standings/")[1]
        ]
        for page in pages.values():
            page.goto(f"{base}/#/tournaments/{tournament}")
            expect(page.locator("#tournament-clock")).to_have_text("finished", timeout=WAIT_MS)
            expect(page.locator("#standings li").first).to_contain_text(standings[0])
            place = "1st" if page is pages[standings[0]] else "2nd"
            expect(page.locator("#your-entry")).to_have_text(f"You finished {place}.")
        shots(pages["cy"], "finished")
        assert serious_violations(pages["cy"]) == [], "standings"
        assert errors == []
    except BaseException:
        for name, page in pages.items():
            shots(page, f"failed-{name}")
        raise
    finally:
        for context in contexts:
            context.close()
