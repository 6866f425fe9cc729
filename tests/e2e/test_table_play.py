"""Two players and a spectator in three browsers: sign up, chips from the
cashier, sit, and a 32 Card Draw hand played to showdown through the page
alone, with a draw, a Parole offer and a dropped socket.

- A spectator's page never has a face-up card before the showdown, and
  after it only the cards the players showed.
- A player's page whose socket drops mid-hand reconnects from the last
  position it saw (``?after=``) and shows the next action without a reload.
- Chips are conserved: what the players bought in for is on the table after
  the hand.
"""

from __future__ import annotations

import re
import time
import uuid
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.conftest import WAIT_MS, grant, register, serious_violations
from tests.integration.cluster import Server

pytestmark = pytest.mark.postgres

PASSWORD = "a long enough secret 1"
BUY_IN = 150
PASSIVE = ("fold", "check", "stand", "decline", "muck", "show")
"""What a player who only wants the hand over does, first legal first."""
TOP_UP = 40
"""Within the table's maximum (200) whoever won the hand."""


def sign_up(page: Page, base: str, username: str) -> None:
    page.goto(f"{base}/#/signup")
    form = page.locator("#signup-form")
    form.get_by_label("Username").fill(username)
    form.get_by_label("Screen name").fill(username.title())
    form.get_by_label("Password").fill(PASSWORD)
    form.get_by_role("button", name="Sign up").click()
    expect(page.locator("#who")).to_have_text(username.title(), timeout=WAIT_MS)
    expect(page).to_have_url(re.compile("#/lobby$"), timeout=WAIT_MS)


def log_in(page: Page, base: str, username: str) -> None:
    page.goto(f"{base}/#/login")
    form = page.locator("#login-form")
    form.get_by_label("Username").fill(username)
    form.get_by_label("Password").fill(PASSWORD)
    form.get_by_role("button", name="Log in").click()
    expect(page.locator("#who")).to_be_visible(timeout=WAIT_MS)
    expect(page).to_have_url(re.compile("#/lobby$"), timeout=WAIT_MS)


def view(page: Page) -> dict[str, Any]:
    """The table view the page last drew (what the server let it see)."""
    return page.evaluate("() => window.pokerTable.state.view")  # type: ignore[no-any-return]


def csp_refusal(text: str) -> bool:
    """A console line of Chromium refusing what the page's
    Content-Security-Policy forbids (an inline style or script)."""
    return "Content Security Policy" in text


def face_up(page: Page) -> list[str]:
    """Every face-up card on the page."""
    return page.locator("[data-card]").evaluate_all("els => els.map(e => e.dataset.card)")  # type: ignore[no-any-return]


def acting(pages: dict[str, Page]) -> tuple[str, Page]:
    """The player whose page shows him his actions (waits for one)."""
    for _ in range(int(WAIT_MS / 100)):
        for name, page in pages.items():
            if page.locator("#controls .actions").count():
                return name, page
        pages[next(iter(pages))].wait_for_timeout(100)
    raise AssertionError("nobody's page offers an action")


def wait_for_move(pages: dict[str, Page], hand_version: int) -> None:
    """Every page has drawn the hand past ``hand_version``."""
    for page in pages.values():
        page.wait_for_function(
            "v => (window.pokerTable?.state.view.hand?.version ?? 0) > v",
            arg=hand_version,
            timeout=WAIT_MS,
        )


@pytest.fixture
def room(server: Server) -> dict[str, Any]:
    """A cashier (staff) and a 32 Card Draw no-limit table with long clocks
    (the bet window stays open however slow the browser is)."""
    token = register(server, "cashier")
    grant(server, ("cashier", "cashier"))
    status, table = server.request(
        "POST",
        "/api/tables/",
        token,
        {
            "name": "Felt One",
            "game": "32-card-draw",
            "betting": "no-limit",
            "small_blind": 1,
            "big_blind": 2,
            "action_seconds": 600,
            "bet_seconds": 600,
            "draw_seconds": 600,
            "parole_seconds": 600,
            "pause_seconds": 600,
        },
    )
    assert status == 201, table
    return {"table": table["table"]["id"]}


