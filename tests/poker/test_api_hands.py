"""Hands through the API: histories per viewer, the deck commitment (never
a reveal: docs/fair-deal.md), the PHH export, and the rule that no hidden card ever leaves the
server (RULES.md 1): a player sees his own cards and shown hands, a
spectator only shown hands, in every response."""

from __future__ import annotations

import random
import tomllib
import warnings
from typing import Any

import pytest
from django.conf import settings
from pokerkit import HandHistory
from rest_framework.test import APIClient

from kernel.models import Event
from poker import publish
from poker.engine.cards import cards
from poker.engine.evaluate import category
from poker.engine.rules import VARIANTS, Game
from poker.models import Hand
from tests.poker.api_support import (
    Room,
    action_body,
    add_user,
    card_codes,
    cards_in,
    command,
    hand_events,
    held_cards,
    ok,
    passive,
    position_of,
    post,
    random_action,
    refused,
    seat_players,
    seed_decks,
    visible_cards,
)
from tests.poker.ws_support import keys_in

ON_POSTGRESQL = "postgresql" in settings.DATABASES["default"]["ENGINE"]


@pytest.fixture
def room(open_table, make_user, client_for):
    def make(names=("ann", "bob"), **settings):
        return seat_players(open_table, make_user, client_for, names, **settings)

    return make


def detail(client: APIClient, hand_id: str) -> dict[str, Any]:
    return ok(client.get(f"/api/hands/{hand_id}/"))


def phh(client: APIClient, hand_id: str) -> str:
    response = client.get(f"/api/hands/{hand_id}/phh/")
    assert response.status_code == 200, response.content
    assert response["Content-Type"].startswith("application/toml")
    return response.content.decode()


# --------------------------------------------------------------------------
# The list and the detail


def test_hands_are_listed_newest_first_with_their_commitments(room):
    r = room()
    commitments = {}
    for _ in range(2):
        hand = r.view()["hand"]
        commitments[hand["id"]] = hand["commitment"]
        r.finish_hand()
    running = r.view()["hand"]
    commitments[running["id"]] = running["commitment"]
    listed = ok(APIClient().get(f"/api/hands/?table={r.table}"))
    assert [h["id"] for h in listed] == [f"{r.table}-{n}" for n in (3, 2, 1)]
    assert {h["id"]: h["commitment"] for h in listed} == commitments
    assert [h["phase"] for h in listed][1:] == ["complete", "complete"]
    assert listed[0]["result"] is None and listed[0]["ended_at"] is None
    assert all(sum(h["result"]["stacks"].values()) == 200 for h in listed[1:])


@pytest.mark.parametrize("query", ["", "?table=", "?table=abc", "?table=-1", "?table=1.0"])
def test_the_hands_list_needs_a_table_id(db, query):
    refused(APIClient().get(f"/api/hands/{query}"), 400, "invalid")


def test_the_hands_of_an_unknown_table_are_404(db):
    refused(APIClient().get("/api/hands/?table=999"), 404, "not_found")
    refused(APIClient().get("/api/hands/?table=99999999999999999999999"), 400, "invalid")


def test_a_table_id_with_a_non_ascii_digit_is_400(db):
    refused(APIClient().get("/api/hands/?table=%C2%B2"), 400, "invalid")


def test_an_unknown_hand_is_404(db):
    refused(APIClient().get("/api/hands/1-1/"), 404, "not_found")
    refused(APIClient().get("/api/hands/1-1/phh/"), 404, "not_found")
    refused(APIClient().get("/api/hands/nothing/"), 404, "not_found")


@pytest.mark.parametrize("path", ["/api/hands/a%00b/", "/api/hands/a%00b/phh/"])
def test_a_hand_id_with_a_nul_byte_is_404(db, path):
    refused(APIClient().get(path), 404, "not_found")


def test_the_detail_names_the_viewer_seat(room, make_user, client_for):
    r = room()
    hand_id = r.view()["hand"]["id"]
    carl = add_user(r, make_user, client_for, "carl")
    assert detail(r.client("ann"), hand_id)["your_seat"] == 1
    assert detail(r.client("bob"), hand_id)["your_seat"] == 2
    assert detail(carl, hand_id)["your_seat"] is None
    assert detail(APIClient(), hand_id)["your_seat"] is None


