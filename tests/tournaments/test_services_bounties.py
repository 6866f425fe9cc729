"""Bounties through the service: a head is paid on the ledger at the bust,
in the command that reports the hand; the pool account holds the prize
pool and the heads not yet won; money is conserved to the end; the API
takes a bounty and names a bad one's field; standings show the heads."""

from __future__ import annotations

import pytest

from accounts.models import Transfer
from tests.tournaments.conftest import CASH
from tests.tournaments.service_support import (
    bust,
    cash,
    create,
    fresh,
    house,
    play_out,
    pool,
    refused,
    register,
    start,
    state,
)
from tests.tournaments.test_api_tournaments import body, post
from tournaments import services
from tournaments.models import Entrant
from tournaments.rules import Bounty
from tournaments.selectors import standings

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("pools_paid")]


def test_a_knockout_pays_the_head_on_the_ledger_at_the_bust(director, players, clock):
    ann, bob, cat = players(3)
    t = create(director, bounty=Bounty(50))
    register(t, ann, bob, cat)
    assert cash(ann) == CASH - 160 and pool(t) == 3 * 150 and house() == 30
    start(t, clock)
    bust(t, ann, bob)
    assert cash(bob) == CASH - 160 + 50  # paid now, before the end
    assert pool(t) == 300 + 2 * 50
    bounty = Transfer.objects.filter(kind=Transfer.Kind.PRIZE, ref=f"tournament:{t.pk}")
    assert [tr.pk for tr in bounty] != []
    row = Entrant.objects.get(tournament=t, player=bob)
    assert (row.bounty, row.bounty_won) == (50, 50)
    shown = {s["player"]: (s["bounty"], s["bounty_won"]) for s in standings(state(t))}
    assert shown[ann.pk] == (0, 0) and shown[bob.pk] == (50, 50)


def test_a_pko_plays_out_with_every_unit_accounted_for(director, players, clock):
    field = players(9)
    t = create(director, bounty=Bounty(40, progressive=True, paid_now_percent=50))
    register(t, *field)
    start(t, clock)
    play_out(t, seed=3)
    assert fresh(t).status == "finished"
    assert pool(t) == 0
    assert sum(cash(u) for u in field) + house() == 9 * CASH
    won = sum(Entrant.objects.filter(tournament=t).values_list("bounty_won", flat=True))
    assert won == 9 * 40


def test_no_cancellation_once_a_head_is_paid(director, players, clock):
    ann, bob, cat = players(3)
    t = create(director, bounty=Bounty(50))
    register(t, ann, bob, cat)
    start(t, clock)
    bust(t, ann, bob)
    error = refused(services.tournament_cancel, by=director, tournament_id=t.pk)
    assert error.code == "illegal_action"
    assert fresh(t).status == "running" and cash(bob) == CASH - 160 + 50


def test_the_api_takes_a_bounty_and_shows_it(client_for, director):
    data = body(bounty={"amount": 25, "progressive": True, "paid_now_percent": 40})
    response = post(client_for(director), data)
    assert response.status_code == 201, response.json()
    assert response.json()["bounty"] == {"amount": 25, "progressive": True, "paid_now_percent": 40}


@pytest.mark.parametrize(
    ("bounty", "code", "field"),
    [({"amount": 0}, "invalid", "bounty"),
     ({"amount": 5, "paid_now_percent": 101}, "invalid_definition", "bounty.paid_now_percent"),
     ({"amount": 5, "progressive": "yes"}, "invalid", "bounty")],
)  # fmt: skip
def test_a_bad_bounty_is_a_400_naming_its_field(client_for, director, bounty, code, field):
    response = post(client_for(director), body(bounty=bounty))
    assert response.status_code == 400
    assert response.json()["code"] == code
    assert any(k.startswith(field) for k in response.json()["fields"]), response.json()
