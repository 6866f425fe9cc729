"""Seats through the API: sitting down within the buy-in bounds (RULES.md 1),
hands starting by themselves, top-ups (table stakes), leaving, sitting out
and coming back (missed blinds); retries by command id; every refusal a 4xx
JSON body that changes nothing."""

from __future__ import annotations

import uuid

import pytest
from rest_framework.test import APIClient

from accounts import money
from kernel.models import Event
from tests.funds import cash_of, escrow
from tests.poker.api_support import (
    action_body,
    add_user,
    command,
    hand_events,
    ok,
    own,
    position_of,
    post,
    refused,
    seat_players,
    table_events,
    unchanged,
    view_of,
)


@pytest.fixture
def room(open_table, make_user, client_for):
    """Open a table and seat players: ``room(names, buy_in=..., **settings)``."""

    def make(names=("ann", "bob"), **kwargs):
        return seat_players(open_table, make_user, client_for, names, **kwargs)

    return make


# --------------------------------------------------------------------------
# Sitting down


def test_sitting_down_takes_the_seat_with_the_buy_in(room):
    r = room(("ann",), buy_in=150)
    view = r.view("ann")
    assert view["you"] == {"seat": 1}
    (seat,) = view["seats"]
    assert (seat["seat"], seat["screen_name"], seat["stack"]) == (1, "ann", 150)
    assert "username" not in seat
    assert (seat["in_hand"], seat["sitting_out"], seat["leaving"]) == (False, False, False)
    (seated,) = table_events(r.table, "table.player_seated")
    assert (seated.data["seat"], seated.data["buy_in"]) == (1, 150)
    assert view["hand"] is None  # one player: no hand


BOUNDS = [
    # (settings, lowest accepted, highest accepted or None for no maximum)
    ({"betting": "no-limit", "small_blind": 5, "big_blind": 10}, 100, 1000),
    ({"betting": "pot-limit", "small_blind": 5, "big_blind": 10}, 100, 1000),
    ({"betting": "fixed-limit", "small_blind": 5, "big_blind": 10}, 100, None),
    ({"betting": "no-limit", "min_buy_in": 50, "max_buy_in": 80}, 50, 80),
    ({"betting": "fixed-limit", "min_buy_in": 7, "max_buy_in": 9}, 7, 9),
]


@pytest.mark.parametrize(("given", "low", "high"), BOUNDS, ids=[str(b[0]) for b in BOUNDS])
def test_buy_ins_are_held_to_the_table_bounds(open_table, make_user, client_for, given, low, high):
    table = open_table(**given)["table"]["id"]
    players = [client_for(make_user(f"p{k}")) for k in range(4)]
    with unchanged(table):
        refused(command(players[0], table, "sit", seat=1, buy_in=low - 1), 400, "bad_amount")
        if high is not None:
            refused(command(players[0], table, "sit", seat=1, buy_in=high + 1), 400, "bad_amount")
    ok(command(players[0], table, "sit", seat=1, buy_in=low))
    ok(command(players[1], table, "sit", seat=2, buy_in=high or 10**6))
    stacks = [s["stack"] for s in view_of(APIClient(), table)["seats"]]
    assert stacks == [low, high or 10**6]


@pytest.mark.parametrize("amount", [10**12 + 1, 10**30])
@pytest.mark.parametrize("what", ["sit", "top-up"])
def test_a_huge_buy_in_at_a_table_without_maximum_is_refused_with_400(
    room, make_user, client_for, what, amount
):
    r = room(("ann",), betting="fixed-limit")
    if what == "sit":
        client, body = add_user(r, make_user, client_for, "bob"), {"seat": 2, "buy_in": amount}
    else:
        client, body = r.client("ann"), {"amount": amount}
    with unchanged(r.table):
        response = command(client, r.table, what, **body)
    assert response.status_code == 400
    assert response.json()["code"] in {"invalid", "bad_amount"}


def test_a_buy_in_above_the_32_bit_range_is_held(room, make_user, client_for):
    r = room(("ann",), betting="fixed-limit")
    bob = add_user(r, make_user, client_for, "bob")
    ok(command(bob, r.table, "sit", seat=2, buy_in=2**31))
    assert {s["stack"] for s in view_of(APIClient(), r.table)["seats"]} >= {2**31}