def test_two_players_play_a_32_card_draw_hand_while_a_spectator_sees_no_hidden_card(
    browser: Any, server: Server, room: dict[str, Any], shots: Any
) -> None:
    base = server.http
    table = room["table"]
    contexts = [browser.new_context(viewport={"width": 1280, "height": 860}) for _ in range(4)]
    ann, bob, cashier, watcher = (c.new_page() for c in contexts)
    errors: list[str] = []
    for page in (ann, bob, cashier, watcher):
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.on("console", lambda m: csp_refusal(m.text) and errors.append(m.text))
    try:
        # A refused sign-up says which field and why; the browser's own
        # check blocking the next try clears what the API said.
        ann.goto(f"{base}/#/signup")
        form = ann.locator("#signup-form")
        form.get_by_label("Username").fill("a b")
        form.get_by_label("Password").fill("1")
        form.get_by_role("button", name="Sign up").click()
        expect(form.locator('[data-field="username"]')).not_to_be_empty(timeout=WAIT_MS)
        expect(form.get_by_role("alert")).to_have_text("Not sent: see the fields marked above.")
        form.get_by_label("Username").fill("annie")
        form.get_by_role("button", name="Sign up").click()
        expect(form.locator('[data-field="password"]')).to_contain_text("password", timeout=WAIT_MS)
        expect(form.locator('[data-field="username"]')).to_be_empty()
        form.get_by_label("Username").fill("")
        form.get_by_role("button", name="Sign up").click()
        expect(form.locator(".error:not(:empty)")).to_have_count(0)

        # Sign up; no chips yet, and the wallet says where chips come from.
        sign_up(ann, base, "ann")
        sign_up(bob, base, "bob")
        ann.goto(f"{base}/#/wallet")
        expect(ann.locator("#cash")).to_have_text("0", timeout=WAIT_MS)
        expect(ann.locator("#no-chips")).to_contain_text("cashier")
        numbers = {}
        for name, page in (("ann", ann), ("bob", bob)):
            page.goto(f"{base}/#/wallet")
            hint = page.locator("#no-chips strong").inner_text(timeout=WAIT_MS)
            numbers[name] = int(hint)

        # The cashier deposits through his own page; the wallets move live.
        log_in(cashier, base, "cashier")
        cashier.goto(f"{base}/#/cashier")
        form = cashier.locator("#deposit-form")
        form.get_by_label("Player number").fill(str(numbers["ann"]))
        form.get_by_label("Amount").fill("1" * 23)  # refused by the API, by field
        form.get_by_role("button", name="Deposit").click()
        expect(form.locator('[data-field="amount"]')).not_to_be_empty(timeout=WAIT_MS)
        for name in ("ann", "bob"):
            # The cashier sees whom the number pays before he pays.
            form.get_by_label("Player number").fill(str(numbers[name]))
            expect(form.locator(".payee-name")).to_have_text(name.title(), timeout=WAIT_MS)
            form.get_by_label("Amount").fill("1000")
            form.get_by_label("Note").fill(f"chips for {name}")
            form.get_by_role("button", name="Deposit").click()
            expect(cashier.locator("#cashier-result")).to_contain_text(
                f"to {name.title()} (player {numbers[name]}); {name.title()} now has 1000",
                timeout=WAIT_MS,
            )
            expect(form.locator(".error:not(:empty)")).to_have_count(0)
        shots(cashier, "cashier")
        expect(bob.locator("#cash")).to_have_text("1000", timeout=WAIT_MS)
        expect(bob.locator("#ledger")).to_contain_text("chips for bob")
        shots(bob, "wallet")

        # The lobby lists the table; both players sit through the felt.
        ann.goto(f"{base}/#/lobby")
        ann.get_by_role("link", name="Felt One").click()
        expect(ann.locator("#feed-status")).to_have_text("live", timeout=WAIT_MS)
        watcher.goto(f"{base}/#/tables/{table}")
        expect(watcher.locator("#controls")).to_contain_text("Watching")
        for seat, page in ((1, ann), (2, bob)):
            if page is bob:
                page.goto(f"{base}/#/tables/{table}")
            page.get_by_role("button", name=f"Sit in seat {seat}").click()
            page.locator("#buy-in").fill(str(BUY_IN))
            page.locator("#sit-confirm").click()
            expect(page.locator(f'.seat.me[data-seat="{seat}"]')).to_be_visible(timeout=WAIT_MS)
            # placed round the felt by its style, which the page's policy let through
            assert page.locator(".seat.me").evaluate("e => e.style.left").endswith("%")

        pages = {"ann": ann, "bob": bob}
        for page in (*pages.values(), watcher):
            expect(page.locator("#pot")).to_be_visible(timeout=WAIT_MS)
        # Each player sees his five cards face up and the other's five backs.
        for me in pages.values():
            expect(me.locator(".seat.me [data-card]")).to_have_count(5, timeout=WAIT_MS)
            expect(me.locator(".seat:not(.me) .card.back")).to_have_count(5)
        expect(watcher.locator(".card.back")).to_have_count(10)
        assert face_up(watcher) == []
        expect(ann.locator(".badge.button")).to_have_count(1)
        expect(ann.locator(".badge.blind")).to_have_count(2, timeout=WAIT_MS)
        expect(ann.locator("[data-clock]")).to_contain_text(re.compile(r"\d+s · bet \d+s"))
        shots(ann, "table-dealt")

        # Round 1: the first to act calls with the keyboard, the other checks.
        name, page = acting(pages)
        version = view(page)["hand"]["version"]
        page.keyboard.press("c")
        wait_for_move(pages, version)
        name, page = acting(pages)
        assert view(page)["hand"]["phase"] == "betting"
        version = view(page)["hand"]["version"]
        page.locator("#act-check").click()
        wait_for_move(pages, version)

        # The draw: the first player throws two cards by clicking them; the
        # other stands pat.
        drawer, page = acting(pages)
        assert view(page)["hand"]["phase"] == "draw"
        kept = face_up(page)
        cards = page.locator(".seat.me [data-card]")
        cards.nth(0).click()
        page.keyboard.press("2")  # the second card by its number
        expect(page.locator("#act-discard")).to_contain_text("Discard 2")
        # What a screen reader hears: his turn, the pot, his cards.
        expect(page.locator("#announce")).to_contain_text("Your turn: ")
        expect(page.locator("#announce")).to_contain_text("Your cards: ")
        page.evaluate("() => window.scrollTo(0, 0)")
        shots(page, "table-draw", full_page=False, readme="table")
        version = view(page)["hand"]["version"]
        page.keyboard.press("d")  # the discard by its key
        wait_for_move(pages, version)
        after = face_up(page)
        assert len(after) == 5 and set(kept[2:]) <= set(after)
        assert not set(kept[:2]) & set(after)
        assert face_up(watcher) == []

        # A dropped socket mid-hand: the other player's draw still shows up,
        # fetched from the position the page had seen.
        other = "bob" if drawer == "ann" else "ann"
        sockets: list[str] = []
        pages[drawer].on("websocket", lambda ws: sockets.append(ws.url))
        pages[drawer].evaluate("() => window.pokerTable.feed.drop()")
        name, page = acting(pages)
        assert name == other
        version = view(page)["hand"]["version"]
        page.locator("#act-stand").click()
        expect(pages[drawer].locator("#log")).to_contain_text(
            f"{other.title()} stands pat", timeout=WAIT_MS
        )
        assert any(re.search(r"/ws/tables/\d+/\?.*after=\d+", url) for url in sockets), sockets
        expect(pages[drawer].locator("#feed-status")).to_have_text("live", timeout=WAIT_MS)
        wait_for_move(pages, version)

        # Round 2: Parole offered, and declined; then checks to the showdown.
        name, page = acting(pages)
        expect(page.locator("#act-parole")).to_be_visible()
        version = view(page)["hand"]["version"]
        page.locator("#act-parole").click()
        wait_for_move(pages, version)
        for p in (*pages.values(), watcher):
            expect(p.locator("#phase")).to_contain_text("Parole offered by", timeout=WAIT_MS)
        name, page = acting(pages)
        shots(page, "parole")
        version = view(page)["hand"]["version"]
        page.locator("#act-decline").click()
        wait_for_move(pages, version)
        for _ in range(2):
            name, page = acting(pages)
            version = view(page)["hand"]["version"]
            page.locator("#act-check").click()
            wait_for_move(pages, version)
        assert face_up(watcher) == []

        # Showdown: whoever is asked shows.
        while True:
            hand = view(ann)["hand"]
            if hand["phase"] == "complete":
                break
            name, page = acting(pages)
            version = view(page)["hand"]["version"]
            page.locator("#act-show").click()
            wait_for_move(pages, version)

        for p in (*pages.values(), watcher):
            expect(p.locator("#awards .winner")).to_contain_text("wins", timeout=WAIT_MS)
        own = {
            n: sorted(
                p.locator(".seat.me [data-card]").evaluate_all(
                    "els => els.map(e => e.dataset.card)"
                )
            )
            for n, p in pages.items()
        }
        shown = view(watcher)["hand"]["players"]
        showed = {p["screen_name"].lower() for p in shown if p["shown"]}
        expected = sorted(c for n in showed for c in own[n])
        seen = sorted(
            watcher.locator("#felt [data-card]").evaluate_all("els => els.map(e => e.dataset.card)")
        )
        assert showed and seen == expected
        shots(watcher, "spectator-showdown")
        shots(ann, "table-showdown")

        # Chips are conserved: both buy-ins are on the table.
        status, final = server.request("GET", f"/api/tables/{table}/")
        assert status == 200
        stacks = sum(s["stack"] for s in final["seats"])
        assert stacks + rake(final) == 2 * BUY_IN

        # A phone-sized screen shows the same table.
        phone = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True)
        contexts.append(phone)
        small = phone.new_page()
        small.goto(f"{base}/#/tables/{table}")
        expect(small.locator("#awards .winner")).to_be_visible(timeout=WAIT_MS)
        shots(small, "phone")
        width = small.evaluate("() => document.documentElement.scrollWidth")
        assert width <= 390, width

        # The log is numbered from its oldest line; the newest is on top.
        numbers_shown = ann.locator("#log li").evaluate_all("els => els.map(e => e.value)")
        assert numbers_shown == sorted(numbers_shown, reverse=True) and numbers_shown[-1] == 1

        # The hand's history replays, and the browser proves each card Ann
        # saw against the deck's commitment (WebCrypto); a forged card fails.
        ann.get_by_role("link", name="Hand history").click()
        # (the page lists her hands at every table: other tests' too)
        ann.locator(f'a[href="#/hands/{table}-1"]').first.click()
        expect(ann.locator("#hand-title")).to_have_text("Felt One, hand #1", timeout=WAIT_MS)
        expect(ann.locator("#steps li").last).to_have_text("Hand over")
        showed_line = ann.locator("#steps li", has_text=" shows ").first
        expect(showed_line).to_contain_text(re.compile(r": [a-z ]+, [a-z]"))
        expect(ann.locator("#verify-result")).to_contain_text("proved", timeout=WAIT_MS)
        expect(ann.locator("#verify-result")).to_have_class(re.compile(r"\bok\b"))
        expect(ann.locator("#steps li")).not_to_have_count(0)
        steps = ann.locator("#steps li").count()
        ann.locator("#step-back").click()
        expect(ann.locator("#steps li")).to_have_count(steps - 1)
        shots(ann, "history")
        forged = ann.evaluate(FORGE)
        assert forged == {"true": True, "forged": False}

        # Between hands Ann sits out, comes back, tops up and leaves with
        # her chips: her wallet has them again.
        ann.goto(f"{base}/#/tables/{table}")
        stack = next(s["stack"] for s in final["seats"] if s["screen_name"] == "Ann")
        ann.locator("#sit-out").click()
        expect(ann.locator(".seat.me .state")).to_contain_text("sitting out", timeout=WAIT_MS)
        ann.locator("#sit-in").click()
        expect(ann.locator("#sit-out")).to_be_visible(timeout=WAIT_MS)
        ann.locator("#top-up-amount").fill(str(TOP_UP))
        ann.locator("#top-up").click()
        expect(ann.locator('[data-stack="1"]')).to_have_text(str(stack + TOP_UP), timeout=WAIT_MS)
        ann.locator("#leave").click()
        expect(ann.get_by_role("button", name="Sit in seat 1")).to_be_visible(timeout=WAIT_MS)
        ann.goto(f"{base}/#/wallet")
        cash = 1000 - BUY_IN - TOP_UP + (stack + TOP_UP)
        expect(ann.locator("#cash")).to_have_text(str(cash), timeout=WAIT_MS)
        # Her history names the table, with a link to it, not its ledger key.
        ledger = ann.locator("#ledger")
        expect(ledger.get_by_role("link", name="Felt One").first).to_have_attribute(
            "href", f"#/tables/{table}"
        )
        expect(ledger).not_to_contain_text("table-")

        # Logging out ends the token: the wallet asks for a login again.
        token = ann.evaluate("() => localStorage.getItem('pokerroom.token')")
        assert server.request("GET", "/api/me/", token)[0] == 200
        ann.locator("#logout").click()
        expect(ann.get_by_role("link", name="Log in", exact=True)).to_be_visible(timeout=WAIT_MS)
        assert ann.evaluate("() => localStorage.getItem('pokerroom.token')") is None
        ann.goto(f"{base}/#/wallet")
        expect(ann).to_have_url(re.compile("#/login$"), timeout=WAIT_MS)
        assert server.request("GET", "/api/me/", token)[0] == 401
        assert errors == []
    except BaseException:
        for name, page in (("ann", ann), ("bob", bob), ("cashier", cashier), ("watcher", watcher)):
            shots(page, f"failed-{name}")
        raise
    finally:
        for context in contexts:
            context.close()


