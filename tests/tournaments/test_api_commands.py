"""Tournament commands over REST: register, unregister, rebuy, add-on and
the staff controls; each refusal's status and code; players may not use
staff controls; nobody reaches another player's wallet through these."""

from __future__ import annotations

import uuid
from typing import Any

import pytest

from tests.config.contract_support import served_schema
from tests.tournaments.conftest import CASH
from tests.tournaments.service_support import (
    cash,
    create,
    fresh,
    pool,
    register,
    start,
    state,
    tick,
    written,
)
from tests.tournaments.support import structure
from tournaments.rules import Break, Rebuys

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("pools_paid")]

STAFF_CONTROLS: dict[str, dict[str, Any]] = {
    "pause": {},
    "resume": {},
    "add-time": {"seconds": 60},
    "move": {"player": 1, "table": 1, "seat": 1},
    "disqualify": {"player": 1},
    "cancel": {"reason": "no"},
}


def command(client: Any, t: Any, name: str, **data: Any) -> Any:
    return client.post(f"/api/tournaments/{t.pk}/{name}/", data, format="json")


def test_a_player_registers_and_unregisters(client_for, director, players):
    (ann,) = players(1)
    t = create(director)
    response = command(client_for(ann), t, "register")
    assert response.status_code == 200 and response.json()["you"]["paid"] == 110
    assert cash(ann) == CASH - 110
    response = command(client_for(ann), t, "unregister")
    assert response.status_code == 200 and response.json()["you"] is None
    assert cash(ann) == CASH


def test_the_buy_in_in_his_history_names_the_tournament(client_for, director, players):
    (ann,) = players(1)
    t = create(director)
    command(client_for(ann), t, "register")
    (buy_in, *_) = client_for(ann).get("/api/me/ledger/").json()["results"]
    assert buy_in["ref"] == f"tournament:{t.pk}"
    assert buy_in["subject"] == {"kind": "tournament", "id": t.pk, "name": t.name}


def test_refusals_keep_their_codes_and_statuses(client_for, director, players, make_user):
    ann, _ = players(2)
    t = create(director)
    client = client_for(ann)
    assert command(client, t, "unregister").json()["code"] == "not_registered"
    command(client, t, "register")
    again = command(client, t, "register")
    assert (again.status_code, again.json()["code"]) == (409, "already_registered")
    poor = command(client_for(make_user("poor", cash=5)), t, "register")
    assert (poor.status_code, poor.json()["code"]) == (409, "insufficient_funds")
    early = command(client, t, "rebuy")
    assert (early.status_code, early.json()["code"]) == (409, "illegal_action")


def test_bad_input_is_invalid_and_changes_nothing(client_for, director, players):
    (ann,) = players(1)
    t = create(director)
    before = written(t)
    for data in ({"ticket": "maybe"}, {"command_id": "not-a-uuid"}):
        response = command(client_for(ann), t, "register", **data)
        assert (response.status_code, response.json()["code"]) == (400, "invalid")
    assert written(t) == before


def test_a_command_id_makes_a_retry_safe(client_for, director, players):
    (ann,) = players(1)
    t = create(director)
    command_id = str(uuid.uuid4())
    first = command(client_for(ann), t, "register", command_id=command_id)
    second = command(client_for(ann), t, "register", command_id=command_id)
    assert first.status_code == second.status_code == 200
    assert cash(ann) == CASH - 110 and fresh(t).entries == 1


def test_commands_need_a_login(client_for, director):
    t = create(director)
    for name in ("register", "unregister", "rebuy", "add-on", *STAFF_CONTROLS):
        response = command(client_for(None), t, name)
        assert response.status_code == 401, name


@pytest.mark.parametrize("name", sorted(STAFF_CONTROLS))
def test_players_may_not_use_staff_controls(client_for, director, players, clock, name):
    ann, bob = players(2)
    t = create(director)
    register(t, ann, bob)
    start(t, clock)
    before = written(t)
    data = {**STAFF_CONTROLS[name], "player": bob.pk}
    response = command(client_for(ann), t, name, **data)
    assert (response.status_code, response.json()["code"]) == (403, "forbidden")
    assert written(t) == before


def rebuy_tournament(director: Any) -> Any:
    """Rebuys (1000 chips for 100) through level 1, add-on (2000 for 100)
    in the break after it."""
    return create(
        director,
        structure=structure(4, 10, (Break(1, 5),)),
        rebuys=Rebuys(until_level=1, chips=1000, price=100, add_on_chips=2000, add_on_price=100),
    )


def test_a_rebuy_and_the_add_on_are_paid_into_the_pool(client_for, director, players, clock):
    ann, bob = players(2)
    t = rebuy_tournament(director)
    register(t, ann, bob)
    start(t, clock)
    response = command(client_for(ann), t, "rebuy")
    assert response.status_code == 200 and response.json()["you"]["stack"] == 2000
    assert cash(ann) == CASH - 210 and pool(t) == 300
    early = command(client_for(ann), t, "add-on")
    assert (early.status_code, early.json()["code"]) == (409, "rebuy_refused")
    tick(t, clock)
    assert fresh(t).on_break
    response = command(client_for(bob), t, "add-on")
    assert response.status_code == 200 and response.json()["you"]["added_on"]
    assert cash(bob) == CASH - 210 and pool(t) == 400
    late = command(client_for(ann), t, "rebuy")
    assert (late.status_code, late.json()["code"]) == (409, "rebuy_refused")


def test_a_director_runs_the_staff_controls(client_for, director, players, clock):
    ann, bob, cy = players(3)
    t = create(director)
    register(t, ann, bob, cy)
    start(t, clock)
    staff = client_for(director)
    assert command(staff, t, "pause").json()["clock"]["paused"] is True
    assert command(staff, t, "resume").json()["clock"]["paused"] is False
    left = command(staff, t, "add-time", seconds=120).json()["clock"]["seconds_left"]
    assert left == 720
    free = next(n for n in range(1, 7) if n not in state(t).tables[1].seats)
    moved = command(staff, t, "move", player=ann.pk, table=1, seat=free)
    assert moved.status_code == 200 and state(t).entrants[str(ann.pk)].seat == free
    taken = command(staff, t, "move", player=bob.pk, table=1, seat=free)
    assert (taken.status_code, taken.json()["code"]) == (409, "seat_taken")
    assert command(staff, t, "disqualify", player=cy.pk).status_code == 200
    assert state(t).entrants[str(cy.pk)].disqualified
    cancelled = command(staff, t, "cancel", reason="fire alarm")
    assert cancelled.json()["status"] == "cancelled"
    assert cash(ann) == cash(bob) == cash(cy) == CASH and pool(t) == 0


def test_added_time_is_taken_up_to_its_declared_bound_and_invalid_past_it(
    client_for, director, players, clock
):
    t = create(director)
    register(t, *players(3))
    start(t, clock)
    staff = client_for(director)
    most = served_schema()["components"]["schemas"]["AddTimeIn"]["properties"]["seconds"]
    assert command(staff, t, "add-time", seconds=most["maximum"]).status_code == 200
    past = command(staff, t, "add-time", seconds=most["maximum"] + 1)
    assert (past.status_code, past.json()["code"], list(past.json()["fields"])) == (
        400,
        "invalid",
        ["seconds"],
    )