def test_a_taken_seat_is_409(room, make_user, client_for):
    r = room(("ann",))
    carl = add_user(r, make_user, client_for, "carl")
    with unchanged(r.table, carl):
        refused(command(carl, r.table, "sit", seat=1, buy_in=100), 409, "seat_taken")


def test_a_player_sits_only_once_at_a_table(room):
    r = room(("ann",))
    with unchanged(r.table, r.client("ann")):
        refused(command(r.client("ann"), r.table, "sit", seat=2, buy_in=100), 409, "seat_taken")


def test_a_seat_the_table_does_not_have_is_400(room, make_user, client_for):
    r = room(("ann",), seats=3)
    carl = add_user(r, make_user, client_for, "carl")
    with unchanged(r.table, carl):
        refused(command(carl, r.table, "sit", seat=4, buy_in=100), 400, "malformed")
        refused(command(carl, r.table, "sit", seat=10**30, buy_in=100), 400, "invalid")
        refused(command(carl, r.table, "sit", seat=0, buy_in=100), 400, "invalid")


BAD_SIT = [
    {"buy_in": 100},
    {"seat": 1},
    {"seat": "one", "buy_in": 100},
    {"seat": 1, "buy_in": "lots"},
    {"seat": 1, "buy_in": -100},
    {"seat": 1, "buy_in": 0},
    {"seat": 1, "buy_in": 99.5},
    {"seat": 1, "buy_in": None},
    {"seat": [1], "buy_in": 100},
    {"seat": 1, "buy_in": 100, "wait_for_big_blind": "maybe"},
    {"seat": 1, "buy_in": 100, "command_id": "not-a-uuid"},
    {"seat": 1, "buy_in": 100, "command_id": 12.5},
]


@pytest.mark.parametrize("body", BAD_SIT, ids=[str(b) for b in BAD_SIT])
def test_a_malformed_sit_is_400(open_table, make_user, client_for, body):
    table = open_table()["table"]["id"]
    ann = client_for(make_user("ann"))
    with unchanged(table, ann):
        refused(post(ann, f"/api/tables/{table}/sit/", body), 400, "invalid")


@pytest.mark.parametrize("name", ["sit", "leave", "top-up", "sit-out", "sit-in"])
def test_seat_commands_at_an_unknown_table_are_404(make_user, client_for, name):
    ann = client_for(make_user("ann"))
    body = {"seat": 1, "buy_in": 100, "amount": 10}
    with unchanged(None):
        refused(command(ann, 999, name, **body), 404, "not_found")


@pytest.mark.parametrize(
    ("name", "body"),
    [("leave", {}), ("top-up", {"amount": 10}), ("sit-out", {}), ("sit-in", {})],
)
def test_seat_commands_need_a_seat_at_the_table(room, make_user, client_for, name, body):
    r = room()
    carl = add_user(r, make_user, client_for, "carl")
    with unchanged(r.table, carl):
        refused(command(carl, r.table, name, **body), 409, "not_seated")


@pytest.mark.parametrize(
    "body", ["{", "[]", "1", '{"amount": "ten"}', '{"amount": -5}', '{"amount": 0}'], ids=str
)
def test_a_malformed_top_up_is_400(room, body):
    r = room(("ann",))
    response = r.client("ann").post(
        f"/api/tables/{r.table}/top-up/", body, content_type="application/json"
    )
    assert response.status_code == 400
    assert response.json()["code"] in {"invalid", "malformed"}
    assert r.seat_of("ann")["stack"] == 100


@pytest.mark.parametrize("body", [{"seat": "1", "buy_in": 100}, {"seat": 1, "buy_in": "100"}])
def test_numbers_sent_as_strings_are_refused(open_table, make_user, client_for, body):
    table = open_table()["table"]["id"]
    ann = client_for(make_user("ann"))
    with unchanged(table, ann):
        refused(post(ann, f"/api/tables/{table}/sit/", body), 400, "invalid")