FORGE = """async () => {
  const { verifyOpening } = await import("/static/client/hands.js");
  const hand = window.lastHandChecked;
  const o = hand.openings[0];
  const root = hand.roots[o.tree];
  const other = o.card === "As" ? "Ks" : "As";
  return {
    true: await verifyOpening(o, root, 32),
    forged: await verifyOpening({ ...o, card: other }, root, 32),
  };
}"""
"""Run the page's own check on one of Ann's openings, then on the same
opening claiming another card."""


def rake(view: dict[str, Any]) -> int:
    """What the house took of the hand (its awards fall short of the pot by it)."""
    hand = view["hand"]
    awarded = sum(a["amount"] for a in hand["awards"])
    total = sum(p["total"] for p in hand["players"])
    return int(total - awarded)


def test_a_spectator_sees_the_over_blind_and_only_backs_at_a_four_handed_table(
    browser: Any, server: Server, shots: Any
) -> None:
    """Four players (seated through the API) and a 32 Card Draw hand with
    the three blinds: the spectator's felt marks the button, SB, BB and OB
    and shows twenty backs, no face."""
    cashier = register(server, "teller")
    grant(server, ("teller", "cashier"))
    status, opened = server.request(
        "POST",
        "/api/tables/",
        cashier,
        {
            "name": "Four Handed",
            "game": "32-card-draw",
            "betting": "pot-limit",
            "small_blind": 1,
            "big_blind": 2,
            "pause_seconds": 1,
            "action_seconds": 600,
            "bet_seconds": 600,
        },
    )
    assert status == 201, opened
    table = opened["table"]["id"]
    tokens = {}
    for seat, name in enumerate(("eve", "fay", "gus", "hal"), start=1):
        token = tokens[seat] = register(server, name)
        player = server.request("GET", "/api/me/", token)[1]["id"]
        status, body = server.request(
            "POST",
            f"/api/wallets/{player}/deposit/",
            cashier,
            {"transfer_id": str(uuid.uuid4()), "amount": 500},
        )
        assert status in (200, 201), body
        status, body = server.request(
            "POST", f"/api/tables/{table}/sit/", token, {"seat": seat, "buy_in": 100}
        )
        assert status == 200, body

    # Hands dealt before everyone sat down are folded away until one deals
    # all four in.
    deadline = time.monotonic() + 60
    while True:
        hand = server.request("GET", f"/api/tables/{table}/")[1]["hand"]
        if hand and hand["phase"] != "complete" and len(hand["players"]) == 4:
            break
        assert time.monotonic() < deadline, hand
        act_passively(server, table, tokens, hand)
        time.sleep(0.2)

    context = browser.new_context(viewport={"width": 1280, "height": 860})
    try:
        page = context.new_page()
        page.goto(f"{server.http}/#/tables/{table}")
        expect(page.locator(".card.back")).to_have_count(20, timeout=WAIT_MS)
        expect(page.locator(".badge.blind.over")).to_have_text("OB")
        expect(page.locator(".badge.blind")).to_have_text(["SB", "BB", "OB"], timeout=WAIT_MS)
        expect(page.locator(".badge.button")).to_have_count(1)
        assert face_up(page) == []
        shots(page, "four-handed")
        assert serious_violations(page) == []

        # On a phone the blinds' chips lie clear of every seat's cards and
        # plate and of the pot (seat 2's chips once covered seat 1's cards).
        phone = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True)
        try:
            small = phone.new_page()
            small.goto(f"{server.http}/#/tables/{table}")
            expect(small.locator("#felt .bet")).to_have_count(3, timeout=WAIT_MS)
            assert small.evaluate(OVERLAPS) == []
            shots(small, "four-handed-phone")
        finally:
            phone.close()
    finally:
        context.close()