def test_hand_events_are_redacted_per_viewer(room):
    r = room()
    hand_id = r.view()["hand"]["id"]
    _, bob, view = r.to_act()
    ok(post(bob, f"/api/tables/{r.table}/actions/", action_body(view, "call")))
    ann = r.client("ann")
    ok(post(ann, f"/api/tables/{r.table}/actions/", action_body(r.view("ann"), "check")))
    mine = r.view("bob")["hand"]["players"][1]["cards"]
    ok(post(bob, f"/api/tables/{r.table}/actions/",
            action_body(r.view("bob"), "discard", cards=mine[:3])))  # fmt: skip

    def events(client, kind):
        return [e for e in detail(client, hand_id)["events"] if e["type"] == kind]

    (started,) = events(APIClient(), "hand.started")
    assert "deck" not in started and "seed" not in started
    (dealt,) = events(ann, "hand.cards_dealt")
    assert [(h["seat"], h["count"]) for h in dealt["hands"]] == [(1, 5), (2, 5)]
    assert dealt["hands"][1]["cards"] is None and len(dealt["hands"][0]["cards"]) == 5
    (dealt,) = events(APIClient(), "hand.cards_dealt")
    assert [h["cards"] for h in dealt["hands"]] == [None, None]
    for client, sees in ((bob, True), (ann, False), (APIClient(), False)):
        (discarded,) = events(client, "hand.discarded")
        (drawn,) = events(client, "hand.cards_drawn")
        assert (discarded["cards"] == mine[:3]) is sees
        assert (drawn["cards"] is not None) is sees
        if not sees:
            assert discarded["cards"] is None and discarded["count"] == 3
            assert drawn["cards"] is None and drawn["count"] == 3


# --------------------------------------------------------------------------
# The deck commitment


def test_the_commitment_is_the_root_published_with_the_deal(room):
    r = room()
    hand = r.view()["hand"]
    (started,) = [e for e in detail(APIClient(), hand["id"])["events"]
                  if e["type"] == "hand.started"]  # fmt: skip
    assert len(hand["commitment"]) == 64
    assert hand["commitment"] == started["root"] == hand["roots"][0]
    assert started["commitment"] == "merkle"


def test_the_deck_order_and_seed_never_leave_the_server_even_after_the_hand(
    room, make_user, client_for
):
    r = room(("ann", "bob", "cy"))
    carl = add_user(r, make_user, client_for, "carl")
    start = r.view()["hand"]
    r.finish_hand()
    for client in (APIClient(), r.client("ann"), r.client("bob"), r.client("cy"), carl):
        ended = detail(client, start["id"])
        assert ended["phase"] == "complete" and ended["commitment"] == start["commitment"]
        for body in (ended, ok(client.get(f"/api/tables/{r.table}/"))):
            assert not keys_in(body) & {"deck", "seed", "reveal"}


# --------------------------------------------------------------------------
# No hidden card leaves the server


class Watch:
    """Checks every response a viewer gets against the cards he may see."""

    def __init__(self, room: Room, viewers: dict[str, tuple[APIClient, Any]]) -> None:
        self.room = room
        self.viewers = viewers
        self.checked = 0
        self.own_cards_seen = 0
        self.hand_names_seen = 0
        self._positions: dict[tuple[str, Any], int | None] = {}
        self._visible: dict[tuple[str, int, int | None], set[str]] = {}

    def position(self, hand_id: str, user: Any) -> int | None:
        key = (hand_id, None if user is None else user.pk)
        if key not in self._positions:
            self._positions[key] = position_of(hand_id, user)
        return self._positions[key]

    def visible(self, hand_id: str, version: int, position: int | None) -> set[str]:
        key = (hand_id, version, position)
        if key not in self._visible:
            self._visible[key] = visible_cards(hand_id, version, position)
        return self._visible[key]

    def table_view(self, body: dict[str, Any], user: Any) -> None:
        self.checked += 1
        hand = body["hand"]
        if hand is None:
            assert cards_in(body) == set()
            return
        assert not keys_in(body) & {"deck", "seed", "reveal"}
        position = self.position(hand["id"], user)
        assert hand["your_seat"] == (None if position is None else hand["seats"][position])
        allowed = self.visible(hand["id"], hand["version"], position)
        leaked = cards_in(body) - allowed
        assert not leaked, (user, hand["id"], hand["version"], leaked)
        for player in hand["players"]:
            if position is not None and player["seat"] == hand["seats"][position]:
                if not (player["folded"] or player["mucked"]):
                    held = held_cards(hand["id"], hand["version"], position)
                    assert sorted(player["cards"]) == sorted(held)
                    self.own_cards_seen += 1
            elif not player["shown"]:
                assert player["cards"] is None
            # A shown hand is named by the game's ranking; any other is not.
            if player["shown"] and player["cards"] and len(player["cards"]) == 5:
                ranking = VARIANTS[Game(body["table"]["game"])].ranking
                named = category(cards(player["cards"]), ranking).value
                assert player["hand_name"] == named, player
                self.hand_names_seen += 1
            else:
                assert player["hand_name"] is None, player

    def hand_detail(self, body: dict[str, Any], user: Any) -> None:
        self.checked += 1
        position = self.position(body["id"], user)
        assert body["your_seat"] == (None if position is None else body["seats"][position])
        assert not keys_in(body) & {"deck", "seed", "reveal"}
        allowed = self.visible(body["id"], body["version"], position)
        leaked = cards_in(body) - allowed
        assert not leaked, (user, body["id"], body["version"], leaked)

    def history(self, text: str, hand_id: str, user: Any) -> None:
        self.checked += 1
        position = self.position(hand_id, user)
        version = Hand.objects.get(pk=hand_id).version
        leaked = card_codes(text) - self.visible(hand_id, version, position)
        assert not leaked, (user, hand_id, version, leaked)
        assert tomllib.loads(text)["hand"] == hand_id

    def refusal(self, body: dict[str, Any], user: Any) -> None:
        self.checked += 1
        current = body.get("current")
        assert cards_in({k: v for k, v in body.items() if k != "current"}) == set()
        if current is not None:
            self.table_view(current, user)

    def everything(self, hand_id: str | None) -> None:
        """Every viewer's table view, and the hand's detail and PHH."""
        for client, user in self.viewers.values():
            self.table_view(ok(client.get(f"/api/tables/{self.room.table}/")), user)
            if hand_id is not None:
                self.hand_detail(detail(client, hand_id), user)
                self.history(phh(client, hand_id), hand_id, user)
        listed = ok(APIClient().get(f"/api/hands/?table={self.room.table}"))
        for item in listed:
            allowed = self.visible(item["id"], Hand.objects.get(pk=item["id"]).version, None)
            assert cards_in(item) <= allowed