# --------------------------------------------------------------------------
# Hands start by themselves


def test_the_first_hand_starts_when_two_players_are_ready(room, make_user, client_for):
    r = room(("ann",))
    assert r.view()["hand"] is None
    bob = add_user(r, make_user, client_for, "bob")
    answer = ok(command(bob, r.table, "sit", seat=2, buy_in=100))
    view = r.view()
    assert answer["hand"]["id"] == view["hand"]["id"]
    hand = view["hand"]
    assert hand["id"] == f"{r.table}-1" and hand["phase"] == "betting"
    assert hand["seats"] == [1, 2]
    assert all(s["in_hand"] for s in view["seats"])
    assert sorted(p["total"] for p in hand["players"]) == [1, 2]  # the blinds


def test_the_next_hand_starts_by_itself_when_one_ends(room):
    r = room()
    ended = r.finish_hand()
    hand = ended["hand"]
    assert hand["id"] == f"{r.table}-2" and hand["phase"] == "betting"
    assert ended["table"]["hand_number"] == 2
    assert ok(APIClient().get(f"/api/hands/{r.table}-1/"))["phase"] == "complete"


def test_no_hand_starts_while_fewer_than_two_are_ready(room):
    r = room()
    ok(command(r.client("bob"), r.table, "sit-out"))
    ended = r.finish_hand()
    assert ended["hand"]["id"] == f"{r.table}-1" and ended["hand"]["phase"] == "complete"
    assert ended["table"]["hand_number"] == 1


# --------------------------------------------------------------------------
# Top-ups (table stakes)


def test_a_top_up_between_hands_is_applied_at_once(room):
    r = room(("ann",))
    answer = ok(command(r.client("ann"), r.table, "top-up", amount=50))
    assert answer["seats"][0]["stack"] == 150
    assert r.seat_of("ann")["stack"] == 150
    (topped,) = table_events(r.table, "table.topped_up")
    assert topped.data == {"seat": 1, "amount": 50}


def test_a_top_up_of_a_player_not_in_the_hand_is_applied_at_once(room, make_user, client_for):
    r = room()
    carl = add_user(r, make_user, client_for, "carl")
    ok(command(carl, r.table, "sit", seat=3, buy_in=100))
    assert not r.seat_of("carl")["in_hand"]
    ok(command(carl, r.table, "top-up", amount=40))
    assert r.seat_of("carl")["stack"] == 140
    assert [e.type for e in table_events(r.table, "table.topped_up", "table.top_up_queued")] == [
        "table.topped_up"
    ]


def test_a_top_up_during_his_hand_is_queued_and_applied_when_it_ends(room):
    r = room()
    hand = r.view()["hand"]
    ok(command(r.client("ann"), r.table, "top-up", amount=50))
    seat = r.seat_of("ann")
    assert (seat["stack"], seat["top_up_queued"]) == (100, 50)
    mine = r.view("ann")["hand"]
    assert own(mine)["stack"] < 100  # not added in the hand
    ended = r.finish_hand()
    final = ok(APIClient().get(f"/api/hands/{hand['id']}/"))["result"]["stacks"]["1"]
    seat = next(s for s in ended["seats"] if s["seat"] == 1)
    assert (seat["stack"], seat["top_up_queued"]) == (min(final + 50, 200), 0)
    types = [e.type for e in table_events(r.table)]
    assert (
        types.index("table.top_up_queued")
        < types.index("table.hand_finished")
        < types.index("table.topped_up")
    )


def test_a_top_up_above_the_maximum_buy_in_is_refused(room):
    r = room(("ann",))  # stack 100, maximum 200
    with unchanged(r.table, r.client("ann")):
        refused(command(r.client("ann"), r.table, "top-up", amount=101), 400, "bad_amount")
    ok(command(r.client("ann"), r.table, "top-up", amount=100))
    assert r.seat_of("ann")["stack"] == 200


def test_queued_top_ups_count_toward_the_maximum(room):
    r = room()
    ok(command(r.client("ann"), r.table, "top-up", amount=60))
    with unchanged(r.table, r.client("ann")):
        refused(command(r.client("ann"), r.table, "top-up", amount=41), 400, "bad_amount")
    ok(command(r.client("ann"), r.table, "top-up", amount=40))
    assert r.seat_of("ann")["top_up_queued"] == 100


