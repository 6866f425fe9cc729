"""The OpenAPI schema is a contract: a valid document that declares every
response of every operation (no free-form bodies), every refusal with the
one error shape, public reads as public, card codes with their pattern;
and what the server answers through a whole hand is what it declares.
"""

from __future__ import annotations

import random
import re
from typing import Any

import pytest
import schemathesis
from openapi_spec_validator import validate
from werkzeug.test import Client as WsgiClient

from poker.engine.cards import CARD_PATTERN, deck_with_jokers
from tests.casino.support import store_figures
from tests.config.contract_support import APP, a_command_id, log_in, same_connection, served_schema
from tests.isolation import (  # noqa: F401 - autouse
    fast_password_hashing,
    fresh_caches,
    generous_throttles,
    in_memory_channel_layer,
    local_cache,
)
from tests.people import user_maker


@pytest.fixture(scope="module")
def document() -> dict[str, Any]:
    return served_schema()


def operations(document: dict[str, Any]) -> list[tuple[str, str, dict[str, Any]]]:
    return [
        (method.upper(), path, op)
        for path, item in document["paths"].items()
        for method, op in item.items()
    ]


def test_the_schema_is_a_valid_openapi_document(document):
    validate(document)  # raises on any violation of the OpenAPI 3 specification


def test_every_success_response_is_declared_by_a_named_shape(document):
    loose = []
    for method, path, op in operations(document):
        for status, response in op["responses"].items():
            if not status.startswith("2") or "content" not in response:
                continue
            for media, body in response["content"].items():
                schema = body["schema"]
                schema = schema.get("items", schema)
                if media == "application/json" and "$ref" not in schema:
                    loose.append((method, path, status))
    assert loose == []


def test_every_operation_declares_its_refusals_with_the_error_shape(document):
    error = {"$ref": "#/components/schemas/ErrorOut"}
    for method, path, op in operations(document):
        responses = op["responses"]
        refusals = {s: r for s, r in responses.items() if s.startswith("4")}
        if path != "/api/health/":
            assert refusals, (method, path)
        for status, response in refusals.items():
            assert response["content"]["application/json"]["schema"] == error, (path, status)
        if "requestBody" in op:
            assert {"400", "409", "413", "415", "429"} <= refusals.keys(), (method, path)
        if "{" in path:
            assert "404" in refusals, (method, path)


def test_a_throttled_refusal_declares_retry_after(document):
    throttled = [
        op["responses"]["429"] for _, _, op in operations(document) if "429" in op["responses"]
    ]
    assert len(throttled) > 20
    assert all(r["headers"]["Retry-After"]["required"] for r in throttled)


def test_the_error_shape_has_a_code_and_a_message(document):
    shape = document["components"]["schemas"]["ErrorOut"]
    assert shape["required"] == ["code", "message"]


@pytest.mark.parametrize(
    "path",
    [
        "/api/tables/",
        "/api/tables/{table_id}/",
        "/api/hands/{hand_id}/",
        "/api/tournaments/",
        "/api/casino/tables/",
        "/api/casino/tables/{table_id}/strategy/",
        "/api/casino/rounds/{round_id}/",
    ],
)
def test_public_reads_need_no_login(document, path):
    assert {} in document["paths"][path]["get"]["security"]


@pytest.mark.parametrize("path", ["/api/me/", "/api/me/wallet/", "/api/casino/rounds/"])
def test_private_reads_need_a_login(document, path):
    assert {} not in document["paths"][path]["get"]["security"]


def test_the_lists_are_declared_as_lists_and_the_ledgers_as_pages(document):
    def body(path: str) -> dict[str, Any]:
        return document["paths"][path]["get"]["responses"]["200"]["content"]["application/json"]

    assert body("/api/tables/")["schema"]["type"] == "array"
    assert body("/api/tournaments/{tournament_id}/standings/")["schema"]["type"] == "array"
    for paged in ("/api/me/ledger/", "/api/casino/rounds/"):
        page = body(paged)["schema"]["$ref"].rsplit("/", 1)[-1]
        assert {"count", "results"} <= set(document["components"]["schemas"][page]["properties"])


def test_card_codes_are_declared_with_their_pattern(document):
    text = str(document)
    assert text.count(CARD_PATTERN.replace("\\", "\\\\")) > 5
    player = document["components"]["schemas"]["HandPlayerOut"]["properties"]["cards"]
    assert player["items"]["pattern"] == CARD_PATTERN
    action = document["components"]["schemas"]["ActIn"]["properties"]["cards"]
    assert action["items"]["pattern"] == CARD_PATTERN


def test_the_card_pattern_takes_every_card_and_nothing_else():
    codes = {str(c) for c in deck_with_jokers(2)}
    assert all(re.fullmatch(CARD_PATTERN, code) for code in codes)
    assert not any(re.fullmatch(CARD_PATTERN, c) for c in ("1h", "Ax", "ah", "X0", "", "AhK"))


def test_every_hand_event_is_declared_by_its_type(document):
    from poker.engine.events import EVENT_TYPES

    union = document["components"]["schemas"]["HandEvent"]
    assert set(union["discriminator"]["mapping"]) == set(EVENT_TYPES)
    started = document["components"]["schemas"]["HandStartedEvent"]["properties"]
    assert "deck" not in started and "seed" not in started  # never shown to anyone


# --------------------------------------------------------------------------
# What the server answers is what the schema declares


