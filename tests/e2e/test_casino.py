"""A casino round in the browser: a player signs up, gets chips from a
cashier, sits in a box at a table staff opened on the staff page (the
bankroll funded there by a cashier), bets, exchanges twice, plays, and sees the dealer's
reveal and his payout.  The table page posts the house edge and links the
strategy card of its configuration.

- The page never holds a face-up card it may not show: before the
  dealer turns his hand up, the only faces are the player's five.
- Money is conserved: what left the player's wallet went to the house's
  bankroll (or back), and the wallet's balance is the ledger's.
"""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.conftest import WAIT_MS, grant, register, serious_violations
from tests.e2e.test_table_play import PASSWORD, face_up, sign_up
from tests.integration.cluster import Server

pytestmark = pytest.mark.postgres

DEPOSIT = 1000
BET = 20


def casino_view(page: Page) -> dict[str, Any]:
    """The casino table view the page last drew."""
    return page.evaluate("() => window.pokerCasino.state.view")  # type: ignore[no-any-return]


def pick(page: Page, count: int) -> list[str]:
    """Select the first ``count`` of the player's cards for an exchange."""
    cards = page.locator(".box.me [data-card][role=button]")
    expect(cards).to_have_count(5, timeout=WAIT_MS)
    picked = []
    for i in range(count):
        card = cards.nth(i)
        picked.append(str(card.get_attribute("data-card")))
        card.click()
    expect(page.locator(".box.me .card.selected")).to_have_count(count)
    return picked