def test_fixed_limit_tables_take_any_top_up(room):
    r = room(("ann",), betting="fixed-limit")
    ok(command(r.client("ann"), r.table, "top-up", amount=100_000))
    assert r.seat_of("ann")["stack"] == 100_100


# --------------------------------------------------------------------------
# Paying for the chips: every chip on a table came from a wallet


def test_a_buy_in_is_paid_from_the_wallet_and_a_cash_out_paid_back(
    open_table, make_user, client_for
):
    table = open_table()["table"]["id"]
    ann = make_user("ann", cash=500)
    ok(command(client_for(ann), table, "sit", seat=1, buy_in=120))
    assert (cash_of(ann), escrow(table)) == (380, 120)
    ok(command(client_for(ann), table, "top-up", amount=30))
    assert (cash_of(ann), escrow(table)) == (350, 150)
    ok(command(client_for(ann), table, "leave"))
    assert (cash_of(ann), escrow(table)) == (500, 0)


def test_sitting_down_without_the_buy_in_in_the_wallet_is_409_and_changes_nothing(
    open_table, make_user, client_for
):
    table = open_table()["table"]["id"]
    ann = client_for(make_user("ann", cash=99))
    broke = client_for(make_user("bob", cash=0))
    with unchanged(table, ann, broke):
        body = refused(command(ann, table, "sit", seat=1, buy_in=100), 409, "insufficient_funds")
        refused(command(broke, table, "sit", seat=2, buy_in=100), 409, "insufficient_funds")
    assert (body["balance"], body["needed"]) == (99, 100)
    ok(command(ann, table, "sit", seat=1, buy_in=99))


def test_a_buy_in_beyond_the_wallet_says_what_is_missing_and_how_to_get_chips(
    open_table, make_user, client_for
):
    table = open_table()["table"]["id"]
    ann = make_user("ann", cash=30)
    body = refused(
        command(client_for(ann), table, "sit", seat=1, buy_in=100), 409, "insufficient_funds"
    )
    deposit, wallet = f"/api/wallets/{ann.pk}/deposit/", f"/api/wallets/{ann.pk}/"
    assert (body["balance"], body["needed"], body["short"]) == (30, 100, 70)
    assert (body["deposit"], body["wallet"]) == (deposit, wallet)
    for said in ("30", "100", "70 more", "cashier", f"POST {deposit}", f"GET {wallet}"):
        assert said in body["message"], body["message"]


def test_a_top_up_between_hands_beyond_the_wallet_is_409_and_changes_nothing(
    open_table, make_user, client_for
):
    table = open_table()["table"]["id"]
    ann = client_for(make_user("ann", cash=150))
    ok(command(ann, table, "sit", seat=1, buy_in=100))
    with unchanged(table, ann):
        refused(command(ann, table, "top-up", amount=51), 409, "insufficient_funds")
    ok(command(ann, table, "top-up", amount=50))


def test_a_queued_top_up_is_paid_when_asked_for_or_refused_with_409(room, make_user, client_for):
    r = room()  # a hand is running
    ann = r.users["ann"]
    money.wallet_withdraw(transfer_id=uuid.uuid4(), user_id=ann.pk, amount=cash_of(ann) - 60)
    with unchanged(r.table, r.client("ann")):
        refused(command(r.client("ann"), r.table, "top-up", amount=61), 409, "insufficient_funds")
    ok(command(r.client("ann"), r.table, "top-up", amount=60))
    assert (cash_of(ann), r.seat_of("ann")["top_up_queued"], escrow(r.table)) == (0, 60, 260)


# --------------------------------------------------------------------------
# Leaving


def test_leaving_between_hands_takes_the_stack_and_frees_the_seat(room, make_user, client_for):
    r = room(("ann",), buy_in=120)
    answer = ok(command(r.client("ann"), r.table, "leave"))
    assert answer["seats"] == [] and answer["you"] == {"seat": None}
    (left,) = table_events(r.table, "table.player_left")
    assert left.data == {"seat": 1, "cash_out": 120}
    carl = add_user(r, make_user, client_for, "carl")
    ok(command(carl, r.table, "sit", seat=1, buy_in=100))


