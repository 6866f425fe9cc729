"""Actions in a hand through the API: only the player to act, in his own
seat, at the version he saw; engine refusals keep their codes; a retried
command id gets its first answer; every refusal is a 4xx JSON body and
changes nothing."""

from __future__ import annotations

import random
import uuid

import pytest
from rest_framework.test import APIClient

from kernel.folds import Folds
from kernel.models import Event
from poker import projections, streams
from poker.engine.evolve import evolve
from poker.engine.table import evolve_table
from poker.models import Hand
from tests.poker.api_support import (
    action_body,
    add_user,
    ok,
    own,
    post,
    random_action,
    refused,
    seat_players,
    unchanged,
    view_of,
)


@pytest.fixture
def room(open_table, make_user, client_for):
    """A heads-up table with its first hand running: ann (seat 1) is on the
    button and the big blind, bob (seat 2) posts the small blind and acts first."""

    def make(names=("ann", "bob"), **settings):
        return seat_players(open_table, make_user, client_for, names, **settings)

    return make


def actions_path(r) -> str:
    return f"/api/tables/{r.table}/actions/"


def calm(actions: list[str]) -> str:
    """Keep the hand going: check or call rather than fold."""
    return next(a for a in ("check", "call", "stand", "decline", "show", "fold") if a in actions)


def test_the_player_to_act_acts_and_the_hand_moves_on(room):
    r = room()
    name, client, view = r.to_act()
    assert name == "bob"
    hand = view["hand"]
    events = Event.objects.count()
    answer = ok(post(client, actions_path(r), action_body(view, "call")))
    assert answer["hand"]["version"] == hand["version"] + 1
    assert answer == r.view("bob")  # the answer is the table as he now sees it
    (called,) = Event.objects.filter(stream=f"hand-{hand['id']}", version=hand["version"] + 1)
    assert (called.type, called.data) == ("hand.called", {"player": 1, "amount": 1})
    assert Event.objects.count() == events + 1
    assert r.to_act()[0] == "ann"


def test_only_the_player_to_act_gets_the_legal_menu(room, make_user, client_for):
    r = room()
    carl = add_user(r, make_user, client_for, "carl")
    assert r.view("bob")["hand"]["legal"] == {
        "actions": ["fold", "call", "raise"],
        "call": 1,
        "min_raise_to": 4,
        "max_raise_to": 100,
    }
    assert r.view("ann")["hand"]["legal"] is None
    assert view_of(carl, r.table)["hand"]["legal"] is None
    assert r.view()["hand"]["legal"] is None


def test_acting_out_of_turn_is_409(room):
    r = room()
    view = r.view("ann")
    with unchanged(r.table, r.client("ann"), r.client("bob")):
        for action in ("fold", "check", "call"):
            refused(
                post(r.client("ann"), actions_path(r), action_body(view, action)),
                409,
                "out_of_turn",
            )


def test_acting_at_a_table_where_he_does_not_sit_is_409(room, make_user, client_for):
    r = room()
    carl = add_user(r, make_user, client_for, "carl")
    view = r.view("bob")  # carl copies the hand and version of the player to act
    with unchanged(r.table, carl, r.client("bob")):
        refused(post(carl, actions_path(r), action_body(view, "call")), 409, "not_seated")


def test_a_seated_player_not_dealt_in_is_409(room, make_user, client_for):
    r = room()
    carl = add_user(r, make_user, client_for, "carl")
    ok(post(carl, f"/api/tables/{r.table}/sit/", seat=3, buy_in=100))
    view = view_of(carl, r.table)
    assert view["you"] == {"seat": 3} and view["hand"]["your_seat"] is None
    with unchanged(r.table, carl):
        refused(post(carl, actions_path(r), action_body(view, "call")), 409, "not_in_hand")


def test_a_stale_version_is_409_with_the_current_state(room):
    r = room()
    _, bob, old = r.to_act()
    ok(post(bob, actions_path(r), action_body(old, "call")))
    ok(post(r.client("ann"), actions_path(r), action_body(r.view("ann"), "check")))
    assert r.to_act()[0] == "bob"  # his turn again, in the draw
    with unchanged(r.table, bob):
        body = refused(post(bob, actions_path(r), action_body(old, "stand")), 409, "stale_version")
    assert body["current"] == r.view("bob")
    assert body["current"]["hand"]["version"] > old["hand"]["version"]


