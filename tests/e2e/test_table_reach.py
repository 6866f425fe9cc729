"""A table within reach: sitting down and leaving by keyboard (T and L,
each said to screen readers, listed where the other keys are), and on a
phone (390x844) every action button a thumb's size and in the bottom part
of the screen a thumb reaches, in the betting round and in the draw."""

from __future__ import annotations

import time
import uuid
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.conftest import WAIT_MS, grant, register
from tests.e2e.test_table_play import log_in
from tests.integration.cluster import ROOT, Server

pytestmark = pytest.mark.postgres

PHONE = {"width": 390, "height": 844}
THUMB_ZONE = 0.5
"""The share of a phone's screen, from its bottom edge, a thumb reaches
holding the phone in one hand."""
THUMB_PX = 44
"""The least width and height of a button for a thumb (WCAG 2.5.5)."""
BETTING = ("#act-fold", "#act-check", "#act-call", "#act-bet", "#act-raise")
DRAW = ("#act-discard", "#act-stand")


def open_table(server: Server, staff: str) -> int:
    settings = {
        "name": f"Reach {uuid.uuid4().hex[:6]}",
        "game": "32-card-draw",
        "betting": "no-limit",
        "small_blind": 1,
        "big_blind": 2,
        **dict.fromkeys(("action_seconds", "bet_seconds", "draw_seconds"), 600),
        "parole_seconds": 600,
        "pause_seconds": 1,
    }
    status, opened = server.request("POST", "/api/tables/", staff, settings)
    assert status == 201, opened
    return int(opened["table"]["id"])


def player(server: Server, cashier: str, name: str, chips: int = 500) -> str:
    """A registered player (his token) with ``chips`` in his wallet."""
    token = register(server, name)
    me = server.request("GET", "/api/me/", token)[1]["id"]
    body = {"transfer_id": str(uuid.uuid4()), "amount": chips}
    status, paid = server.request("POST", f"/api/wallets/{me}/deposit/", cashier, body)
    assert status in (200, 201), paid
    return token


@pytest.fixture
def cashier(server: Server) -> str:
    name = f"teller_{uuid.uuid4().hex[:6]}"
    token = register(server, name)
    grant(server, (name, "cashier"))
    return token


def seat_of(server: Server, table: int, token: str) -> int | None:
    you = server.request("GET", f"/api/tables/{table}/", token)[1].get("you") or {}
    return you.get("seat")


def test_a_player_sits_down_and_leaves_by_keyboard_and_hears_it(
    browser: Any, server: Server, cashier: str
) -> None:
    table = open_table(server, cashier)
    name = f"kim_{uuid.uuid4().hex[:6]}"
    token = player(server, cashier, name)
    context = browser.new_context()
    page = context.new_page()
    try:
        log_in(page, server.http, name)
        page.goto(f"{server.http}/#/tables/{table}")
        hint = page.locator("#pick-seat")
        expect(hint.locator("kbd")).to_have_text("T", timeout=WAIT_MS)  # listed with the seat hint
        page.locator("body").press("t")
        buy_in = page.locator("#sit-form #buy-in")
        expect(buy_in).to_be_focused(timeout=WAIT_MS)
        said = page.locator("#seat-announce")
        expect(said).to_have_attribute("role", "status")
        expect(said).to_have_text(
            "Seat 1: enter your buy-in, then Enter to sit down.", timeout=WAIT_MS
        )
        buy_in.fill("120")
        buy_in.press("Enter")
        leave = page.locator("#leave")
        expect(leave).to_be_visible(timeout=WAIT_MS)
        assert seat_of(server, table, token) == 1
        expect(leave.locator("kbd")).to_have_text("L")  # listed on its button

        page.locator("body").press("l")
        expect(said).to_have_text("Leaving the table.", timeout=WAIT_MS)
        expect(page.locator("#pick-seat")).to_be_visible(timeout=WAIT_MS)
        assert seat_of(server, table, token) is None
        readme = (ROOT / "README.md").read_text(encoding="utf-8")
        assert "**T** take the first" in readme and "**L** leave" in readme
    finally:
        context.close()


