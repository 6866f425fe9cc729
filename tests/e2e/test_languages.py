"""The client in German, as a browser set to German gets it (its
``navigator.languages`` and ``Accept-Language``): the lobby, a table and the
account page show no word of the English catalogue that German lacks (in
their text, labels, titles and placeholders), and a refusal of the API
comes in German, the API's and the client's; on the account page the
player picks English instead, which his account keeps: a German browser
he logs in from next shows English.
"""

from __future__ import annotations

import re
import uuid
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.client.test_i18n import PLACEHOLDER, catalogue
from tests.e2e.conftest import WAIT_MS, grant, register
from tests.integration.cluster import Server

pytestmark = pytest.mark.postgres

PASSWORD = "a long enough secret 1"
WORD = re.compile(r"[A-Za-zÄÖÜäöüß]{4,}")
ADDRESS = re.compile(r"\b(?:GET|POST|PUT|PATCH|DELETE)?\s*\S*/\S*")
"""An API address a message names ("POST /api/wallets/2/deposit/"): no words."""


def words(texts: Any) -> set[str]:
    return {w.lower() for text in texts for w in WORD.findall(PLACEHOLDER.sub(" ", text))}


ENGLISH_ONLY = words(catalogue("en").values()) - words(catalogue("de").values())
"""Words of the English catalogue that no German text has ("Wallet", "seat")."""


def english_on(page: Page) -> list[str]:
    """The English-only words the page shows or says (text, aria-label,
    title, placeholder), less the words of the names players gave tables
    and tournaments (other tests' "Left Felt" shows in the same lobby)."""
    shown = page.evaluate(
        """() => [document.body.innerText, document.title,
          ...[...document.querySelectorAll('[aria-label],[title],[placeholder]')].flatMap(
            e => ['aria-label', 'title', 'placeholder'].map(a => e.getAttribute(a) || ''))]"""
    )
    named = page.evaluate(
        """() => [...document.querySelectorAll(
          'a[href^="#/tables/"], a[href^="#/casino/"], a[href^="#/tournaments/"]')
        ].map(a => a.textContent)"""
    )
    return sorted((words(ADDRESS.sub(" ", text) for text in shown) & ENGLISH_ONLY) - words(named))


@pytest.fixture
def room(server: Server) -> dict[str, Any]:
    """A player with no money and a table opened by a cashier."""
    n = uuid.uuid4().int % 10**8
    staff = f"kasse{n}"
    grant_token = register(server, staff)
    grant(server, (staff, "cashier"))
    status, table = server.request(
        "POST",
        "/api/tables/",
        grant_token,
        {
            "name": "Tisch Kiel",
            "game": "32-card-draw",
            "betting": "no-limit",
            "small_blind": 1,
            "big_blind": 2,
        },
    )
    assert status == 201, table
    status, casino = server.request(
        "POST", "/api/casino/tables/", grant_token, {"name": f"Kasino {n}"}
    )
    assert status == 201, casino
    player = f"anna{n}"
    register(server, player)
    return {"table": table["table"]["id"], "casino": casino["table"]["id"], "player": player}


def test_a_german_browser_gets_the_client_and_the_api_in_german(
    browser: Any, server: Server, room: dict[str, Any], shots: Any
) -> None:
    base = server.http
    context = browser.new_context(locale="de-DE", viewport={"width": 1280, "height": 860})
    page = context.new_page()
    try:
        page.goto(f"{base}/#/login")
        expect(page.locator("html")).to_have_attribute("lang", "de", timeout=WAIT_MS)
        form = page.locator("#login-form")
        form.get_by_label("Benutzername").fill(room["player"])
        form.get_by_label("Passwort").fill("not the password")
        form.get_by_role("button", name="Anmelden").click()
        expect(form.get_by_role("alert")).to_have_text(
            "Benutzername oder Passwort falsch.", timeout=WAIT_MS
        )
        form.get_by_label("Passwort").fill(PASSWORD)
        form.get_by_role("button", name="Anmelden").click()
        expect(page).to_have_url(re.compile("#/lobby$"), timeout=WAIT_MS)

        expect(page.locator(f'#tables tr[data-table="{room["table"]}"]')).to_contain_text(
            "offen", timeout=WAIT_MS
        )
        expect(page.locator("#lobby-status")).to_have_text("live", timeout=WAIT_MS)
        expect(page.locator("#nav")).to_contain_text("Geldbörse")
        assert english_on(page) == []
        shots(page, "lobby-de")

        page.goto(f"{base}/#/tables/{room['table']}")
        expect(page.locator("#feed-status")).to_have_text("live", timeout=WAIT_MS)
        page.locator("#felt button.sit").first.click()
        page.locator("#sit-confirm").click()  # no money in his wallet: the API refuses
        expect(page.locator("#notice")).to_contain_text(
            "Die Geldbörse hat 0 Chips", timeout=WAIT_MS
        )
        expect(page.locator("#notice")).to_contain_text("Ihr Guthaben reicht nicht")
        expect(page.locator("#phase")).to_have_text("Warte auf Spieler")
        assert english_on(page) == []
        shots(page, "table-de")

        # The casino's strategy card: its lines worded from the German catalogue.
        page.goto(f"{base}/#/casino/{room['casino']}/strategy")
        lines = page.locator("#strategy-lines li")
        expect(lines.first).to_contain_text("Spielen ab einem Paar", timeout=WAIT_MS)
        assert lines.count() > 5
        assert english_on(page) == []
        shots(page, "strategy-card-de")

        page.goto(f"{base}/#/account")
        expect(page.locator("#account h1")).to_have_text("Ihr Konto", timeout=WAIT_MS)
        expect(page.locator("#ledger")).to_be_visible()
        assert english_on(page) == []
        shots(page, "account-de")

        page.select_option("#language", "en")  # the page reloads in English
        expect(page.locator("#account h1")).to_have_text("Your account", timeout=WAIT_MS)
        expect(page.locator("html")).to_have_attribute("lang", "en")
        page.goto(f"{base}/#/lobby")
        page.reload()
        expect(page.locator("#nav")).to_contain_text("Wallet", timeout=WAIT_MS)

        other = context.browser.new_context(locale="de-DE").new_page()  # another device
        other.goto(f"{base}/#/login")
        expect(other.locator("#login-form button[type=submit]")).to_have_text(
            "Anmelden", timeout=WAIT_MS
        )
        other.locator("#login-form input[name=username]").fill(room["player"])
        other.locator("#login-form input[name=password]").fill(PASSWORD)
        other.locator("#login-form button[type=submit]").click()
        expect(other.locator("#nav")).to_contain_text("Wallet", timeout=WAIT_MS)
        expect(other.locator("html")).to_have_attribute("lang", "en")
        other.context.close()
    finally:
        context.close()
