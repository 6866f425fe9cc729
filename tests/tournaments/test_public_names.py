"""Tournaments show players by their screen names, never their login names:
the detail, entrants, standings and results."""

from __future__ import annotations

import pytest

from accounts import services as accounts
from tests.tournaments.service_support import bust, create, register, start

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("pools_paid")]


def test_tournament_views_name_players_by_screen_name_only(client_for, director, players, clock):
    ann, bob = players(2)
    accounts.profile_update(user=ann, screen_name="Ann")
    accounts.profile_update(user=bob, screen_name="Bob")
    t = create(director)
    register(t, ann, bob)
    start(t, clock)
    anyone = client_for(None)
    entrants = anyone.get(f"/api/tournaments/{t.pk}/entrants/").json()
    assert {e["player"]: e["name"] for e in entrants} == {ann.pk: "Ann", bob.pk: "Bob"}
    bust(t, ann, bob)
    standings = anyone.get(f"/api/tournaments/{t.pk}/standings/").json()
    assert [s["name"] for s in standings] == ["Bob", "Ann"]
    results = anyone.get(f"/api/tournaments/{t.pk}/results/").json()
    assert [r["name"] for r in results] == ["Bob", "Ann"]
    for path in ("", "entrants/", "standings/", "results/"):
        body = anyone.get(f"/api/tournaments/{t.pk}/{path}").content.decode()
        assert ann.username not in body and bob.username not in body, path
