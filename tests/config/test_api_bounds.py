"""The schema's bounds are the bounds the API enforces (issue 26): a
request the schema allows is not refused for its length, so a client
generated from the schema (and schemathesis's valid cases) are accepted."""

from __future__ import annotations

import json
import re
import uuid
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from rest_framework.test import APIClient

from accounts import names
from accounts import services as accounts
from accounts.ledger import transfer_id_for
from poker.engine.rules import VARIANTS
from tests.config.contract_support import served_schema
from tests.isolation import local_cache  # noqa: F401 - autouse
from tests.people import user_maker
from tournaments.rules.definition import CLOCK_SETTINGS

pytestmark = pytest.mark.django_db


def properties(component: str) -> dict:
    return served_schema()["components"]["schemas"][component]["properties"]


@pytest.mark.parametrize("component", ["RegisterIn", "PatchedProfileIn"])
def test_a_screen_name_is_declared_as_long_as_a_stored_one(component):
    assert properties(component)["screen_name"]["maxLength"] == names.MAX_LENGTH


def test_a_new_password_is_declared_as_long_as_the_validators_want():
    assert properties("RegisterIn")["password"]["minLength"] == 8
    assert properties("PasswordIn")["new_password"]["minLength"] == 8
    assert properties("RegisterIn")["email"]["maxLength"] == 254


def test_the_longest_declared_screen_name_is_accepted_and_one_more_refused():
    longest = "a" * properties("RegisterIn")["screen_name"]["maxLength"]
    body = {"username": "ann", "password": "correct horse battery", "screen_name": longest}
    assert (
        Client().post("/api/auth/register/", body, content_type="application/json").status_code
        == 201
    )
    ann = get_user_model().objects.get(username="ann")
    client = Client()
    client.force_login(ann)
    refused = client.patch(
        "/api/me/", {"screen_name": longest + "b"}, content_type="application/json"
    )
    assert refused.status_code == 400


# --------------------------------------------------------------------------
# Each bound at its edge: the largest value the schema declares is taken
# (or refused by a rule of the room, never for its size), one more is a
# validation error (400 invalid) naming the field.


def declared(component: str, field: str, bound: str = "maximum") -> int:
    value = properties(component)[field][bound]
    assert isinstance(value, int), (component, field, bound)
    return value


def refused_as_invalid(response: Any, field: str) -> bool:
    body = response.json()
    return (
        response.status_code == 400
        and body["code"] == "invalid"
        and field in json.dumps(body.get("fields"))
    )


@pytest.fixture
def staff() -> Any:
    boss = user_maker(10**9)("boss", staff=True, role="cashier")
    for role in ("tournament_director", "floor"):
        accounts.role_grant(user=boss, role=role)
    client = APIClient()
    client.force_authenticate(get_user_model().objects.get(pk=boss.pk))
    return client


TOURNAMENT = {
    "name": "Sunday",
    "game": "five-card-draw",
    "betting": "pot-limit",
    "structure": {"preset": "standard"},
    "starting_stack": 1000,
    "buy_in": 10,
    "sit_and_go": True,
}
CASH_TABLE = {"name": "Main", "game": "five-card-draw", "betting": "no-limit",
              "small_blind": 1, "big_blind": 2}  # fmt: skip
LEVEL = {"small_blind": 1, "big_blind": 2}
REBUYS = {"until_level": 1, "chips": 1000, "price": 10}


def levels(n: int) -> list[dict[str, int]]:
    return [{"small_blind": i, "big_blind": 2 * i} for i in range(1, n + 1)]