def test_an_unknown_hand_is_404_and_an_ended_one_is_stale(room):
    r = room()
    _, client, view = r.to_act()
    with unchanged(r.table, client):
        for hand in (f"{r.table}-2", "999-1"):
            body = action_body(view, "call") | {"hand": hand}
            refused(post(client, actions_path(r), body), 404, "not_found")
        body = action_body(view, "call") | {"hand": "x" * 24}  # not a hand id at all
        refused(post(client, actions_path(r), body), 400, "invalid")
    r.finish_hand()  # hand 2 runs now: an action on hand 1 is merely stale
    _, client, _ = r.to_act()
    with unchanged(r.table, client):
        body = refused(
            post(client, actions_path(r), action_body(view, "call")), 409, "stale_version"
        )
        assert body["current"]["hand"]["id"] == f"{r.table}-2"


def test_acting_at_an_unknown_table_is_404(room):
    r = room()
    _, client, view = r.to_act()
    with unchanged(r.table, client):
        refused(
            post(client, "/api/tables/999/actions/", action_body(view, "call")), 404, "not_found"
        )


@pytest.mark.parametrize(
    ("action", "more"),
    [
        ("check", {}),
        ("bet", {"amount": 4}),
        ("discard", {"cards": []}),
        ("stand", {}),
        ("parole", {}),
        ("accept", {}),
        ("show", {}),
        ("muck", {}),
    ],
)
def test_an_action_not_allowed_now_is_409_illegal_action(room, action, more):
    r = room()
    _, client, view = r.to_act()  # the small blind, facing the big blind
    with unchanged(r.table, client):
        refused(
            post(client, actions_path(r), action_body(view, action, **more)), 409, "illegal_action"
        )


@pytest.mark.parametrize(
    "more",
    [{}, {"amount": None}, {"amount": 3}, {"amount": 0}, {"amount": 101}],
    ids=str,
)
def test_a_raise_outside_the_bounds_is_400_bad_amount(room, more):
    r = room()
    _, client, view = r.to_act()  # may raise to 4..100
    with unchanged(r.table, client):
        refused(
            post(client, actions_path(r), action_body(view, "raise", **more)), 400, "bad_amount"
        )


def test_an_amount_beyond_any_chip_count_is_400_invalid(room):
    r = room()
    _, client, view = r.to_act()
    with unchanged(r.table, client):
        body = action_body(view, "raise", amount=10**30)
        refused(post(client, actions_path(r), body), 400, "invalid")


def test_an_amount_on_a_call_is_400_malformed(room):
    r = room()
    _, client, view = r.to_act()
    with unchanged(r.table, client):
        body = action_body(view, "call", amount=4)
        refused(post(client, actions_path(r), body), 400, "malformed")


def draw_turn(r):
    """Play the first betting round out (call, check): the small blind is to
    draw; his name, client and view."""
    ok(post(r.client("bob"), actions_path(r), action_body(r.view("bob"), "call")))
    ok(post(r.client("ann"), actions_path(r), action_body(r.view("ann"), "check")))
    name, client, view = r.to_act()
    assert name == "bob" and view["hand"]["phase"] == "draw"
    return client, view


def test_a_discard_of_cards_he_does_not_hold_is_400_bad_cards(room):
    r = room()
    client, view = draw_turn(r)
    hand = view["hand"]
    mine = own(hand)["cards"]
    theirs = r.view("ann")["hand"]["players"][0]["cards"]
    with unchanged(r.table, client):
        for cards in ([theirs[0]], ["2h"], [mine[0], mine[0]], mine):  # 5 > max_discard 4
            refused(
                post(client, actions_path(r), action_body(view, "discard", cards=cards)),
                400,
                "bad_cards",
            )
    answer = ok(post(client, actions_path(r), action_body(view, "discard", cards=mine[:2])))
    me = own(answer["hand"])
    assert me["last_discard_count"] == 2
    assert set(me["cards"]) & set(mine) == set(mine[2:]) and len(me["cards"]) == 5