def test_leaving_on_his_turn_folds_his_hand_and_he_leaves_with_his_chips(room):
    r = room()
    name, client, view = r.to_act()
    other = "ann" if name == "bob" else "bob"
    assert "fold" in view["hand"]["legal"]["actions"]  # the small blind faces the big
    answer = ok(command(client, r.table, "leave"))
    hand = ok(APIClient().get(f"/api/hands/{view['hand']['id']}/"))
    assert hand["phase"] == "complete"
    folded = [e for e in hand["events"] if e["type"] == "hand.folded"]
    assert [e["seat"] for e in folded] == [view["hand"]["your_seat"]]
    (left,) = table_events(r.table, "table.player_left")
    assert left.data["cash_out"] == 99 == hand["result"]["stacks"][str(left.data["seat"])]
    assert [s["stack"] for s in answer["seats"]] == [101]
    assert r.seat_of(name) is None and r.seat_of(other)["stack"] == 101


def test_leaving_during_the_hand_folds_it_and_he_leaves_when_it_ends(room):
    r = room(("ann", "bob", "carl"))
    r.play_until(lambda v: len(v["hand"]["seats"]) == 3)
    acting, _, view = r.to_act()
    hand_id = view["hand"]["id"]
    leaver = next(n for n in ("ann", "bob", "carl") if n != acting)
    mine = r.view(leaver)["hand"]
    me = own(mine)
    before = r.seat_of(leaver)["stack"]

    answer = ok(command(r.client(leaver), r.table, "leave"))
    seat = next(s for s in answer["seats"] if s["player"] == r.users[leaver].pk)
    assert seat["leaving"] and seat["in_hand"]
    hand = answer["hand"]
    assert hand["id"] == hand_id and hand["phase"] != "complete"
    assert next(p for p in hand["players"] if p["seat"] == mine["your_seat"])["folded"]
    assert not table_events(r.table, "table.player_left")

    r.finish_hand()
    (left,) = table_events(r.table, "table.player_left")
    result = ok(APIClient().get(f"/api/hands/{hand_id}/"))["result"]
    assert left.data["seat"] == seat["seat"]
    assert left.data["cash_out"] == result["stacks"][str(seat["seat"])] == before - me["total"]
    assert r.seat_of(leaver) is None
    assert seat["seat"] not in r.view()["hand"]["seats"]  # the next hand goes on without him


def test_an_all_in_hand_plays_on_after_he_leaves_and_he_takes_what_it_leaves_him(room):
    r = room()
    _, bob, view = r.to_act()
    ok(post(bob, f"/api/tables/{r.table}/actions/", action_body(view, "raise", amount=100)))
    answer = ok(command(bob, r.table, "leave"))  # all-in: nothing to fold
    hand = answer["hand"]
    assert not hand["players"][1]["folded"] and hand["players"][1]["all_in"]
    assert r.seat_of("bob")["leaving"]
    ann = r.client("ann")
    ok(post(ann, f"/api/tables/{r.table}/actions/", action_body(r.view("ann"), "call")))
    ok(post(ann, f"/api/tables/{r.table}/actions/", action_body(r.view("ann"), "stand")))
    # Bob's draw and showdown play themselves; the hand is over.
    result = ok(APIClient().get(f"/api/hands/{hand['id']}/"))
    assert result["phase"] == "complete"
    (left,) = table_events(r.table, "table.player_left")
    assert left.data == {"seat": 2, "cash_out": result["result"]["stacks"]["2"]}
    assert left.data["cash_out"] + result["result"]["stacks"]["1"] == 200
    assert r.seat_of("bob") is None