TOURNAMENT_EDGES: dict[str, tuple[str, str, str, Callable[[int], dict[str, Any]]]] = {
    "max_players": ("TournamentIn", "max_players", "maximum", lambda n: {"max_players": n}),
    "min_players": (
        "TournamentIn", "min_players", "maximum",
        lambda n: {"min_players": n, "max_players": max(n, 2)},
    ),
    "table_size": ("TournamentIn", "table_size", "maximum", lambda n: {"table_size": n}),
    "name": ("TournamentIn", "name", "maxLength", lambda n: {"name": "n" * n}),
    "preset minutes": (
        "StructureIn", "minutes", "maximum",
        lambda n: {"structure": {"preset": "standard", "minutes": n}},
    ),
    "level minutes": (
        "LevelIn", "minutes", "maximum",
        lambda n: {"structure": {"levels": [{**LEVEL, "minutes": n}]}},
    ),
    "break minutes": (
        "BreakIn", "minutes", "maximum",
        lambda n: {"structure": {"levels": levels(2),
                                 "breaks": [{"after_level": 1, "minutes": n}]}},
    ),
    "levels and late registration": (
        "TournamentIn", "late_registration_level", "maximum",
        lambda n: {"structure": {"levels": levels(n)}, "late_registration_level": n},
    ),
    "break after level": (
        "BreakIn", "after_level", "maximum",
        lambda n: {"structure": {"levels": levels(n + 1), "breaks": [{"after_level": n}]}},
    ),
    "rebuy window": (
        "RebuysIn", "until_level", "maximum",
        lambda n: {"structure": {"levels": levels(n)}, "rebuys": {**REBUYS, "until_level": n}},
    ),
    "rebuy decision": (
        "RebuysIn", "decision_seconds", "maximum",
        lambda n: {"rebuys": {**REBUYS, "decision_seconds": n}},
    ),
    **{
        f"clocks {name}": ("ClocksIn", name, "maximum", lambda n, name=name: {"clocks": {name: n}})
        for name in CLOCK_SETTINGS
    },
    "big blind": (
        "LevelIn", "big_blind", "minimum",
        lambda n: {"structure": {"levels": [{"small_blind": n // 2, "big_blind": n}]}},
    ),
}  # fmt: skip


@pytest.mark.parametrize("edge", TOURNAMENT_EDGES)
def test_a_tournament_s_declared_edge_is_taken_and_one_past_it_invalid(edge, staff):
    component, field, bound, body = TOURNAMENT_EDGES[edge]
    edge_value = declared(component, field, bound)
    past = edge_value + 1 if bound.startswith("max") else edge_value - 1
    taken = staff.post("/api/tournaments/", {**TOURNAMENT, **body(edge_value)}, format="json")
    assert taken.status_code == 201, taken.json()
    refused = staff.post("/api/tournaments/", {**TOURNAMENT, **body(past)}, format="json")
    assert refused_as_invalid(refused, field), refused.json()


def test_the_seats_are_declared_as_many_as_the_biggest_game_has():
    most = max(variant.max_players for variant in VARIANTS.values())
    assert properties("TableIn")["seats"]["maximum"] == most
    assert properties("SitIn")["seat"]["maximum"] == most
    assert properties("MoveIn")["seat"]["maximum"] == most
    assert properties("TournamentIn")["table_size"]["maximum"] == most


def test_a_cash_table_of_the_most_declared_seats_opens_and_one_more_is_invalid(staff):
    most = declared("TableIn", "seats")
    taken = staff.post("/api/tables/", {**CASH_TABLE, "seats": most}, format="json")
    assert taken.status_code == 201
    refused = staff.post("/api/tables/", {**CASH_TABLE, "seats": most + 1}, format="json")
    assert refused_as_invalid(refused, "seats"), refused.json()


# --------------------------------------------------------------------------
# Ids a client picks: the room's own kind (UUID version 8, RFC variant) is
# declared out of bounds, so a client generated from the schema never
# picks one, and is refused as invalid input.

SYSTEM_ID = "0f0e0d0c-0b0a-8908-8706-050403020100"
VERSION_8_OTHER_VARIANT = "0f0e0d0c-0b0a-8908-c706-050403020100"


@pytest.mark.parametrize(
    "component, field",
    [
        ("MoneyIn", "transfer_id"),
        ("BankrollFundIn", "transfer_id"),
        ("SitIn", "command_id"),
        ("ActIn", "command_id"),
        ("CasinoSitIn", "command_id"),
        ("CasinoMoveIn", "command_id"),
        ("EntryIn", "command_id"),
    ],
)
def test_a_client_s_id_is_declared_any_uuid_but_the_room_s_own(component, field):
    pattern = re.compile(properties(component)[field]["pattern"])
    assert pattern.search(str(uuid.uuid4())) and pattern.search(str(uuid.uuid4()).upper())
    assert pattern.search(VERSION_8_OTHER_VARIANT)
    assert not pattern.search(SYSTEM_ID)
    assert not pattern.search(str(transfer_id_for("table-1@1")))


def test_a_deposit_or_a_command_under_the_room_s_kind_of_id_is_invalid(staff):
    player = user_maker(0)("ann")
    deposit = f"/api/wallets/{player.pk}/deposit/"
    for transfer_id in (SYSTEM_ID, VERSION_8_OTHER_VARIANT):
        body = {"transfer_id": transfer_id, "amount": 5}
        if transfer_id == SYSTEM_ID:
            assert refused_as_invalid(staff.post(deposit, body, format="json"), "transfer_id")
        else:
            assert staff.post(deposit, body, format="json").status_code == 200
    table = staff.post("/api/tables/", CASH_TABLE, format="json").json()["table"]["id"]
    client = APIClient()
    client.force_authenticate(user_maker(10**6)("bob"))
    sit = f"/api/tables/{table}/sit/"
    body = {"seat": 1, "buy_in": 100, "command_id": SYSTEM_ID}
    assert refused_as_invalid(client.post(sit, body, format="json"), "command_id")
    body["command_id"] = VERSION_8_OTHER_VARIANT
    assert client.post(sit, body, format="json").status_code == 200