@pytest.mark.parametrize(
    "cards", [["Zz"], ["10h"], [""], ["A"], ["AhKd"], [5], [None], "Ah", {"0": "Ah"}], ids=str
)
def test_malformed_card_codes_are_400(room, cards):
    r = room()
    client, view = draw_turn(r)
    with unchanged(r.table, client):
        response = post(client, actions_path(r), action_body(view, "discard", cards=cards))
    assert response.status_code == 400, response.content
    assert response.json()["code"] in {"invalid", "malformed"}


def body_without(key):
    return lambda body: {k: v for k, v in body.items() if k != key}


def body_with(**changes):
    return lambda body: {**body, **changes}


MALFORMED = {
    "no hand": body_without("hand"),
    "no version": body_without("version"),
    "no command id": body_without("command_id"),
    "no action": body_without("action"),
    "unknown action": body_with(action="all-in"),
    "action as list": body_with(action=["call"]),
    "negative amount": body_with(action="raise", amount=-4),
    "amount as word": body_with(action="raise", amount="four"),
    "amount as fraction": body_with(action="raise", amount=4.5),
    "amount as bool": body_with(action="raise", amount=True),
    "version as word": body_with(version="latest"),
    "negative version": body_with(version=-1),
    "version null": body_with(version=None),
    "command id not a uuid": body_with(command_id="again"),
    "command id null": body_with(command_id=None),
    "hand null": body_with(hand=None),
    "hand too long": body_with(hand="1" * 25),
    "hand as object": body_with(hand={"id": 1}),
    "six cards": body_with(action="discard", cards=["Ah"] * 6),
}


@pytest.mark.parametrize("change", MALFORMED.values(), ids=MALFORMED.keys())
def test_a_malformed_action_is_400_invalid(room, change):
    r = room()
    _, client, view = r.to_act()
    with unchanged(r.table, client):
        refused(post(client, actions_path(r), change(action_body(view, "call"))), 400, "invalid")


@pytest.mark.parametrize("text", ["", "{", "call", "[]", "null", '"call"', "{'hand': 1}"], ids=repr)
def test_a_body_that_is_not_a_json_object_is_400(room, text):
    r = room()
    _, client, _ = r.to_act()
    with unchanged(r.table, client):
        response = client.post(actions_path(r), text, content_type="application/json")
    assert response.status_code == 400, response.content
    assert response.json()["code"] in {"invalid", "malformed"}


@pytest.mark.parametrize("field", ["version", "amount"])
def test_numbers_sent_as_strings_are_refused(room, field):
    r = room()
    _, client, view = r.to_act()
    body = action_body(view, "raise", amount=10)
    body[field] = str(body[field])
    with unchanged(r.table, client):
        refused(post(client, actions_path(r), body), 400, "invalid")


def test_a_huge_version_is_refused_as_invalid(room):
    r = room()
    _, client, view = r.to_act()
    body = action_body(view, "call") | {"version": 10**30}
    with unchanged(r.table, client):
        refused(post(client, actions_path(r), body), 400, "invalid")


def test_a_retried_action_returns_the_first_answer_and_writes_nothing(room):
    r = room()
    _, bob, view = r.to_act()
    body = action_body(view, "call")
    first = ok(post(bob, actions_path(r), body))
    with unchanged(r.table, bob):
        assert ok(post(bob, actions_path(r), body)) == first
        changed = body | {"action": "raise", "amount": 10}  # another command: test_api_command_ids
        refused(post(bob, actions_path(r), changed), 409, "command_id_reused")
    ok(post(r.client("ann"), actions_path(r), action_body(r.view("ann"), "check")))
    with unchanged(r.table, bob):  # the hand has moved on: still the first answer
        assert ok(post(bob, actions_path(r), body)) == first


def test_another_player_reusing_an_action_command_id_is_409(room):
    r = room()
    _, bob, view = r.to_act()
    body = action_body(view, "call")
    ok(post(bob, actions_path(r), body))
    ann_view = r.view("ann")
    taken = action_body(ann_view, "check") | {"command_id": body["command_id"]}
    with unchanged(r.table, r.client("ann")):
        refused(post(r.client("ann"), actions_path(r), taken), 409, "command_id_taken")


