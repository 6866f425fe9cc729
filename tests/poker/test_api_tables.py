"""Tables through the API: opening them (settings and buy-in bounds of
RULES.md 1), the lobby, one table's view, closing them; every refusal is a
4xx JSON body and changes nothing."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from kernel.models import Event
from poker.engine.rules import VARIANTS, Game
from poker.models import Seat, Table
from tests.poker.api_support import (
    Room,
    action_body,
    command,
    ok,
    post,
    refused,
    unchanged,
    view_of,
)

BASE = {"name": "Main", "game": "32-card-draw", "betting": "no-limit",
        "small_blind": 1, "big_blind": 2}  # fmt: skip


@pytest.fixture
def boss(staff: Any, client_for: Any) -> APIClient:
    return client_for(staff)


def opened(boss: APIClient, **settings: Any) -> dict[str, Any]:
    return ok(post(boss, "/api/tables/", {**BASE, **settings}), 201)["table"]


def test_staff_open_a_table_with_the_default_settings(boss):
    response = post(boss, "/api/tables/", BASE)
    view = ok(response, 201)
    table = view["table"]
    assert table["status"] == "open"
    assert table["seats"] == 5  # every seat 32 Card Draw allows
    assert (table["ante"], table["ante_by"], table["tie_break"]) == (0, "all", "suit")
    assert (table["action_seconds"], table["draw_seconds"]) == (30, 30)
    assert (table["hand_number"], table["players_seated"]) == (0, 0)
    assert view["seats"] == [] and view["hand"] is None and view["you"] == {"seat": None}
    assert Table.objects.get(pk=table["id"]).name == "Main"
    assert Event.objects.filter(stream=f"table-{table['id']}").count() == 1


@pytest.mark.parametrize("betting", ["no-limit", "pot-limit"])
def test_big_bet_tables_buy_in_from_20_small_blinds_to_100_big_blinds(boss, betting):
    table = opened(boss, betting=betting, small_blind=5, big_blind=10)
    assert (table["min_buy_in"], table["max_buy_in"]) == (100, 1000)


def test_fixed_limit_tables_buy_in_from_10_big_blinds_with_no_maximum(boss):
    table = opened(boss, betting="fixed-limit", small_blind=5, big_blind=10)
    assert (table["min_buy_in"], table["max_buy_in"]) == (100, None)


@pytest.mark.parametrize("game", list(Game), ids=lambda g: g.value)
def test_every_game_opens_a_table_with_all_its_seats(boss, game):
    """The API takes every game the engine deals, the two added last (issue
    11, five-card-triple-draw and a-5-single-draw) among them."""
    table = opened(boss, game=game.value, betting="fixed-limit")
    assert (table["game"], table["seats"]) == (game.value, VARIANTS[game].max_players)
    assert Table.objects.get(pk=table["id"]).game == game.value


def test_a5_single_draw_tables_take_the_big_blind_ante(boss):
    """RULES.md 4: A-5's optional ante, by the big blind alone, as triple draw."""
    table = opened(boss, game="a-5-single-draw", ante=1, ante_by="big-blind")
    assert (table["game"], table["ante"], table["ante_by"]) == ("a-5-single-draw", 1, "big-blind")


def test_custom_buy_in_bounds_are_kept(boss):
    table = opened(boss, min_buy_in=50, max_buy_in=80)
    assert (table["min_buy_in"], table["max_buy_in"]) == (50, 80)
    table = opened(boss, max_buy_in=500)
    assert (table["min_buy_in"], table["max_buy_in"]) == (20, 500)


def test_a_custom_minimum_alone_keeps_the_default_maximum(boss):
    table = opened(boss, min_buy_in=50)
    assert (table["min_buy_in"], table["max_buy_in"]) == (50, 200)


def test_settings_are_stored_as_given(boss):
    table = opened(
        boss,
        name="Lowball",
        game="2-7-triple-draw",
        betting="fixed-limit",
        small_blind=2,
        big_blind=4,
        ante=1,
        ante_by="big-blind",
        tie_break="split",
        seats=4,
        action_seconds=20,
        draw_seconds=15,
    )
    expected = {
        "name": "Lowball",
        "game": "2-7-triple-draw",
        "betting": "fixed-limit",
        "small_blind": 2,
        "big_blind": 4,
        "ante": 1,
        "ante_by": "big-blind",
        "tie_break": "split",
        "seats": 4,
        "action_seconds": 20,
        "draw_seconds": 15,
    }
    assert {k: table[k] for k in expected} == expected
    lobby = ok(APIClient().get("/api/tables/"))
    assert {k: lobby[0][k] for k in expected} == expected