def pass_until(server: Server, table: int, tokens: dict[int, str], seat: int) -> None:
    """Let the others at ``table`` (tokens by seat) act passively until
    ``seat`` is to act in a hand that is under way."""
    deadline = time.monotonic() + 60
    while True:
        hand = server.request("GET", f"/api/tables/{table}/")[1]["hand"]
        assert time.monotonic() < deadline, hand
        if hand and hand["phase"] != "complete" and hand["to_act"] == seat:
            return
        act_passively(server, table, tokens, hand)
        time.sleep(0.2)


def test_a_player_at_two_tables_sees_where_it_is_his_turn_and_tiles_them(
    browser: Any, server: Server, shots: Any
) -> None:
    """Multi-tabling: the lobby row and the page title flag the table where
    it is his turn, and goes when he has acted; his two tables tile."""
    cashier = register(server, "floorman")
    grant(server, ("floorman", "cashier"))
    tokens = {name: register(server, name) for name in ("mo", "rex", "sal")}
    for token in tokens.values():
        player = server.request("GET", "/api/me/", token)[1]["id"]
        body = {"transfer_id": str(uuid.uuid4()), "amount": 500}
        answer = server.request("POST", f"/api/wallets/{player}/deposit/", cashier, body)
        assert answer[0] in (200, 201), answer
    tables = {}
    for name, rival in (("Left Felt", "rex"), ("Right Felt", "sal")):
        settings = {"name": name, "game": "five-card-draw", "betting": "pot-limit"}
        settings |= {"small_blind": 1, "big_blind": 2, "action_seconds": 600, "draw_seconds": 600}
        status, opened = server.request("POST", "/api/tables/", cashier, settings)
        assert status == 201, opened
        table = tables[name] = opened["table"]["id"]
        for seat, who in ((1, "mo"), (2, rival)):
            body = {"seat": seat, "buy_in": 100}
            answer = server.request("POST", f"/api/tables/{table}/sit/", tokens[who], body)
            assert answer[0] == 200, answer
    left, right = tables["Left Felt"], tables["Right Felt"]
    pass_until(server, left, {2: tokens["rex"]}, seat=1)  # his turn at the left table
    pass_until(server, right, {1: tokens["mo"]}, seat=2)  # the rival's at the right one

    context = browser.new_context(viewport={"width": 1280, "height": 860})
    try:
        page = context.new_page()
        log_in(page, server.http, "mo")
        for table in (left, right):  # he opens his tables; the client remembers them
            page.goto(f"{server.http}/#/tables/{table}")
            expect(page.locator(".seat.me")).to_be_visible(timeout=WAIT_MS)
        page.goto(f"{server.http}/#/lobby")
        flagged = page.locator("#tables tr.your-turn")
        expect(flagged).to_have_count(1, timeout=WAIT_MS)
        expect(flagged).to_contain_text("Left Felt")
        expect(page).to_have_title(re.compile("Your turn: Left Felt"), timeout=WAIT_MS)
        shots(page, "lobby-turn", readme="lobby")

        page.get_by_role("link", name="Tile my 2 tables").click()
        expect(page.locator("#tiles .felt")).to_have_count(2, timeout=WAIT_MS)
        tile = page.locator("#tiles .tile", has=page.locator(f'[data-table="{left}"]'))
        expect(tile.locator("#controls .actions")).to_be_visible(timeout=WAIT_MS)
        shots(page, "tiles", full_page=False)
        for felt in page.locator("#tiles .felt").all():  # no bet on cards or the pot
            assert felt.evaluate(OVERLAPS) == []
        tile.locator("#act-check, #act-call").first.click()
        expect(page).not_to_have_title(re.compile("Your turn"), timeout=WAIT_MS)
    finally:
        context.close()