def test_no_hidden_card_leaves_the_server_in_any_response(room, make_user, client_for, monkeypatch):
    seed_decks(monkeypatch, 7)
    rng = random.Random(20240611)
    r = room(("ann", "bob", "cy", "dee"))
    dan = add_user(r, make_user, client_for, "dan")  # sits down mid-hand, not dealt in
    eve = add_user(r, make_user, client_for, "eve")  # logged in, never sits
    ok(command(dan, r.table, "sit", seat=5, buy_in=100, wait_for_big_blind=True))
    players = ("ann", "bob", "cy", "dee", "dan")
    viewers = {name: (r.client(name), r.users[name]) for name in players}
    viewers["eve"] = (eve, r.users["eve"])
    viewers["anonymous"] = (APIClient(), None)
    watch = Watch(r, viewers)

    hands: list[str] = []
    steps = 0

    def dan_dealt_in() -> bool:
        return any(5 in Hand.objects.get(pk=h).seats for h in hands[:-1])

    while len(hands) <= 5 or not dan_dealt_in():
        assert len(hands) < 12
        public = r.view()
        hand = public["hand"]
        if hand["id"] not in hands:
            hands.append(hand["id"])
        if hand["phase"] == "complete":
            break
        name, client, view = r.to_act()
        user = r.users[name]
        watch.table_view(view, user)
        if steps % 4 == 0:
            watch.everything(hand["id"])
        # Somebody else tries to act: out of turn, or with a stale version.
        other = next(n for n in players if n != name)
        other_view = r.view(other)
        attempt = action_body(other_view, "call")
        watch.refusal(post(r.client(other), f"/api/tables/{r.table}/actions/", attempt).json(),
                      r.users[other])  # fmt: skip
        stale = action_body(view, "fold") | {"version": hand["version"] - 1}
        body = refused(post(client, f"/api/tables/{r.table}/actions/", stale), 409,
                       "stale_version")  # fmt: skip
        watch.refusal(body, user)
        more = random_action(rng, view["hand"], draw_all=0.7)
        if rng.random() < 0.05:
            more = {"action": passive(view["hand"]["legal"]["actions"])}
        answer = ok(post(client, f"/api/tables/{r.table}/actions/", action_body(view, **more)))
        watch.table_view(answer, user)
        steps += 1
        assert steps < 400

    for hand_id in hands:
        watch.everything(hand_id)
    assert len(hands) >= 5 and watch.checked > 500
    assert watch.own_cards_seen > 100
    shown = [
        e for h in hands for e in detail(APIClient(), h)["events"] if e["type"] == "hand.shown"
    ]
    assert shown  # some showdowns, so shown hands were checked too
    assert watch.hand_names_seen > 0
    # With these decks the stub runs out once: the reshuffled discards are checked too.
    assert Event.objects.filter(type="hand.muck_reshuffled").exists()
    assert dan_dealt_in()