def test_a_player_plays_a_casino_round_to_its_payout_in_the_browser(
    browser: Any, server: Server, shots: Any
) -> None:
    base = server.http
    staff_token = register(server, "croupier", PASSWORD)
    grant(server, ("croupier", "cashier"))

    contexts = [browser.new_context(viewport={"width": 1100, "height": 900}) for _ in range(2)]
    player, cashier = (c.new_page() for c in contexts)
    errors: list[str] = []
    for page in (player, cashier):
        page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        sign_up(player, base, "casa")
        player.goto(f"{base}/#/wallet")
        number = player.locator("#no-chips strong").inner_text(timeout=WAIT_MS)
        cashier.goto(f"{base}/#/login")
        form = cashier.locator("#login-form")
        form.get_by_label("Username").fill("croupier")
        form.get_by_label("Password").fill(PASSWORD)
        form.get_by_role("button", name="Log in").click()
        expect(cashier.locator("#who")).to_be_visible(timeout=WAIT_MS)
        cashier.goto(f"{base}/#/cashier")
        form = cashier.locator("#deposit-form")
        form.get_by_label("Player number").fill(number)
        form.get_by_label("Amount").fill(str(DEPOSIT))
        form.get_by_label("Note").fill("chips for the casino")
        form.get_by_role("button", name="Deposit").click()
        expect(player.locator("#cash")).to_have_text(str(DEPOSIT), timeout=WAIT_MS)

        # A cashier funds the bankroll on the staff page, then opens the
        # table there (long clocks: a slow machine).
        status, bankroll = server.request("GET", "/api/casino/bankroll/", staff_token)
        assert status == 200, bankroll
        funded = bankroll["balance"] + 1_000_000
        cashier.get_by_role("link", name="Staff").click()
        cashier.get_by_role("tab", name="Casino tables").click()
        expect(cashier.locator("#staff-bankroll")).to_contain_text("Balance", timeout=WAIT_MS)
        funding = cashier.locator("#fund-bankroll")
        funding.get_by_label("Amount").fill("1000000")
        funding.get_by_label("Note").fill("the house's float")
        funding.get_by_role("button", name="Fund the bankroll").click()
        house = cashier.locator("#staff-bankroll")
        expect(house).to_contain_text(f"Balance {funded} ", timeout=WAIT_MS)
        status, bankroll = server.request("GET", "/api/casino/bankroll/", staff_token)
        assert status == 200 and bankroll["balance"] == funded, bankroll
        house_before = bankroll["balance"]
        form = cashier.locator("#open-casino")
        form.get_by_label("Name").fill("Joker Wild")
        form.get_by_label("Minimum bet").fill("10")
        form.get_by_label("Maximum bet").fill("100")
        form.get_by_label("Boxes").fill("3")
        form.get_by_label("Betting window (s)").fill("600")
        form.get_by_label("Decision clock (s)").fill("600")
        form.get_by_role("button", name="Open casino table").click()
        line = cashier.locator("#staff-casino-tables li", has_text="Joker Wild")
        expect(line).to_contain_text("bets 10", timeout=WAIT_MS)
        # Staff see the configuration's house edge against the best player.
        expect(cashier.locator("#staff-casino-math li").first).to_contain_text("2 jokers")
        opened = cashier.locator("#opened-casino-math")
        expect(opened).to_contain_text("Joker Wild: house edge model")
        shots(cashier, "staff")
        status, listed = server.request("GET", "/api/casino/tables/")
        assert status == 200, listed
        (table,) = [t["id"] for t in listed if t["name"] == "Joker Wild"]

        # The lobby lists the casino table; the player sits in box 2.
        player.goto(f"{base}/#/lobby")
        row = player.locator("#casino-tables tr", has_text="Joker Wild")
        expect(row).to_have_attribute("data-casino", str(table), timeout=WAIT_MS)
        expect(row).to_contain_text("100")
        row.get_by_role("link", name="Joker Wild").click()
        expect(player.locator("#casino-status")).to_have_text("live", timeout=WAIT_MS)

        # The table page posts its house edge and links its strategy card.
        expect(player.locator("#casino-house-edge")).to_contain_text("House edge ")
        player.locator("#strategy-card-link").click()
        expect(player.locator("#strategy-lines li").first).to_contain_text(
            "Play with", timeout=WAIT_MS
        )
        expect(player.locator("#strategy-house-edge")).to_contain_text("%")
        shots(player, "strategy-card")
        assert serious_violations(player) == [], "strategy card"
        player.get_by_role("link", name="Back to the table").click()
        expect(player.locator("#casino-status")).to_have_text("live", timeout=WAIT_MS)
        assert serious_violations(player) == [], "casino table, nobody seated"
        player.get_by_role("button", name="Sit in box 2").click()
        expect(player.locator('.box.me[data-box="2"]')).to_be_visible(timeout=WAIT_MS)
        expect(player.get_by_role("button", name="Sit in box 1")).to_have_count(0)

        # He is the only one seated: his bet deals the round at once.
        player.locator("#casino-amount").fill(str(BET))
        player.locator("#casino-bet").get_by_role("button", name="Bet").click()
        expect(player.locator("#casino-exchange")).to_be_visible(timeout=WAIT_MS)
        expect(player.locator("#casino-clock")).to_contain_text("Box 2 to decide")
        expect(player.locator("#dealer .card.back")).to_have_count(5)
        mine = casino_view(player)["round"]["boxes"][0]["cards"]
        assert sorted(face_up(player)) == sorted(mine)  # the dealer's hand stays down
        shots(player, "dealt")
        assert serious_violations(player) == [], "casino table, dealt"

        # First exchange: two cards (by pointer), staking one more bet.
        thrown = pick(player, 2)
        player.locator("#casino-exchange").click()
        expect(player.locator("#casino-actions")).to_contain_text("Stand", timeout=WAIT_MS)
        expect(player.locator(".box.me")).to_contain_text("exchanged 1", timeout=WAIT_MS)
        after = casino_view(player)["round"]["boxes"][0]["cards"]
        assert not set(thrown) & set(after)
        # The second exchange takes exactly one card: a second pick is refused.
        assert casino_view(player)["round"]["legal"]["max_exchange"] == 1
        # By keyboard this time: a card picked with Space keeps the focus.
        mine = player.locator(".box.me [data-card][role=button]")
        expect(mine).to_have_count(5, timeout=WAIT_MS)
        mine.nth(0).focus()
        player.keyboard.press("Space")
        expect(player.locator(".box.me .card.selected")).to_have_count(1)
        focused = player.evaluate("() => document.activeElement.dataset.card")
        assert focused == mine.nth(0).get_attribute("data-card")
        mine.nth(1).click()
        expect(player.locator(".box.me .card.selected")).to_have_count(1)
        player.keyboard.press("e")  # the exchange by its key
        expect(player.locator("#casino-play")).to_be_visible(timeout=WAIT_MS)
        expect(player.locator("#dealer [data-card]")).to_have_count(0)

        # He plays; the dealer turns up, exchanges, and the box is paid.
        player.locator("#casino-play").click()
        awards = player.locator("#casino-awards")
        expect(awards).to_contain_text("Box 2 (Casa)", timeout=WAIT_MS)
        final = casino_view(player)["round"]
        assert final["phase"] == "complete"
        box = final["boxes"][0]
        expect(awards).to_contain_text(f"paid {box['won']}")
        # The outcome in words: it is the dealer who did not qualify.
        words = player.evaluate(OUTCOME, box)
        expect(awards).to_contain_text(words)
        expect(player.locator(".box.me .outcome")).to_have_text(words)
        assert player.evaluate(OUTCOME, {"result": "not-qualified", "won": 110}) == (
            "dealer did not qualify · paid 110"
        )
        dealer = final["dealer"]
        expect(player.locator("#dealer-cards [data-card]")).to_have_count(5)
        expect(player.locator("#dealer-hand")).to_be_visible()
        # His exchange, when he made one, is on the table too.
        expect(player.locator("#dealer-discarded [data-card]")).to_have_count(
            len(dealer["discarded"])
        )
        shots(player, "settled", readme="casino")
        assert serious_violations(player) == [], "casino table, settled"

        # Phone-sized, the same screen still fits.
        player.set_viewport_size({"width": 390, "height": 844})
        shots(player, "phone")
        width = player.evaluate("() => document.documentElement.scrollWidth")
        assert width <= 390, width

        # The wallet is the ledger's, and what he lost the house won.
        token = player.evaluate("() => localStorage.getItem('pokerroom.token')")
        status, wallet = server.request("GET", "/api/me/wallet/", token)
        assert status == 200, wallet
        status, ledger = server.request("GET", "/api/me/ledger/", token)
        assert status == 200, ledger
        entries = ledger["results"] if isinstance(ledger, dict) else ledger
        assert wallet["cash"] == entries[0]["balance_after"]
        assert wallet["cash"] == sum(e["amount"] for e in entries)
        status, house = server.request("GET", "/api/casino/bankroll/", staff_token)
        assert status == 200, house
        assert (wallet["cash"] - DEPOSIT) + (house["balance"] - house_before) == 0
        assert house["exposure"] == 0
        player.goto(f"{base}/#/wallet")
        expect(player.locator("#cash")).to_have_text(str(wallet["cash"]), timeout=WAIT_MS)
        assert errors == []
    finally:
        for context in contexts:
            context.close()


OUTCOME = """async (box) => {
  const { outcomeText } = await import("/static/client/casino.js");
  return outcomeText(box.result, box.won);
}"""
"""The page's own words for a box's outcome."""