OVERLAPS = """(felt) => {
  felt = felt || document.querySelector("#felt");
  const box = (e) => e.getBoundingClientRect();
  const meet = (a, b) =>
    a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
  const seats = [...felt.querySelectorAll(".seat")];
  const out = [];
  for (const bet of felt.querySelectorAll(".bet")) {
    for (const seat of [...seats, felt.querySelector(".centre")]) {
      for (const part of seat.querySelectorAll(".cards, .plate, #pot, #phase")) {
        const what = `bet ${bet.dataset.bet} on ${seat.dataset.seat || "the pot"}`;
        if (meet(box(bet), box(part))) out.push(what);
      }
    }
  }
  return out;
}"""
"""Every bet that covers a seat's cards or plate, or the pot."""


def act_passively(server: Server, table: int, tokens: dict[int, str], hand: Any) -> None:
    """The player to act in ``hand`` (if one is) checks or calls, as legal."""
    if not hand or hand["phase"] == "complete" or hand["to_act"] is None:
        return
    token = tokens[hand["to_act"]]
    mine = server.request("GET", f"/api/tables/{table}/", token)[1]["hand"]
    legal = (mine["legal"] or {}).get("actions", [])
    action = next((a for a in PASSIVE if a in legal), None)
    if action is not None:
        body = {
            "hand": mine["id"],
            "version": mine["version"],
            "command_id": str(uuid.uuid4()),
            "action": action,
        }
        server.request("POST", f"/api/tables/{table}/actions/", token, body)