def test_a_new_player_in_a_vacated_seat_does_not_see_the_last_hand_as_his_own(
    room, make_user, client_for
):
    r = room()
    ok(command(r.client("bob"), r.table, "sit-out"))  # no hand after this one
    _, bob, view = r.to_act()
    ok(post(bob, f"/api/tables/{r.table}/actions/", action_body(view, "fold")))
    ann_cards = r.view("ann")["hand"]["players"][0]["cards"]
    assert len(ann_cards) == 5  # ann won without showing
    ok(command(r.client("ann"), r.table, "leave"))
    carl = add_user(r, make_user, client_for, "carl")
    seen = ok(command(carl, r.table, "sit", seat=1, buy_in=100))
    assert seen["hand"]["id"] == f"{r.table}-1"  # bob sits out: no new hand
    for body in (seen, ok(carl.get(f"/api/tables/{r.table}/"))):
        assert body["hand"]["your_seat"] is None
        assert all(p["cards"] is None for p in body["hand"]["players"])


# --------------------------------------------------------------------------
# PHH export


def play_a_three_handed_hand(r: Room, seed: int) -> str:
    r.play_until(lambda v: len(v["hand"]["seats"]) == 3)
    rng = random.Random(seed)
    hand_id = r.view()["hand"]["id"]
    while (public := r.view())["hand"]["id"] == hand_id and public["hand"]["phase"] != "complete":
        _, client, view = r.to_act()
        more = random_action(rng, view["hand"])
        ok(post(client, f"/api/tables/{r.table}/actions/", action_body(view, **more)))
    return hand_id


@pytest.mark.parametrize("seed", [1, 2])
def test_the_phh_export_loads_and_replays_in_pokerkit(room, seed):
    r = room(("ann", "bob", "cy"), game="2-7-single-draw")
    hand_id = play_a_three_handed_hand(r, seed)
    result = detail(APIClient(), hand_id)["result"]
    seats = Hand.objects.get(pk=hand_id).seats
    for who in (None, "ann", "bob", "cy"):
        text = phh(APIClient() if who is None else r.client(who), hand_id)
        fields = tomllib.loads(text)
        assert fields["variant"] == "N2L1D" and fields["hand"] == hand_id
        history = HandHistory.loads(text)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            *_, last = iter(history)
        assert list(last.stacks) == list(history.finishing_stacks)
        # The players by seat and screen name, as in every view.
        assert history.seat_count == 6 and sorted(history.seats) == seats  # 2-7: 6 seats
        by_seat = dict(zip(history.seats, history.finishing_stacks, strict=True))
        assert {str(s): by_seat[s] for s in seats} == result["stacks"]
        named = dict(zip(history.seats, history.players, strict=True))
        assert named == {
            seats[position_of(hand_id, r.users[n])]: r.users[n].screen_name
            for n in ("ann", "bob", "cy")
        }


@pytest.mark.parametrize(
    ("game", "betting", "code", "draws"),
    [
        ("five-card-triple-draw", "fixed-limit", "F5C3D", 3),
        ("a-5-single-draw", "no-limit", "NA5L1D", 1),
    ],
)
def test_a_hand_of_each_new_game_is_dealt_played_and_exported(room, game, betting, code, draws):
    """Issue 11: a table of a new game deals, its hand runs through every
    draw to a showdown when nobody folds, and its history names the game."""
    r = room(game=game, betting=betting)
    hand_id = r.view()["hand"]["id"]
    while (public := r.view())["hand"]["id"] == hand_id and public["hand"]["phase"] != "complete":
        _, client, view = r.to_act()
        legal = view["hand"]["legal"]["actions"]
        calm = next(a for a in ("check", "call", "stand", "show") if a in legal)
        ok(post(client, f"/api/tables/{r.table}/actions/", action_body(view, calm)))
    types = [e.type for e in hand_events(hand_id)]
    assert (types.count("hand.draw_started"), "hand.showdown_started" in types) == (draws, True)
    fields = tomllib.loads(phh(APIClient(), hand_id))
    assert (fields["variant"], fields["_game"], fields["_betting"]) == (code, game, betting)