NONSENSE = [
    ({"game": "holdem"}, "invalid"),
    ({"betting": "spread-limit"}, "invalid"),
    ({"name": ""}, "invalid"),
    ({"name": "x" * 81}, "invalid"),
    ({"small_blind": 0}, "invalid"),
    ({"small_blind": -1}, "invalid"),
    ({"small_blind": "abc"}, "invalid"),
    ({"small_blind": 1.5}, "invalid"),
    ({"small_blind": True}, "invalid"),
    ({"small_blind": None}, "invalid"),
    ({"small_blind": 3, "big_blind": 2}, "malformed"),
    ({"ante": -1}, "invalid"),
    ({"ante_by": "button"}, "invalid"),
    ({"tie_break": "coin"}, "invalid"),
    ({"seats": 1}, "invalid"),
    ({"seats": 6}, "malformed"),
    ({"min_buy_in": 0}, "invalid"),
    ({"min_buy_in": 50, "max_buy_in": 49}, "malformed"),
    ({"action_seconds": 0}, "invalid"),
    ({"draw_seconds": 601}, "invalid"),
    ({"small_blind": 10**30}, "invalid"),  # beyond any chip count
]


@pytest.mark.parametrize(("given", "code"), NONSENSE, ids=[str(s)[:40] for s, _ in NONSENSE])
def test_nonsense_settings_are_refused_with_400(boss, given, code):
    with unchanged(None):
        refused(post(boss, "/api/tables/", {**BASE, **given}), 400, code)


@pytest.mark.parametrize("field", ["name", "game", "betting", "small_blind", "big_blind"])
def test_a_missing_setting_is_refused_with_400(boss, field):
    body = {k: v for k, v in BASE.items() if k != field}
    with unchanged(None):
        response = refused(post(boss, "/api/tables/", body), 400, "invalid")
    assert field in response["fields"]


@pytest.mark.parametrize(
    "body", ["{not json", "[1, 2]", '"table"', "null"], ids=["broken", "list", "string", "null"]
)
def test_a_body_that_is_not_a_json_object_is_refused_with_400(boss, body):
    with unchanged(None):
        response = boss.post("/api/tables/", body, content_type="application/json")
    assert response.status_code == 400
    assert response.json()["code"] in {"malformed", "invalid"}


FORM = "application/x-www-form-urlencoded"


def test_a_form_encoded_body_is_refused_as_unsupported(boss):
    with unchanged(None):
        response = boss.post("/api/tables/", "name=X", content_type=FORM)
    refused(response, 415, "unsupported_media_type")


HUGE = [
    {"small_blind": 10**30, "big_blind": 10**30},
    {"ante": 10**30},
    {"min_buy_in": 10**30},
    {"max_buy_in": 10**30},
]


@pytest.mark.parametrize("given", HUGE, ids=[str(s)[:40] for s in HUGE])
def test_huge_numbers_in_the_settings_are_refused_with_400(boss, given):
    with unchanged(None):
        response = post(boss, "/api/tables/", {**BASE, **given})
    assert response.status_code == 400
    assert response.json()["code"] in {"invalid", "malformed"}


def test_the_lobby_lists_every_table_to_anyone(boss):
    first = opened(boss, name="One")
    second = opened(boss, name="Two", betting="fixed-limit")
    lobby = ok(APIClient().get("/api/tables/"))
    assert [(t["id"], t["name"], t["status"]) for t in lobby] == [
        (first["id"], "One", "open"),
        (second["id"], "Two", "open"),
    ]
    assert lobby[1]["max_buy_in"] is None


def test_the_lobby_lists_open_tables_before_closed_ones(boss):
    first = opened(boss, name="One")
    second = opened(boss, name="Two")
    ok(post(boss, f"/api/tables/{first['id']}/close/", {}))
    lobby = ok(APIClient().get("/api/tables/"))
    assert [(t["id"], t["status"]) for t in lobby] == [
        (second["id"], "open"),
        (first["id"], "closed"),
    ]


def test_the_lobby_counts_players_and_hands(open_table, make_user, client_for):
    table = open_table()["table"]["id"]
    ok(command(client_for(make_user("ann")), table, "sit", seat=1, buy_in=100))
    ok(command(client_for(make_user("bob")), table, "sit", seat=3, buy_in=100))
    (summary,) = ok(APIClient().get("/api/tables/"))
    assert (summary["players_seated"], summary["hand_number"]) == (2, 1)