def move_on(server: Server, table: int, tokens: dict[int, str], until: Any) -> dict[str, Any]:
    """Both players check, call or stand through the API until ``until(hand)``."""
    deadline = time.monotonic() + 90
    while True:
        hand = server.request("GET", f"/api/tables/{table}/")[1]["hand"]
        if hand and hand["phase"] != "complete" and until(hand):
            return dict(hand)
        assert time.monotonic() < deadline, hand
        if hand and hand["phase"] != "complete" and hand["to_act"] is not None:
            token = tokens[hand["to_act"]]
            mine = server.request("GET", f"/api/tables/{table}/", token)[1]["hand"]
            legal = (mine["legal"] or {}).get("actions", [])
            action = next((a for a in ("check", "call", "stand", "show") if a in legal), None)
            if action is not None:
                body = {
                    "hand": mine["id"],
                    "version": mine["version"],
                    "command_id": str(uuid.uuid4()),
                    "action": action,
                }
                server.request("POST", f"/api/tables/{table}/actions/", token, body)
                continue
        time.sleep(0.2)


def out_of_reach(page: Page, selectors: tuple[str, ...]) -> list[str]:
    """The action buttons shown that a thumb cannot reach or hit: below
    ``THUMB_PX`` either way, or outside the screen's bottom part."""
    height = PHONE["height"]
    shown = 0
    wrong = []
    for selector in selectors:
        button = page.locator(selector)
        if not button.count():
            continue
        shown += 1
        box = button.bounding_box()
        assert box is not None, selector
        if box["width"] < THUMB_PX or box["height"] < THUMB_PX:
            wrong.append(f"{selector} is {box['width']:.0f}x{box['height']:.0f} px")
        if box["y"] < height * (1 - THUMB_ZONE) or box["y"] + box["height"] > height:
            wrong.append(f"{selector} spans y {box['y']:.0f}-{box['y'] + box['height']:.0f}")
    assert shown >= 2, f"the page shows fewer than two of {selectors}"
    return wrong


def test_on_a_phone_every_action_button_is_a_thumbs_size_within_its_reach(
    browser: Any, server: Server, cashier: str, shots: Any
) -> None:
    table = open_table(server, cashier)
    names = [f"{n}_{uuid.uuid4().hex[:6]}" for n in ("lea", "max")]
    tokens = {seat: player(server, cashier, n) for seat, n in enumerate(names, start=1)}
    for seat, token in tokens.items():
        body = {"seat": seat, "buy_in": 100}
        status, sat = server.request("POST", f"/api/tables/{table}/sit/", token, body)
        assert status == 200, sat
    move_on(server, table, tokens, lambda hand: hand["to_act"] == 1 and hand["phase"] == "betting")
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    page = context.new_page()
    try:
        log_in(page, server.http, names[0])
        page.goto(f"{server.http}/#/tables/{table}")
        expect(page.locator("#controls .actions")).to_be_visible(timeout=WAIT_MS)
        assert out_of_reach(page, BETTING) == []
        shots(page, "thumb-betting", full_page=False)

        move_on(server, table, tokens, lambda hand: hand["to_act"] == 1 and hand["phase"] == "draw")
        expect(page.locator("#act-stand")).to_be_visible(timeout=WAIT_MS)
        assert out_of_reach(page, DRAW) == []
        shots(page, "thumb-draw", full_page=False)
    finally:
        context.close()


def test_a_player_takes_a_casino_box_and_leaves_it_by_keyboard(
    browser: Any, server: Server, cashier: str
) -> None:
    body = {"name": f"Keys {uuid.uuid4().hex[:6]}"}
    status, opened = server.request("POST", "/api/casino/tables/", cashier, body)
    assert status == 201, opened
    table = opened["table"]["id"]
    name = f"ida_{uuid.uuid4().hex[:6]}"
    player(server, cashier, name)
    context = browser.new_context()
    page = context.new_page()
    try:
        log_in(page, server.http, name)
        page.goto(f"{server.http}/#/casino/{table}")
        expect(page.locator("#casino-status")).to_have_text("live", timeout=WAIT_MS)
        first = page.locator('.box[data-box="1"] button.sit')
        expect(first.locator("kbd")).to_have_text("T", timeout=WAIT_MS)  # listed on its button
        page.locator("body").press("t")
        said = page.locator("#casino-seat-announce")
        expect(said).to_have_attribute("role", "status")
        expect(said).to_have_text("Sitting in box 1.", timeout=WAIT_MS)
        expect(page.locator('.box.me[data-box="1"]')).to_be_visible(timeout=WAIT_MS)
        expect(page.locator("#casino-leave kbd")).to_have_text("L")
        page.locator("body").press("l")
        expect(said).to_have_text("Leaving the table.", timeout=WAIT_MS)
        expect(page.locator(".box.me")).to_have_count(0, timeout=WAIT_MS)
    finally:
        context.close()