def test_the_phh_export_shows_each_viewer_only_his_own_cards(room):
    r = room()
    hand_id = r.view()["hand"]["id"]
    texts = {who: phh(r.client(who), hand_id) for who in ("ann", "bob")}
    texts["public"] = phh(APIClient(), hand_id)
    cards = {
        who: r.view(who)["hand"]["players"][i]["cards"] for i, who in enumerate(("ann", "bob"))
    }
    assert card_codes(texts["public"]) == set()
    assert "??????????" in texts["public"]
    assert card_codes(texts["ann"]) == set(cards["ann"])
    assert card_codes(texts["bob"]) == set(cards["bob"])
    assert tomllib.loads(texts["bob"])["_view"] != tomllib.loads(texts["ann"])["_view"]


# --------------------------------------------------------------------------
# One numbering: players by seat, named by screen name


@pytest.fixture
def spread(open_table, make_user, client_for):
    """Three players in seats 2, 4 and 5 (so no seat is its hand position)
    with screen names of their own, dealt in together."""
    r = Room(open_table()["table"]["id"])
    for seat, name in ((2, "ann"), (4, "bob"), (5, "cy")):
        add_user(r, make_user, client_for, name)
        user = r.users[name]
        user.screen_name = f"{name.title()} the Bold"
        user.save(update_fields=["screen_name"])
        ok(command(r.client(name), r.table, "sit", seat=seat, buy_in=100))
    r.play_until(lambda v: v["hand"]["seats"] == [2, 4, 5])
    return r


def test_the_hand_view_numbers_players_by_seat(spread):
    r = spread
    view = r.view("bob")
    hand = view["hand"]
    assert [p["seat"] for p in hand["players"]] == hand["seats"] == [2, 4, 5]
    assert hand["your_seat"] == 4 == view["you"]["seat"]
    assert hand["button"] == view["table"]["button"]
    assert hand["to_act"] == hand["to_act_seat"] == view["clock"]["seat"]
    assert {s for pot in hand["pots"] for s in pot["eligible"]} <= {2, 4, 5}
    assert not {"position", "your_position", "name"} & keys_in(hand)
    seated = {s["seat"]: s["player"] for s in view["seats"]}
    assert all(p["player"] == seated[p["seat"]] for p in hand["players"])
    hand_id = hand["id"]
    r.finish_hand()
    shown = detail(r.client("bob"), hand_id)
    assert shown["your_seat"] == 4 and "your_position" not in shown
    events = shown["events"]
    assert "position" not in keys_in(events)
    # ``player`` is a user id only, in the roster of hand.started.
    assert "player" not in keys_in([e for e in events if e["type"] != "hand.started"])
    assert {e["seat"] for e in events if "seat" in e} <= {2, 4, 5}
    (started,) = [e for e in events if e["type"] == "hand.started"]
    assert [p["seat"] for p in started["players"]] == [2, 4, 5]
    assert started["button"] in (2, 4, 5)
    awards = [e for e in events if e["type"] == "hand.pot_awarded"]
    assert awards and all(s["seat"] in (2, 4, 5) for e in awards for s in e["shares"])
    # The WebSocket frames of the hand (as replayed, cut as live) say the same.
    frames = [
        f for f in publish.replay(r.table, 0, r.users["bob"].pk) if f["stream"] == f"hand-{hand_id}"
    ]
    assert [f["event"] for f in frames if f["type"] == "event"] == [
        {**e, "hands": [{**h, "cards": None} for h in e["hands"]]}
        if e["type"] == "hand.cards_dealt"
        else e
        for e in events
    ]
    (dealt,) = [f["event"] for f in frames if f["type"] == "private"][:1]
    assert [h["seat"] for h in dealt["hands"] if h["cards"] is not None] == [4]


def test_hand_views_and_refusals_name_players_by_screen_name(spread):
    r = spread
    names = {2: "Ann the Bold", 4: "Bob the Bold", 5: "Cy the Bold"}
    hand = r.view()["hand"]
    assert {p["seat"]: p["screen_name"] for p in hand["players"]} == names
    (started,) = [
        e for e in detail(APIClient(), hand["id"])["events"] if e["type"] == "hand.started"
    ]
    assert {p["seat"]: p["screen_name"] for p in started["players"]} == names
    waiting = next(n for n in ("ann", "bob", "cy") if r.seat_of(n)["seat"] != hand["to_act"])
    view = r.view(waiting)
    body = refused(
        post(r.client(waiting), f"/api/tables/{r.table}/actions/", action_body(view, "fold")),
        409,
        "out_of_turn",
    )
    mover, me = names[hand["to_act"]], names[r.seat_of(waiting)["seat"]]
    assert body["message"] == f"It is {mover}'s turn, not yours."
    assert body["detail"] == f"it is {mover}'s turn, not {me}'s"
    assert not any(str(u.pk) in body["message"] + body["detail"] for u in r.users.values())
