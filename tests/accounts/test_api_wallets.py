"""Wallets through the API: a player's own wallet and history; the
cashier's view of any wallet, deposits and withdrawals; every refusal a 4xx
JSON body that moves nothing.  A player never sees another's wallet or
history, on any endpoint."""

from __future__ import annotations

import uuid

import pytest

from accounts import money
from accounts.models import Account, Transfer
from tests.accounts.conftest import assert_sound
from tests.funds import cash_of
from tests.poker.api_support import ok, post, refused


def tid() -> str:
    return str(uuid.uuid4())


@pytest.fixture
def ann(make_user):
    return make_user("ann", cash=1000)


@pytest.fixture
def bob(make_user):
    return make_user("bob", cash=500)


def ledger_unchanged() -> tuple[int, list[tuple[str, int]]]:
    """What a refusal must leave as it was."""
    return Transfer.objects.count(), list(Account.objects.values_list("key", "balance"))


# --------------------------------------------------------------------------
# My wallet and history


def test_a_player_sees_his_cash_and_tickets(ann, client_for):
    money.ticket_award(transfer_id=uuid.uuid4(), user_id=ann.pk, target="main", value=0)
    body = ok(client_for(ann).get("/api/me/wallet/"))
    assert body == {
        "user": ann.pk,
        "screen_name": "ann",
        "cash": 1000,
        "tickets": [{"tournament": "main", "count": 1}],
    }


def test_a_new_player_has_an_empty_wallet(make_user, client_for):
    pat = make_user("pat")
    assert ok(client_for(pat).get("/api/me/wallet/")) == {
        "user": pat.pk,
        "screen_name": "pat",
        "cash": 0,
        "tickets": [],
    }


def test_his_history_is_newest_first_with_running_balances(ann, client_for):
    money.tournament_register(
        transfer_id=uuid.uuid4(), user_id=ann.pk, tournament="t", buy_in=100, fee=10
    )
    body = ok(client_for(ann).get("/api/me/ledger/"))
    assert body["count"] == 2
    first, second = body["results"]
    assert (first["kind"], first["amount"], first["balance_after"]) == ("registration", -110, 890)
    assert (second["kind"], second["amount"], second["balance_after"]) == ("deposit", 1000, 1000)
    assert first["account"] == "cash" and first["ref"] == "tournament:t"


def test_his_history_comes_in_pages(ann, client_for):
    for _ in range(4):
        money.wallet_withdraw(transfer_id=uuid.uuid4(), user_id=ann.pk, amount=1)
    page = ok(client_for(ann).get("/api/me/ledger/", {"page_size": 2, "page": 2}))
    assert page["count"] == 5 and len(page["results"]) == 2
    assert page["next"] and page["previous"]
    refused(client_for(ann).get("/api/me/ledger/", {"page": 9}), 404, "not_found")


def test_his_history_filters_by_kind(ann, client_for):
    money.wallet_withdraw(transfer_id=uuid.uuid4(), user_id=ann.pk, amount=1)
    body = ok(client_for(ann).get("/api/me/ledger/", {"kind": "withdrawal"}))
    assert [e["kind"] for e in body["results"]] == ["withdrawal"]
    refused(client_for(ann).get("/api/me/ledger/", {"kind": "theft"}), 400, "invalid")


def test_his_history_holds_only_his_own_entries(ann, bob, client_for):
    body = ok(client_for(ann).get("/api/me/ledger/"))
    assert [e["amount"] for e in body["results"]] == [1000]


# --------------------------------------------------------------------------
# Another player's wallet: never to a player


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("get", "/api/wallets/{id}/"),
        ("get", "/api/wallets/{id}/ledger/"),
        ("post", "/api/wallets/{id}/deposit/"),
        ("post", "/api/wallets/{id}/withdraw/"),
    ],
)
def test_a_player_never_sees_or_moves_another_players_wallet(ann, bob, client_for, method, path):
    before = ledger_unchanged()
    for target in (bob.pk, bob.pk + 1000):  # an unknown player looks the same
        url = path.format(id=target)
        if method == "get":
            response = client_for(ann).get(url)
        else:
            response = post(client_for(ann), url, transfer_id=tid(), amount=5)
        body = refused(response, 403, "forbidden")
        assert "500" not in str(body)
    assert ledger_unchanged() == before


@pytest.mark.parametrize("path", ["/api/wallets/{id}/", "/api/wallets/{id}/ledger/"])
def test_a_player_may_read_his_own_wallet_by_id(ann, client_for, path):
    ok(client_for(ann).get(path.format(id=ann.pk)))


@pytest.mark.parametrize(
    "path",
    ["/api/me/", "/api/me/wallet/", "/api/me/ledger/", "/api/wallets/1/", "/api/wallets/1/ledger/"],
)
def test_wallets_need_a_login(client_for, path, db):
    refused(client_for(None).get(path), 401, "not_authenticated")


def test_moving_money_needs_a_login(client_for, ann):
    response = post(
        client_for(None), f"/api/wallets/{ann.pk}/deposit/", transfer_id=tid(), amount=5
    )
    refused(response, 401, "not_authenticated")


