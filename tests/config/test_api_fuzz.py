"""Schemathesis against the whole API, in process: every operation, with
requests generated from the schema (valid ones and invalid ones), as an
anonymous visitor, a player and a staff member, under every check
schemathesis has: no server error, no response the schema does not
declare (status, headers, body, media type), invalid input refused and
valid input accepted.

Bounded so the suite stays quick: a few examples per operation, a fixed
seed, derandomized; the only server is the application in this process.
Path ids are either generated (mostly naming nothing) or, for half of
them, the real table, tournament, hand and player of a small world.
"""

from __future__ import annotations

from typing import Any

import hypothesis
import pytest
import schemathesis
from hypothesis import HealthCheck
from schemathesis.checks import CHECKS, load_all_checks
from werkzeug.test import Client as WsgiClient

from accounts import services as accounts
from tests.config.contract_support import (
    APP,
    SCHEMA_PATH,
    World,
    a_command_id,
    log_in,
    same_connection,
)
from tests.isolation import (  # noqa: F401 - autouse
    fast_password_hashing,
    fresh_caches,
    generous_throttles,
    in_memory_channel_layer,
    local_cache,
)
from tests.people import user_maker

pytestmark = [pytest.mark.django_db, pytest.mark.postgres]

ACCEPTED = ["2xx", "3xx", "401", "403", "404", "409", "429"]
"""Schemathesis's own list of answers to a valid request (less 5xx, which
``not_a_server_error`` refuses anyway)."""

CONFIG = schemathesis.Config.from_dict(
    {
        "seed": 13,
        "generation": {"mode": "all", "max-examples": 6, "deterministic": True},
        # 400 is also how a rule refuses a request of the right shape (wrong
        # credentials, a buy-in out of the table's bounds, an action out of
        # turn...): the schema says shapes, the services decide.
        "checks": {"positive_data_acceptance": {"expected-statuses": [*ACCEPTED, "400"]}},
        "suppress-health-check": ["too_slow", "filter_too_much", "data_too_large"],
    }
)

with same_connection():
    schema = schemathesis.openapi.from_wsgi(SCHEMA_PATH, APP, config=CONFIG)

load_all_checks()
ALL_CHECKS = CHECKS.get_all()


@pytest.fixture
def world(db: None, settings: Any) -> World:
    settings.TOURNAMENT_TABLES = False
    make = user_maker(10**9)
    player = make("player")
    make("other")
    boss = make("boss", staff=True, role="cashier")
    for role in ("tournament_director", "floor"):  # every staff operation open to him
        accounts.role_grant(user=boss, role=role)
    with same_connection():
        staff, theirs = log_in("boss"), log_in("other")
        viewers = {"anonymous": {}, "player": log_in("player"), "staff": staff}
        table = call(staff, "POST", "/api/tables/", TABLE)["table"]["id"]
        for headers, seat in ((viewers["player"], 1), (theirs, 2)):
            body = {"seat": seat, "buy_in": 100, "command_id": a_command_id()}
            view = call(headers, "POST", f"/api/tables/{table}/sit/", body)
        tournament = call(staff, "POST", "/api/tournaments/", TOURNAMENT)["id"]
    return World(table, tournament, view["hand"]["id"], player.pk, viewers)


TABLE = {
    "name": "Main",
    "game": "32-card-draw",
    "betting": "no-limit",
    "small_blind": 1,
    "big_blind": 2,
}
TOURNAMENT = {
    "name": "Sunday",
    "game": "32-card-draw",
    "betting": "pot-limit",
    "structure": {"preset": "standard"},
    "starting_stack": 1000,
    "buy_in": 10,
    "sit_and_go": True,
    "min_players": 3,
    "max_players": 6,
}


def call(headers: dict[str, str], method: str, path: str, body: Any = None) -> Any:
    response = WsgiClient(APP).open(path, method=method, json=body, headers=headers)
    assert response.status_code in (200, 201), (path, response.get_data()[:500])
    return response.json


@schema.parametrize()
@hypothesis.settings(
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=list(HealthCheck),
)
def test_every_operation_keeps_the_contract(case: Any, world: World) -> None:
    with same_connection():
        for headers in world.viewers.values():
            case.call_and_validate(headers=headers, checks=ALL_CHECKS)
