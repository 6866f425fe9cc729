"""Deals through the service and the API: a director proposes, every
player left answers in the client; a decline resumes play, the last
acceptance makes the deal and the prizes move on the ledger as agreed when
play ends; the event stream replays to the same deal."""

from __future__ import annotations

import pytest

from kernel.eventstore import load
from tests.tournaments.conftest import CASH
from tests.tournaments.service_support import (
    bust,
    cash,
    create,
    fresh,
    pool,
    register,
    start,
    state,
)
from tournaments.projections import decode
from tournaments.rules import replay
from tournaments.selectors import state_of

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("pools_paid")]


def _final_three(director, players, clock):
    people = players(4)
    t = create(director)
    register(t, *people)
    start(t, clock)
    bust(t, people[3], people[0])
    return t, people[:3]


def _post(client, t, what, data=None):
    return client.post(f"/api/tournaments/{t.pk}/{what}/", data or {}, format="json")


def test_an_icm_deal_is_offered_accepted_and_paid_as_agreed(director, players, clock, client_for):
    t, three = _final_three(director, players, clock)
    offered = _post(client_for(director), t, "deal-propose", {"kind": "icm"})
    assert offered.status_code == 200, offered.json()
    deal = offered.json()["deal"]
    assert deal["status"] == "offered" and fresh(t).clock_running is False
    amounts = {a["player"]: a["amount"] for a in deal["amounts"]}
    assert sum(amounts.values()) == pool(t) == 440 - 40  # the pool: 4 x 100
    for user in three[:2]:
        assert _post(client_for(user), t, "deal-accept").status_code == 200
    assert fresh(t).status == "running"
    last = _post(client_for(three[2]), t, "deal-accept").json()
    assert last["status"] == "finished" and last["deal"]["status"] == "made"
    for user in three:
        assert cash(user) == CASH - 110 + amounts[user.pk]
    assert pool(t) == 0
    assert replay(e for e in _events(t)) == state_of(fresh(t))


def test_a_decline_resumes_play(director, players, clock, client_for):
    t, three = _final_three(director, players, clock)
    _post(client_for(director), t, "deal-propose", {"kind": "chip_chop"})
    declined = _post(client_for(three[1]), t, "deal-decline")
    assert declined.status_code == 200 and declined.json()["deal"] is None
    assert fresh(t).clock_running is True


def test_bad_deals_are_4xx_and_change_nothing(director, players, clock, client_for):
    t, three = _final_three(director, players, clock)
    before = state(t).version
    player = client_for(three[0])
    assert _post(player, t, "deal-propose", {"kind": "icm"}).json()["code"] == "forbidden"
    response = _post(client_for(director), t, "deal-propose", {"kind": "split"})
    assert (response.status_code, response.json()["code"]) == (400, "invalid")
    custom = {"kind": "custom", "amounts": {str(three[0].pk): 400}}
    response = _post(client_for(director), t, "deal-propose", custom)
    assert (response.status_code, response.json()["code"]) == (400, "malformed")
    response = _post(player, t, "deal-accept")
    assert response.status_code == 409 and response.json()["code"] == "illegal_action"
    assert state(t).version == before


def _events(t):
    return [decode(row) for row in load(fresh(t).stream)]
