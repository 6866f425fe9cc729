"""The multi-flight events' API: a director sets up an event of N flights
and its Day 2 (32 Card Draw here: its over blind plays in every flight);
anyone reads the event, a player sees which flights he may still enter and
his bags; bad input is a 400 naming the field, a player's try a 403, an
unknown event a 404, all JSON."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from tests.tournaments.test_api_tournaments import BODY

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("pools_paid")]


def event_body(n: int = 3, **changes: Any) -> dict[str, Any]:
    now = timezone.now()
    flights = [(now + timedelta(hours=k)).isoformat() for k in range(1, n + 1)]
    return {
        **BODY,
        "name": "Spring Main",
        "flights": flights,
        "day_two_starts_at": (now + timedelta(hours=n + 2)).isoformat(),
        "advance_percent": 15,
        **changes,
    }


def create(client: Any, data: dict[str, Any]) -> Any:
    return client.post("/api/flight-events/", data, format="json")


def test_a_director_sets_up_an_event_of_flights_and_a_day_two(client_for, director):
    response = create(client_for(director), event_body())
    assert response.status_code == 201, response.json()
    made = response.json()
    assert [f["label"] for f in made["flights"]] == ["Day 1A", "Day 1B", "Day 1C"]
    assert made["flights"][0]["name"] == "Spring Main Day 1A"
    assert all(f["status"] == "registering" and f["registration_open"] for f in made["flights"])
    assert made["day_two"]["status"] == "scheduled" and not made["day_two"]["ready"]
    assert (made["carry"], made["re_entry"], made["advance_percent"]) == ("best", True, 15)
    day_two = client_for(None).get(f"/api/tournaments/{made['day_two']['id']}/").json()
    assert day_two["registration_open"] is False and day_two["rebuys"] is None
    flight = client_for(None).get(f"/api/tournaments/{made['flights'][0]['id']}/").json()
    assert flight["game"] == "32-card-draw" and flight["rebuys"]["add_on_chips"] == 5000


def test_players_see_which_flights_they_may_enter_and_their_bags(client_for, director, players):
    (ann,) = players(1)
    made = create(client_for(director), event_body(2, carry="latest")).json()
    player = client_for(ann)
    register = player.post(
        f"/api/tournaments/{made['flights'][0]['id']}/register/", {}, format="json"
    )
    assert register.status_code == 200, register.json()
    seen = player.get(f"/api/flight-events/{made['id']}/").json()
    assert [f["may_enter"] for f in seen["flights"]] == [False, False]  # in 1A already
    assert seen["you"] == {"bags": [], "day_two_stack": None}
    second = player.post(
        f"/api/tournaments/{made['flights'][1]['id']}/register/", {}, format="json"
    )
    assert (second.status_code, second.json()["code"]) == (409, "flight_entry_refused")
    assert client_for(None).get(f"/api/flight-events/{made['id']}/").json()["you"] is None
    listed = client_for(None).get("/api/flight-events/").json()
    assert [e["id"] for e in listed] == [made["id"]] and listed[0]["flights"][0]["entries"] == 1


def test_bad_events_are_refused_with_the_field_named(client_for, director, players):
    (ann,) = players(1)
    api = client_for(director)
    for changes, field in (
        ({"flights": [timezone.now().isoformat()]}, "flights"),
        ({"advance_percent": 0}, "advance_percent"),
        ({"carry": "worst"}, "carry"),
        ({"day_two_starts_at": timezone.now().isoformat()}, "day_two_starts_at"),
    ):
        response = create(api, event_body(**changes))
        assert response.status_code == 400, (changes, response.json())
        assert field in response.json()["fields"], response.json()
    past = create(api, event_body(flights=[(timezone.now() - timedelta(hours=1)).isoformat()] * 2))
    assert (past.status_code, past.json()["code"]) == (400, "invalid")
    refused = create(client_for(ann), event_body())
    assert (refused.status_code, refused.json()["code"]) == (403, "forbidden")
    anonymous = create(client_for(None), event_body())
    assert anonymous.status_code in (401, 403) and "code" in anonymous.json()
    missing = client_for(None).get("/api/flight-events/999999/")
    assert (missing.status_code, missing.json()["code"]) == (404, "not_found")
    assert api.get("/api/flight-events/").json() == []


def test_the_schema_documents_the_flight_events(client_for):
    paths = client_for(None).get("/api/schema/", {"format": "json"}).json()["paths"]
    assert {"get", "post"} <= set(paths["/api/flight-events/"])
    assert "get" in paths["/api/flight-events/{event_id}/"]