def test_leaving_twice_is_refused(room):
    r = room(("ann", "bob", "carl"))
    r.play_until(lambda v: len(v["hand"]["seats"]) == 3)
    acting, _, _ = r.to_act()
    leaver = next(n for n in ("ann", "bob", "carl") if n != acting)
    ok(command(r.client(leaver), r.table, "leave"))
    with unchanged(r.table, r.client(leaver)):
        refused(command(r.client(leaver), r.table, "leave"), 409, "illegal_action")
        refused(command(r.client(leaver), r.table, "top-up", amount=5), 409, "illegal_action")


# --------------------------------------------------------------------------
# Sitting out and coming back


def test_sitting_out_takes_effect_from_the_next_hand(room):
    r = room()
    answer = ok(command(r.client("ann"), r.table, "sit-out"))
    seat = next(s for s in answer["seats"] if s["seat"] == 1)
    assert seat["sitting_out"] and seat["in_hand"]
    assert not own(answer["hand"])["folded"]
    ended = r.finish_hand()
    assert ended["table"]["hand_number"] == 1  # only bob is ready: no next hand


def test_sitting_back_in_deals_him_in_again(room):
    r = room()
    ok(command(r.client("ann"), r.table, "sit-out"))
    r.finish_hand()
    answer = ok(command(r.client("ann"), r.table, "sit-in"))
    assert not answer["seats"][0]["sitting_out"]
    assert answer["hand"]["id"] == f"{r.table}-2" and answer["hand"]["seats"] == [1, 2]


def test_sitting_out_twice_or_in_while_in_is_refused(room):
    r = room()
    with unchanged(r.table, r.client("ann")):
        refused(command(r.client("ann"), r.table, "sit-in"), 409, "illegal_action")
    ok(command(r.client("ann"), r.table, "sit-out"))
    with unchanged(r.table, r.client("ann")):
        refused(command(r.client("ann"), r.table, "sit-out"), 409, "illegal_action")


def test_a_malformed_sit_in_is_400(room):
    r = room()
    ok(command(r.client("ann"), r.table, "sit-out"))
    with unchanged(r.table, r.client("ann")):
        response = command(r.client("ann"), r.table, "sit-in", wait_for_big_blind="later")
    refused(response, 400, "invalid")


def posts_of(hand_id: str, position: int) -> list[tuple[str, int, bool]]:
    return [
        (e.data["blind"], e.data["amount"], e.data["dead"])
        for e in hand_events(hand_id)
        if e.type == "hand.blind_posted" and e.data["player"] == position
    ]


def test_a_returning_player_posts_the_blinds_he_missed(room):
    r = room(("ann", "bob", "cy", "dee"), game="five-card-draw")
    r.play_until(lambda v: len(v["hand"]["seats"]) == 4)
    ok(command(r.client("dee"), r.table, "sit-out"))
    r.play_until(lambda v: r.seat_of("dee")["missed_blinds"] == ["big", "small"], hands=8)
    assert r.seat_of("dee")["sitting_out"]

    ok(command(r.client("dee"), r.table, "sit-in"))
    r.play_until(lambda v: 4 in v["hand"]["seats"], hands=3)
    hand = r.view("dee")["hand"]
    position = position_of(hand["id"], r.users["dee"])
    assert hand["your_seat"] == 4
    # RULES.md 1: missed the small and the big blind: a big blind live plus a dead small.
    assert posts_of(hand["id"], position) == [("extra", 2, False), ("extra", 1, True)]
    me = own(hand)
    assert (me["dead"], me["bet"]) == (1, 2)
    assert r.seat_of("dee")["missed_blinds"] == []


def test_a_new_player_who_waits_for_the_big_blind_comes_in_on_it(room, make_user, client_for):
    r = room(("ann", "bob", "cy"), game="five-card-draw")
    r.play_until(lambda v: len(v["hand"]["seats"]) == 3)
    dee = add_user(r, make_user, client_for, "dee")
    ok(command(dee, r.table, "sit", seat=4, buy_in=100, wait_for_big_blind=True))
    assert r.seat_of("dee")["waiting_for_big_blind"]
    r.play_until(lambda v: 4 in v["hand"]["seats"], hands=5)
    hand = r.view()["hand"]
    position = position_of(hand["id"], r.users["dee"])
    assert posts_of(hand["id"], position) == [("big", 2, False)]
    assert not r.seat_of("dee")["waiting_for_big_blind"]


