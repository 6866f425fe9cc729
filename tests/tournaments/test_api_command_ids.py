"""A command id names one command across the service: a tournament
command's id sent to a table, or a table command's to a tournament, or
one tournament command's id for another, is refused with 409
``command_id_reused`` (not a 500, not a 200 that did nothing)."""

from __future__ import annotations

import uuid
from typing import Any

import pytest

from poker import services as table_services
from tests.tournaments.conftest import CASH
from tests.tournaments.service_support import cash, create, fresh

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("pools_paid")]


def command(client: Any, t: Any, name: str, **data: Any) -> Any:
    return client.post(f"/api/tournaments/{t.pk}/{name}/", data, format="json")


def reused(response: Any) -> None:
    assert response.status_code == 409, (response.status_code, response.content[:300])
    assert response.json()["code"] == "command_id_reused"


@pytest.fixture
def cash_table(make_user: Any) -> int:
    staff = make_user("floor", staff=True)
    table = table_services.table_create(
        by=staff, name="Cash", game="32-card-draw", betting="no-limit", small_blind=1, big_blind=2
    )
    return int(table.pk)


def test_a_tournament_command_id_sent_to_a_table_is_409(client_for, director, players, cash_table):
    (ann,) = players(1)
    t = create(director)
    cid = str(uuid.uuid4())
    assert command(client_for(ann), t, "register", command_id=cid).status_code == 200
    body = {"seat": 1, "buy_in": 100, "command_id": cid}
    reused(client_for(ann).post(f"/api/tables/{cash_table}/sit/", body, format="json"))
    assert client_for(None).get(f"/api/tables/{cash_table}/").json()["seats"] == []


def test_a_table_command_id_sent_to_a_tournament_is_409(client_for, director, players, cash_table):
    (ann,) = players(1)
    t = create(director)
    cid = str(uuid.uuid4())
    body = {"seat": 1, "buy_in": 100, "command_id": cid}
    assert (
        client_for(ann).post(f"/api/tables/{cash_table}/sit/", body, format="json").status_code
        == 200
    )
    reused(command(client_for(ann), t, "register", command_id=cid))
    assert fresh(t).entries == 0


def test_another_tournament_command_under_one_id_is_409(client_for, director, players):
    (ann,) = players(1)
    t = create(director)
    cid = str(uuid.uuid4())
    command(client_for(ann), t, "register", command_id=cid)
    reused(command(client_for(ann), t, "unregister", command_id=cid))
    assert cash(ann) == CASH - 110 and fresh(t).entries == 1


def test_the_same_tournament_command_again_gets_an_answer(client_for, director, players):
    (ann,) = players(1)
    t = create(director)
    cid = str(uuid.uuid4())
    command(client_for(ann), t, "register", command_id=cid)
    assert command(client_for(ann), t, "register", command_id=cid).status_code == 200
    assert cash(ann) == CASH - 110 and fresh(t).entries == 1