class Checked:
    """A client whose every answer is checked against the schema."""

    def __init__(self, schema: Any, headers: dict[str, str]) -> None:
        self.schema, self.headers, self.client = schema, headers, WsgiClient(APP)

    def __call__(self, method: str, path: str, body: Any = None, status: int = 200) -> Any:
        response = self.client.open(path, method=method, json=body, headers=self.headers)
        assert response.status_code == status, (path, response.get_data()[:500])
        operation = self.schema.find_operation_by_path(method, path.split("?")[0])
        assert operation is not None, path
        operation.validate_response(response)
        return response.json


@pytest.mark.django_db
@pytest.mark.postgres
def test_a_whole_hand_is_answered_as_declared(settings):
    """Two players play 32 Card Draw hands to the end (draws, showdowns),
    every view of every viewer checked: the table, the hand, its history."""
    settings.TOURNAMENT_TABLES = False
    schema = schemathesis.openapi.from_dict(served_schema())
    make = user_maker(10**6)
    make("boss", staff=True)
    ann, bob = make("ann"), make("bob")
    rng = random.Random(13)
    with same_connection():
        staff = Checked(schema, log_in("boss"))
        players = {u.pk: Checked(schema, log_in(u.username)) for u in (ann, bob)}
        anyone = Checked(schema, {})
        body = {"name": "T", "game": "32-card-draw", "betting": "pot-limit", "small_blind": 1,
                "big_blind": 2}  # fmt: skip
        table = staff("POST", "/api/tables/", body, status=201)["table"]["id"]
        for seat, client in enumerate(players.values(), start=1):
            client("POST", f"/api/tables/{table}/sit/",
                   {"seat": seat, "buy_in": 100, "command_id": a_command_id()})  # fmt: skip
        hands = set()
        for _ in range(200):
            public = anyone("GET", f"/api/tables/{table}/")
            hand = public["hand"]
            if hand is None or len(hands) > 3:
                break
            hands.add(hand["id"])
            if hand["to_act_seat"] is None:
                break
            actor = next(s["player"] for s in public["seats"] if s["seat"] == hand["to_act_seat"])
            mine = players[actor]("GET", f"/api/tables/{table}/")["hand"]
            players[actor]("POST", f"/api/tables/{table}/actions/", _action(rng, mine))
        assert len(hands) >= 2
        for hand_id in hands:
            for viewer in (anyone, *players.values()):
                viewer("GET", f"/api/hands/{hand_id}/")
        anyone("GET", f"/api/hands/?table={table}")
        for viewer in (anyone, staff):
            viewer("GET", "/api/tables/")


def _action(rng: random.Random, hand: dict[str, Any]) -> dict[str, Any]:
    legal = hand["legal"]
    order = ("call", "check", "show", "accept", "decline", "discard", "stand", "fold", "muck")
    action = next(a for a in order if a in legal["actions"])
    body = {"hand": hand["id"], "version": hand["version"], "command_id": a_command_id()}
    if action == "discard":
        cards = next(p["cards"] for p in hand["players"] if p["seat"] == hand["your_seat"])
        body["cards"] = rng.sample(cards, rng.randint(1, legal["max_discard"]))
    return {**body, "action": action}


@pytest.mark.django_db
@pytest.mark.postgres
def test_a_whole_casino_round_is_answered_as_declared():
    """Two players bet, exchange, play or fold casino rounds to the end,
    every view of every viewer checked; the bankroll and the list too."""
    schema = schemathesis.openapi.from_dict(served_schema())
    make = user_maker(10**6)
    make("boss", staff=True, role="cashier")
    ann, bob = make("ann"), make("bob")
    rng = random.Random(7)
    with same_connection():
        staff = Checked(schema, log_in("boss"))
        players = {u.pk: Checked(schema, log_in(u.username)) for u in (ann, bob)}
        anyone = Checked(schema, {})
        fund = {"amount": 10**6, "transfer_id": a_command_id()}
        staff("POST", "/api/casino/bankroll/", fund)
        body = {"name": "C", "jokers": 2, "pay_table": {"five-of-a-kind": 30}}
        store_figures(pay_table=body["pay_table"], model_edge=0.01, low=0.002)
        table = staff("POST", "/api/casino/tables/", body, status=201)["table"]["id"]
        base = f"/api/casino/tables/{table}"
        for box, client in enumerate(players.values(), start=1):
            client("POST", f"{base}/sit/", {"box": box, "command_id": a_command_id()})
        for _ in range(2):
            for client in players.values():
                client("POST", f"{base}/bet/", {"amount": 10, "command_id": a_command_id()})
            for _ in range(20):
                public = anyone("GET", f"{base}/")
                current = public["round"]
                if current["phase"] == "complete":
                    break
                actor = next(b["player"] for b in current["boxes"] if b["box"] == current["to_act"])
                mine = players[actor]("GET", f"{base}/")["round"]
                action, move = _casino_move(rng, mine)
                players[actor]("POST", f"{base}/{action}/", move)
            assert public["round"]["phase"] == "complete"
        for viewer in (anyone, *players.values()):
            viewer("GET", f"{base}/")
            viewer("GET", f"{base}/strategy/")
            viewer("GET", "/api/casino/tables/")
        staff("GET", f"{base}/")
        staff("GET", "/api/casino/math/")
        staff("GET", "/api/casino/bankroll/")
        staff("POST", f"{base}/close/", {"command_id": a_command_id()})


def _casino_move(rng: random.Random, current: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    legal = current["legal"]
    body = {"round": current["id"], "version": current["version"], "command_id": a_command_id()}
    action = rng.choice(legal["actions"])
    if action == "exchange":
        cards = next(b["cards"] for b in current["boxes"] if b["box"] == current["your_box"])
        body["cards"] = rng.sample(cards, rng.randint(1, legal["max_exchange"]))
    return action, body