def test_players_seated_mid_hand_see_when_they_will_be_dealt_in(room, make_user, client_for):
    r = room(("ann", "bob"), game="five-card-draw")
    cy = add_user(r, make_user, client_for, "cy")
    ok(command(cy, r.table, "sit", seat=4, buy_in=100))
    r.play_until(lambda v: v["hand"]["seats"] == [1, 2, 4])
    assert r.view()["table"]["button"] == 1  # the blinds on 2 and 4
    for name, seat, waits in (("dee", 3, False), ("eve", 5, True), ("fay", 6, True)):
        client = add_user(r, make_user, client_for, name)
        ok(command(client, r.table, "sit", seat=seat, buy_in=100, wait_for_big_blind=waits))
    told = {s["seat"]: s["dealt_in"] for s in r.view("dee")["seats"]}
    assert told == {
        1: "next_hand",
        2: "next_hand",
        3: "after_button",  # between the next button (2) and small blind (4)
        4: "next_hand",
        5: "next_hand",  # the big blind he waits for comes to him
        6: "at_big_blind",
    }
    r.finish_hand()
    assert r.view()["hand"]["seats"] == [s for s, when in told.items() if when == "next_hand"]


# --------------------------------------------------------------------------
# Retries


def test_a_retried_seat_command_returns_the_first_answer_and_writes_nothing(room):
    r = room(("ann",))
    cid = str(uuid.uuid4())
    first = ok(command(r.client("ann"), r.table, "top-up", amount=10, command_id=cid))
    with unchanged(r.table, r.client("ann")):
        again = ok(command(r.client("ann"), r.table, "top-up", amount=10, command_id=cid))
    assert again == first
    assert r.seat_of("ann")["stack"] == 110


def test_a_retry_after_the_table_moved_on_still_gets_the_first_answer(room, make_user, client_for):
    r = room(("ann",))
    cid = str(uuid.uuid4())
    first = ok(command(r.client("ann"), r.table, "top-up", amount=10, command_id=cid))
    bob = add_user(r, make_user, client_for, "bob")
    ok(command(bob, r.table, "sit", seat=2, buy_in=100))  # and the first hand starts
    assert r.view()["hand"] is not None
    with unchanged(r.table, r.client("ann")):
        again = ok(command(r.client("ann"), r.table, "top-up", amount=10, command_id=cid))
    assert again == first
    assert again["hand"] is None and [s["stack"] for s in again["seats"]] == [110]


def test_a_retried_sit_does_not_sit_twice(open_table, make_user, client_for):
    table = open_table()["table"]["id"]
    ann = client_for(make_user("ann"))
    cid = str(uuid.uuid4())
    first = ok(command(ann, table, "sit", seat=1, buy_in=100, command_id=cid))
    with unchanged(table, ann):
        assert ok(command(ann, table, "sit", seat=1, buy_in=100, command_id=cid)) == first
    assert Event.objects.filter(type="table.player_seated").count() == 1


def test_another_player_reusing_a_command_id_is_409(room, make_user, client_for):
    r = room(("ann",))
    cid = str(uuid.uuid4())
    ok(command(r.client("ann"), r.table, "top-up", amount=10, command_id=cid))
    carl = add_user(r, make_user, client_for, "carl")
    with unchanged(r.table, carl):
        refused(
            command(carl, r.table, "sit", seat=2, buy_in=100, command_id=cid),
            409,
            "command_id_taken",
        )


def test_the_buy_in_in_his_history_names_the_table(room):
    """The ledger's reference ("table-<id>@<version>") comes with what it
    names, the table's kind, id and name, for a link; a cashier's deposit
    names nothing."""
    r = room(("ann",), buy_in=150, name="Felt & Friends")
    history = ok(r.client("ann").get("/api/me/ledger/"))["results"]
    buy_in, deposit = history[0], history[-1]
    assert buy_in["amount"] == -150 and buy_in["ref"].startswith(f"table-{r.table}@")
    assert buy_in["subject"] == {"kind": "table", "id": r.table, "name": "Felt & Friends"}
    assert deposit["subject"] is None