def test_a_tournament_director_sees_wallets_but_moves_no_cash(ann, director, client_for):
    assert ok(client_for(director).get(f"/api/wallets/{ann.pk}/"))["cash"] == 1000
    response = post(
        client_for(director), f"/api/wallets/{ann.pk}/deposit/", transfer_id=tid(), amount=5
    )
    refused(response, 403, "forbidden")


# --------------------------------------------------------------------------
# The cashier


def test_the_cashier_sees_any_wallet_and_history(ann, cashier, client_for):
    wallet = ok(client_for(cashier).get(f"/api/wallets/{ann.pk}/"))
    assert (wallet["cash"], wallet["screen_name"]) == (1000, "ann")
    history = ok(client_for(cashier).get(f"/api/wallets/{ann.pk}/ledger/"))
    assert [e["amount"] for e in history["results"]] == [1000]


def test_the_cashier_deposits_and_withdraws(ann, cashier, client_for):
    cash = client_for(cashier)
    body = ok(
        post(
            cash,
            f"/api/wallets/{ann.pk}/deposit/",
            transfer_id=tid(),
            amount=250,
            memo="at the desk",
        )
    )
    assert body["wallet"]["cash"] == 1250
    assert body["transfer"]["kind"] == "deposit" and body["transfer"]["memo"] == "at the desk"
    entries = {e["account"]: e["amount"] for e in body["transfer"]["entries"]}
    assert entries == {"external": -250, f"cash:{ann.pk}": 250}
    body = ok(post(cash, f"/api/wallets/{ann.pk}/withdraw/", transfer_id=tid(), amount=1250))
    assert body["wallet"]["cash"] == 0
    assert Transfer.objects.get(pk=body["transfer"]["id"]).by_id == cashier.pk
    assert_sound()


def test_a_withdrawal_beyond_the_cash_is_409_insufficient_funds(ann, cashier, client_for):
    before = ledger_unchanged()
    response = post(
        client_for(cashier), f"/api/wallets/{ann.pk}/withdraw/", transfer_id=tid(), amount=1001
    )
    body = refused(response, 409, "insufficient_funds")
    assert (body["balance"], body["needed"]) == (1000, 1001)
    assert ledger_unchanged() == before


def test_a_retried_deposit_is_applied_once(ann, cashier, client_for):
    cash, transfer_id = client_for(cashier), tid()
    first = ok(post(cash, f"/api/wallets/{ann.pk}/deposit/", transfer_id=transfer_id, amount=5))
    again = ok(post(cash, f"/api/wallets/{ann.pk}/deposit/", transfer_id=transfer_id, amount=5))
    assert again["transfer"] == first["transfer"] and cash_of(ann) == 1005


def test_a_transfer_id_reused_for_something_else_is_409_duplicate_transfer(
    ann, bob, cashier, client_for
):
    cash, transfer_id = client_for(cashier), tid()
    ok(post(cash, f"/api/wallets/{ann.pk}/deposit/", transfer_id=transfer_id, amount=5))
    before = ledger_unchanged()
    others = [
        (f"/api/wallets/{ann.pk}/deposit/", 6),
        (f"/api/wallets/{bob.pk}/deposit/", 5),
        (f"/api/wallets/{ann.pk}/withdraw/", 5),
    ]
    for path, amount in others:
        refused(post(cash, path, transfer_id=transfer_id, amount=amount), 409, "duplicate_transfer")
    assert ledger_unchanged() == before


@pytest.mark.parametrize("path", ["/api/wallets/{id}/", "/api/wallets/{id}/ledger/"])
def test_an_unknown_player_is_404_unknown_account(cashier, client_for, path):
    refused(client_for(cashier).get(path.format(id=10**9)), 404, "unknown_account")


@pytest.mark.parametrize("kind", ["deposit", "withdraw"])
def test_moving_money_for_an_unknown_player_is_404_unknown_account(cashier, client_for, kind):
    before = ledger_unchanged()
    response = post(
        client_for(cashier), f"/api/wallets/{10**9}/{kind}/", transfer_id=tid(), amount=5
    )
    refused(response, 404, "unknown_account")
    assert ledger_unchanged() == before


NEW = "a fresh transfer id"


@pytest.mark.parametrize(
    "body",
    [
        {"amount": 5},
        {"transfer_id": "nope", "amount": 5},
        {"transfer_id": NEW, "amount": 0},
        {"transfer_id": NEW, "amount": -5},
        {"transfer_id": NEW, "amount": "5"},
        {"transfer_id": NEW, "amount": 10**13},
        {"transfer_id": NEW, "amount": 5, "memo": "x" * 201},
    ],
)
def test_a_malformed_cash_operation_is_400_invalid(ann, cashier, client_for, body):
    body = {k: tid() if v == NEW else v for k, v in body.items()}
    before = ledger_unchanged()
    refused(post(client_for(cashier), f"/api/wallets/{ann.pk}/deposit/", body), 400, "invalid")
    assert ledger_unchanged() == before


def test_a_huge_wallet_id_is_not_a_server_error(cashier, client_for):
    refused(client_for(cashier).get(f"/api/wallets/{10**30}/"), 404, "not_found")
