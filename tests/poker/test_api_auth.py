"""Who may call the API: reads are open, writes need a login (token or
session, the session with its CSRF token), tables are opened and closed by
staff only."""

from __future__ import annotations

import uuid

import pytest
from django.middleware.csrf import _get_new_csrf_string  # type: ignore[attr-defined]
from rest_framework.test import APIClient

from poker.models import Table
from tests.poker.api_support import (
    command,
    ok,
    post,
    refused,
    unchanged,
    view_of,
)

WRITES = [
    ("/api/tables/", {"name": "X", "game": "32-card-draw", "betting": "no-limit",
                      "small_blind": 1, "big_blind": 2}),
    ("/api/tables/{t}/close/", {}),
    ("/api/tables/{t}/sit/", {"seat": 1, "buy_in": 100}),
    ("/api/tables/{t}/leave/", {}),
    ("/api/tables/{t}/top-up/", {"amount": 10}),
    ("/api/tables/{t}/sit-out/", {}),
    ("/api/tables/{t}/sit-in/", {}),
    ("/api/tables/{t}/actions/", {"hand": "1-1", "version": 1, "command_id": str(uuid.uuid4()),
                                  "action": "fold"}),
]  # fmt: skip


@pytest.mark.parametrize(("path", "body"), WRITES, ids=[p for p, _ in WRITES])
def test_anonymous_writes_are_401(open_table, path, body):
    table = open_table()["table"]["id"]
    with unchanged(table):
        response = post(APIClient(), path.format(t=table), body)
    refused(response, 401, "not_authenticated")
    assert response["WWW-Authenticate"].startswith("Token")


def test_reads_are_open_to_anonymous_spectators(open_table, make_user, client_for):
    table = open_table()["table"]["id"]
    for name, seat in (("ann", 1), ("bob", 2)):
        ok(command(client_for(make_user(name)), table, "sit", seat=seat, buy_in=100))
    anonymous = APIClient()
    assert [t["id"] for t in ok(anonymous.get("/api/tables/"))] == [table]
    hand = view_of(anonymous, table)["hand"]
    assert hand["id"] == f"{table}-1"
    assert [h["id"] for h in ok(anonymous.get(f"/api/hands/?table={table}"))] == [hand["id"]]
    assert ok(anonymous.get(f"/api/hands/{hand['id']}/"))["id"] == hand["id"]
    phh = anonymous.get(f"/api/hands/{hand['id']}/phh/")
    assert phh.status_code == 200 and b'_view = "public"' in phh.content


def test_a_token_obtained_with_the_password_works_end_to_end(open_table, make_user):
    table = open_table()["table"]["id"]
    ann = make_user("ann")
    client = APIClient()
    token = ok(post(client, "/api/auth/token/", username="ann", password="pw"))["token"]
    client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    seated = ok(command(client, table, "sit", seat=3, buy_in=100))
    assert seated["you"] == {"seat": 3}
    assert view_of(client, table)["you"] == {"seat": 3}
    assert view_of(client, table)["seats"][0]["player"] == ann.pk
    ok(command(client, table, "leave"))
    assert view_of(client, table)["seats"] == []


def test_a_wrong_password_gets_no_token(make_user):
    make_user("ann")
    body = refused(post(APIClient(), "/api/auth/token/", username="ann", password="nope"),
                   400, "bad_credentials")  # fmt: skip
    assert "token" not in body


def test_an_unknown_token_is_401(open_table):
    table = open_table()["table"]["id"]
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION="Token " + "0" * 40)
    refused(client.get(f"/api/tables/{table}/"), 401, "authentication_failed")
    with unchanged(table):
        response = command(client, table, "sit", seat=1, buy_in=100)
    refused(response, 401, "authentication_failed")


def test_session_login_works_and_unsafe_requests_need_the_csrf_token(open_table, make_user):
    table = open_table()["table"]["id"]
    make_user("ann")
    client = APIClient(enforce_csrf_checks=True)
    assert client.login(username="ann", password="pw")
    assert view_of(client, table)["you"] == {"seat": None}  # logged in, not seated

    with unchanged(table, client):
        response = command(client, table, "sit", seat=2, buy_in=100)
    body = refused(response, 403, "forbidden")
    assert "CSRF" in body["message"]

    secret = _get_new_csrf_string()
    client.cookies["csrftoken"] = secret
    response = client.post(
        f"/api/tables/{table}/sit/",
        {"seat": 2, "buy_in": 100},
        format="json",
        HTTP_X_CSRFTOKEN=secret,
    )
    assert ok(response)["you"] == {"seat": 2}
    assert view_of(client, table)["you"] == {"seat": 2}


def test_after_logout_the_session_no_longer_writes(open_table, make_user):
    table = open_table()["table"]["id"]
    make_user("ann")
    client = APIClient()
    assert client.login(username="ann", password="pw")
    client.logout()
    with unchanged(table):
        response = command(client, table, "sit", seat=1, buy_in=100)
    refused(response, 401, "not_authenticated")


def test_only_staff_open_tables(make_user, client_for):
    player = client_for(make_user("ann"))
    body = {"name": "X", "game": "32-card-draw", "betting": "no-limit",
            "small_blind": 1, "big_blind": 2}  # fmt: skip
    with unchanged(None):
        refused(post(player, "/api/tables/", body), 403, "forbidden")
    assert not Table.objects.exists()


def test_only_staff_close_tables(open_table, make_user, client_for):
    table = open_table()["table"]["id"]
    player = client_for(make_user("ann"))
    with unchanged(table, player):
        refused(post(player, f"/api/tables/{table}/close/", {}), 403, "forbidden")
    assert view_of(player, table)["table"]["status"] == "open"