def test_an_unknown_table_is_404_json(db):
    refused(APIClient().get("/api/tables/999/"), 404, "not_found")
    refused(APIClient().get("/api/tables/99999999999999999999999/"), 404, "not_found")


def test_an_unknown_api_path_is_404_json():
    refused(APIClient().get("/api/tablez/"), 404, "not_found")
    refused(APIClient().get("/api/tables/1/nothing/"), 404, "not_found")


def test_a_wrong_method_is_405_json(open_table, make_user, client_for):
    table = open_table()["table"]["id"]
    player = client_for(make_user("ann"))
    refused(player.get(f"/api/tables/{table}/sit/"), 405, "method_not_allowed")
    refused(player.delete(f"/api/tables/{table}/"), 405, "method_not_allowed")
    refused(player.put("/api/tables/", {}, format="json"), 405, "method_not_allowed")


def test_closing_a_table_returns_every_stack(boss, open_table, make_user, client_for):
    table = open_table()["table"]["id"]
    room = Room(table)
    for seat, name in enumerate(("ann", "bob"), start=1):
        room.users[name] = user = make_user(name)
        room.clients[user.pk] = client_for(user)
        ok(command(room.client(name), table, "sit", seat=seat, buy_in=100 + seat))
    # Both sit out from the next hand on, so the table stops between hands.
    for name in ("ann", "bob"):
        ok(command(room.client(name), table, "sit-out"))
    ended = room.finish_hand()
    assert ended["hand"]["phase"] == "complete"
    stacks = {s["seat"]: s["stack"] for s in ended["seats"]}
    assert sum(stacks.values()) == 203 and stacks != {1: 101, 2: 102}

    closed = ok(post(boss, f"/api/tables/{table}/close/", {}))
    assert closed["table"]["status"] == "closed" and closed["seats"] == []
    left = Event.objects.filter(stream=f"table-{table}", type="table.player_left")
    assert {e.data["seat"]: e.data["cash_out"] for e in left} == stacks
    assert not Seat.objects.filter(table_id=table).exists()
    assert Table.objects.get(pk=table).status == "closed"
    assert ok(APIClient().get("/api/tables/"))[0]["status"] == "closed"


def test_closing_during_a_hand_closes_when_it_ends(boss, open_table, make_user, client_for):
    table = open_table()["table"]["id"]
    ann, bob = client_for(make_user("ann")), client_for(make_user("bob"))
    ok(command(ann, table, "sit", seat=1, buy_in=100))
    ok(command(bob, table, "sit", seat=2, buy_in=100))
    closing = ok(post(boss, f"/api/tables/{table}/close/", {}))
    assert closing["table"]["status"] == "closing"
    refused(post(boss, f"/api/tables/{table}/close/", {}), 409, "illegal_action")
    hand = closing["hand"]
    to_act = ann if hand["to_act_seat"] == 1 else bob
    view = ok(to_act.get(f"/api/tables/{table}/"))
    ok(post(to_act, f"/api/tables/{table}/actions/", action_body(view, "fold")))
    after = ok(APIClient().get(f"/api/tables/{table}/"))
    assert after["table"]["status"] == "closed"
    assert after["seats"] == []
    assert after["hand"]["id"] == hand["id"]  # no hand dealt after it


def test_closing_an_unknown_table_is_404(boss):
    with unchanged(None):
        refused(post(boss, "/api/tables/999/close/", {}), 404, "not_found")


def test_a_closed_table_refuses_every_command(boss, open_table, make_user, client_for):
    table = open_table()["table"]["id"]
    ann = client_for(make_user("ann"))
    ok(post(boss, f"/api/tables/{table}/close/", {}))
    with unchanged(table, ann, boss):
        refused(command(ann, table, "sit", seat=1, buy_in=100), 409, "table_closed")
        refused(post(boss, f"/api/tables/{table}/close/", {}), 409, "table_closed")
    assert view_of(ann, table)["table"]["status"] == "closed"


def test_closing_with_a_malformed_command_id_is_400(boss, open_table):
    table = open_table()["table"]["id"]
    with unchanged(table):
        refused(post(boss, f"/api/tables/{table}/close/", command_id="nope"), 400, "invalid")


def test_a_retried_close_returns_the_first_answer(boss, open_table):
    table = open_table()["table"]["id"]
    cid = "6b0c1a52-6f3c-4d9e-9d3e-1c1a2b3c4d5e"
    first = ok(post(boss, f"/api/tables/{table}/close/", command_id=cid))
    with unchanged(table):
        again = ok(post(boss, f"/api/tables/{table}/close/", command_id=cid))
    assert again == first
