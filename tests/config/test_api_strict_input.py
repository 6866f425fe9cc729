"""Input is what the schema says it is (what schemathesis found accepted):
text is a JSON string, a command id a string, a flag a JSON boolean; a
query parameter given empty or out of its declared range is refused."""

from __future__ import annotations

import uuid
from typing import Any

import pytest
from rest_framework.test import APIClient

from tests.isolation import (  # noqa: F401 - autouse
    fast_password_hashing,
    fresh_caches,
    generous_throttles,
    in_memory_channel_layer,
    local_cache,
)
from tests.people import client_for, user_maker  # noqa: F401 - client_for: a fixture

pytestmark = pytest.mark.django_db


@pytest.fixture
def player(client_for) -> APIClient:  # noqa: F811 - the fixture
    return client_for(user_maker(10**6)("ann"))


@pytest.fixture
def staff(client_for) -> APIClient:  # noqa: F811 - the fixture
    return client_for(user_maker(0)("boss", staff=True))


@pytest.fixture
def table(staff: APIClient) -> int:
    body = {"name": "T", "game": "32-card-draw", "betting": "no-limit", "small_blind": 1,
            "big_blind": 2}  # fmt: skip
    response = staff.post("/api/tables/", body, format="json")
    assert response.status_code == 201
    return int(response.json()["table"]["id"])


def refused_field(response: Any, field: str) -> None:
    assert response.status_code == 400, response.content
    assert response.json()["code"] == "invalid"
    assert field in response.json()["fields"]


def test_a_number_is_not_text(staff):
    body = {"name": 123, "game": "32-card-draw", "betting": "no-limit", "small_blind": 1,
            "big_blind": 2}  # fmt: skip
    refused_field(staff.post("/api/tables/", body, format="json"), "name")


def test_a_number_is_not_a_screen_name(player):
    refused_field(player.patch("/api/me/", {"screen_name": 7}, format="json"), "screen_name")


def test_a_number_is_not_a_command_id(player, table):
    body = {"seat": 1, "buy_in": 100, "command_id": uuid.uuid4().int}
    refused_field(player.post(f"/api/tables/{table}/sit/", body, format="json"), "command_id")


@pytest.mark.parametrize("flag", ["true", 1, "yes"])
def test_a_flag_is_a_json_boolean(player, table, flag):
    body = {"seat": 1, "buy_in": 100, "wait_for_big_blind": flag}
    response = player.post(f"/api/tables/{table}/sit/", body, format="json")
    refused_field(response, "wait_for_big_blind")


@pytest.mark.parametrize("query", ["kind=", "page=", "page_size=", "page_size=abc", "page_size=0"])
def test_a_ledger_query_says_what_it_means(player, query):
    refused_field(player.get(f"/api/me/ledger/?{query}"), query.split("=")[0])


def test_the_lobby_refuses_an_empty_status(client_for):  # noqa: F811 - the fixture
    refused_field(client_for(None).get("/api/tournaments/?status="), "status")


def test_the_hands_list_takes_the_table_ids_the_schema_declares(client_for):  # noqa: F811
    anyone = client_for(None)
    top = 10**18 - 1
    assert anyone.get(f"/api/hands/?table={top}").status_code == 404  # no such table
    for wrong in (-1, top + 1):
        assert anyone.get(f"/api/hands/?table={wrong}").status_code == 400


def test_the_schema_declares_the_hands_list_table_bounds(client):
    document = client.get("/api/schema/", {"format": "json"}).json()
    (table,) = document["paths"]["/api/hands/"]["get"]["parameters"]
    assert (table["schema"]["minimum"], table["schema"]["maximum"]) == (0, 10**18 - 1)