def test_reusing_a_command_id_that_would_be_refused_anyway_is_409(room, make_user, client_for):
    r = room()
    _, bob, view = r.to_act()
    body = action_body(view, "call")
    ok(post(bob, actions_path(r), body))
    carl = add_user(r, make_user, client_for, "carl")  # not seated: refused anyway
    with unchanged(r.table, carl):
        refused(post(carl, actions_path(r), body), 409, "command_id_taken")


def test_a_refused_command_leaves_its_id_free(room):
    r = room()
    cid = str(uuid.uuid4())
    refused(
        post(
            r.client("ann"),
            actions_path(r),
            action_body(r.view("ann"), "check") | {"command_id": cid},
        ),
        409,
        "out_of_turn",
    )
    answer = ok(
        post(
            r.client("bob"),
            actions_path(r),
            action_body(r.view("bob"), "call") | {"command_id": cid},
        )
    )
    assert answer["you"] == {"seat": 2}


def test_a_hand_played_out_through_the_api_pays_the_pot(room):
    r = room(("ann", "bob", "cy"))
    r.play_until(lambda v: len(v["hand"]["seats"]) == 3)
    rng = random.Random(3)
    hand_id = r.view()["hand"]["id"]
    before = {s["seat"]: s["stack"] for s in r.view()["seats"]}
    while (public := r.view())["hand"]["id"] == hand_id and public["hand"]["phase"] != "complete":
        _, client, view = r.to_act()
        ok(post(client, actions_path(r), action_body(view, **random_action(rng, view["hand"]))))
    hand = ok(APIClient().get(f"/api/hands/{hand_id}/"))
    assert hand["phase"] == "complete" and hand["events"][-1]["type"] == "hand.ended"
    assert (hand["table"], hand["table_name"]) == (r.table, "Main")
    stacks = {int(k): v for k, v in hand["result"]["stacks"].items()}
    assert sum(stacks.values()) == sum(before.values())
    awarded = sum(e["amount"] for e in hand["events"] if e["type"] == "hand.pot_awarded")
    assert awarded == sum(a["amount"] for a in hand["result"]["awards"]) > 0
    assert {s["seat"]: s["stack"] for s in public["seats"]} == stacks
    # The next hand starts from the stacks the last one left.
    if public["hand"]["id"] != hand_id:
        for player in public["hand"]["players"]:
            assert player["stack"] + player["total"] == stacks[player["seat"]]


def test_a_command_that_fails_after_writing_leaves_nothing_in_the_fold_cache(room, monkeypatch):
    r = room()
    _, bob, view = r.to_act()
    hand_id = view["hand"]["id"]

    def broken(*args, **kwargs):
        raise RuntimeError("the database went away")

    # Bob's fold ends the hand: the hand's projection is written, then the
    # table's fails and the whole command rolls back.
    events = Event.objects.count()
    monkeypatch.setattr(projections, "table_changes", broken)
    with pytest.raises(RuntimeError):
        post(bob, actions_path(r), action_body(view, "fold"))
    monkeypatch.undo()
    assert Event.objects.count() == events

    # Another process (with its own fold cache) plays the hand on, calling.
    here = (streams.hands, streams.tables)
    monkeypatch.setattr(streams, "hands", Folds(streams.decode_hand, evolve))
    monkeypatch.setattr(streams, "tables", Folds(streams.decode_table, evolve_table))
    while Hand.objects.get(pk=hand_id).version < view["hand"]["version"] + 8:
        _, client, mine = r.to_act()
        if mine["hand"]["id"] != hand_id:
            break
        action = calm(mine["hand"]["legal"]["actions"])
        ok(post(client, actions_path(r), action_body(mine, action)))
    monkeypatch.undo()
    assert (streams.hands, streams.tables) == here

    # This process must serve the hand as the event store has it.
    served = (r.view("bob"), ok(APIClient().get(f"/api/hands/{hand_id}/")))
    streams.hands.forget()
    streams.tables.forget()
    assert served == (r.view("bob"), ok(APIClient().get(f"/api/hands/{hand_id}/")))
