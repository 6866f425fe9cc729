"""Guarantees through the service: the house's guarantee goes into the pool
at the creation (refused whole when the house cannot cover it), the
overlay is paid out with the prizes and the rest goes back to the house;
the tournaments report's overlay line is what the house put in."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from accounts.models import Transfer
from reports.activity import tournaments_report
from reports.period import Period
from tests.tournaments.conftest import CASH
from tests.tournaments.service_support import (
    bust,
    cash,
    create,
    fresh,
    house,
    pool,
    refused,
    register,
    start,
)
from tests.tournaments.support import definition
from tests.tournaments.test_api_tournaments import body, post
from tournaments import services
from tournaments.models import Tournament

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("pools_paid")]


def _house_takes(director, users, amount):
    """The house earns ``amount`` in fees (a tournament's registrations)."""
    fees = create(director, name="fees", buy_in=0, fee=amount // len(users))
    register(fees, *users)


def test_the_house_pays_the_overlay_and_takes_back_the_rest(director, players, clock):
    ann, bob, cy, dan = players(4)
    _house_takes(director, [cy, dan], 2000)
    t = create(director, guarantee=1000)
    assert house() == 1000 and pool(t) == 1000
    register(t, ann, bob)
    assert fresh(t).prize_pool == 1000
    start(t, clock)
    bust(t, ann, bob)
    assert cash(bob) == CASH - 110 + 1000  # the pool was 200: 800 of overlay
    assert house() == 2000 - 800 + 20 and pool(t) == 0
    row = next(r for r in _report() if r["tournament"] == t.pk)
    assert (row["prize_pool"], row["prizes"], row["overlay"], row["fees"]) == (200, 1000, 800, 20)


def test_a_guarantee_the_house_cannot_cover_is_refused_whole(director):
    before = (Tournament.objects.count(), Transfer.objects.count())
    error = refused(
        services.tournament_create, by=director, name="G",
        definition=definition(guarantee=10**6),
        starts_at=timezone.now() + timedelta(hours=1),
    )  # fmt: skip
    assert (error.status, error.code) == (409, "insufficient_funds")
    assert (Tournament.objects.count(), Transfer.objects.count()) == before


def test_a_cancellation_gives_the_house_its_guarantee_back(director, players):
    ann, cy, dan = players(3)
    _house_takes(director, [cy, dan], 600)
    t = create(director, guarantee=500)
    register(t, ann)
    services.tournament_cancel(by=director, tournament_id=t.pk)
    assert house() == 600 and pool(t) == 0 and cash(ann) == CASH


def test_the_api_takes_a_guarantee_and_refuses_a_negative_one(client_for, director, players):
    cy, dan = players(2)
    _house_takes(director, [cy, dan], 1000)
    response = post(client_for(director), body(guarantee=700))
    assert response.status_code == 201, response.json()
    assert (response.json()["guarantee"], response.json()["prize_pool"]) == (700, 700)
    response = post(client_for(director), body(guarantee=-5))
    assert (response.status_code, response.json()["code"]) == (400, "invalid")
    assert "guarantee" in response.json()["fields"]


def _report() -> list[dict]:
    today = timezone.now().date()
    return tournaments_report(period=Period(today - timedelta(days=1), today + timedelta(days=1)))
