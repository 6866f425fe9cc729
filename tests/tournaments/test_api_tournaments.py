"""The tournament REST API, reading and creating: the lobby, a tournament
with its structure and prizes, entrants, standings and results; only
directors create; definitions the rules refuse name their field."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from poker.engine.rules import VARIANTS, Game
from tests.tournaments.service_support import bust, create, register, start
from tournaments.models import Tournament

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("pools_paid")]

BODY: dict[str, Any] = {
    "name": "Sunday 32",
    "game": "32-card-draw",
    "betting": "pot-limit",
    "structure": {
        "levels": [
            {"small_blind": 10, "big_blind": 20, "minutes": 15},
            {"small_blind": 20, "big_blind": 40, "minutes": 15},
            {"small_blind": 40, "big_blind": 80, "ante": 10, "minutes": 15},
        ],
        "breaks": [{"after_level": 2, "minutes": 5}],
    },
    "starting_stack": 3000,
    "buy_in": 100,
    "fee": 10,
    "max_players": 50,
    "late_registration_level": 2,
    "re_entries": 1,
    "rebuys": {"until_level": 2, "chips": 3000, "price": 100, "add_on_chips": 5000,
               "add_on_price": 100},
}  # fmt: skip


def body(**changes: Any) -> dict[str, Any]:
    starts = (timezone.now() + timedelta(hours=2)).isoformat()
    return {**BODY, "starts_at": starts, **changes}


def post(client: Any, data: dict[str, Any]) -> Any:
    return client.post("/api/tournaments/", data, format="json")


def test_a_director_creates_a_tournament_and_gets_its_detail(client_for, director):
    response = post(client_for(director), body())
    assert response.status_code == 201, response.json()
    detail = response.json()
    assert (detail["name"], detail["status"], detail["game"]) == (
        "Sunday 32", "registering", "32-card-draw",
    )  # fmt: skip
    assert detail["structure"]["levels"][2] == {
        "level": 3, "small_blind": 40, "big_blind": 80, "ante": 10, "minutes": 15,
    }  # fmt: skip
    assert detail["structure"]["breaks"] == [{"after_level": 2, "minutes": 5}]
    assert detail["rebuys"]["add_on_chips"] == 5000 and detail["registration_open"]
    assert detail["clock"] is None and detail["you"] is None


@pytest.mark.parametrize("game", list(Game), ids=lambda g: g.value)
def test_a_tournament_may_be_of_every_game(client_for, director, game):
    """The API takes every game the engine deals, the two added last (issue
    11, five-card-triple-draw and a-5-single-draw) among them; tables are
    as large as the game allows."""
    response = post(client_for(director), body(game=game.value, betting="fixed-limit"))
    assert response.status_code == 201, response.json()
    detail = response.json()
    assert (detail["game"], detail["betting"]) == (game.value, "fixed-limit")
    row = Tournament.objects.get(pk=detail["id"])
    assert (row.game, row.seats_per_table) == (game.value, VARIANTS[game].max_players)


def test_staff_create_from_a_preset_structure(client_for, staff):
    response = post(client_for(staff), body(structure={"preset": "standard", "minutes": 10}))
    assert response.status_code == 201, response.json()
    assert len(response.json()["structure"]["levels"]) == 21
    assert response.json()["structure"]["minute_seconds"] == 60


def test_a_structure_may_run_its_clock_faster(client_for, staff):
    """A simulation's clock: a minute of it lasts ``minute_seconds``."""
    preset = {"preset": "satellite", "minutes": 1, "minute_seconds": 3}
    response = post(client_for(staff), body(structure=preset))
    assert response.json()["structure"]["minute_seconds"] == 3
    levels = {**BODY["structure"], "minute_seconds": 61}
    response = post(client_for(staff), body(structure=levels))
    assert (response.status_code, response.json()["code"]) == (400, "invalid")
    assert "minute_seconds" in response.json()["fields"]["structure"]


def test_players_and_strangers_may_not_create(client_for, players):
    (ann,) = players(1)
    assert post(client_for(ann), body()).json()["code"] == "forbidden"
    assert post(client_for(ann), {}).status_code == 403  # refused before reading it
    assert post(client_for(None), body()).status_code == 401


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"starting_stack": 0}, "starting_stack"),
        ({"structure": {"levels": [{"small_blind": 10, "big_blind": 30}]}},
         "structure.levels[0].big_blind"),
        ({"late_registration_level": 9}, "late_registration_level"),
        ({"rebuys": {"until_level": 7, "chips": 1, "price": 1}}, "rebuys.until_level"),
        ({"satellite": {"target": 999999}}, "satellite.target"),
    ],
)  # fmt: skip
def test_a_definition_the_rules_refuse_names_its_field(client_for, director, change, field):
    response = post(client_for(director), body(**change))
    assert response.status_code == 400
    assert field in response.json()["fields"], response.json()


def test_a_scheduled_tournament_needs_a_start_to_come(client_for, director):
    past = (timezone.now() - timedelta(minutes=1)).isoformat()
    for data in (body(starts_at=None), body(starts_at=past), body(sit_and_go=True)):
        response = post(client_for(director), data)
        assert (response.status_code, response.json()["code"]) == (400, "invalid")


def test_a_satellite_is_created_into_a_target(client_for, director):
    target = post(client_for(director), body(buy_in=500, fee=50)).json()
    response = post(client_for(director), body(satellite={"target": target["id"], "seats": 3}))
    assert response.status_code == 201, response.json()
    assert response.json()["satellite"] == {
        "target": str(target["id"]), "target_buy_in": 550, "seats": 3, "consolation": [],
    }  # fmt: skip
    assert response.json()["satellite_target"] == str(target["id"])


def test_the_lobby_lists_tournaments_and_filters_by_status(client_for, director, players, clock):
    first, second = create(director, name="A"), create(director, name="B")
    register(first, *players(2))
    start(first, clock)
    lobby = client_for(None).get("/api/tournaments/").json()
    assert {t["name"]: t["status"] for t in lobby} == {"A": "running", "B": "registering"}
    line = next(t for t in lobby if t["name"] == "A")
    assert (line["entries"], line["players_left"], line["prize_pool"]) == (2, 2, 200)
    only = client_for(None).get("/api/tournaments/", {"status": "registering"}).json()
    assert [t["id"] for t in only] == [second.pk]
    nonsense = client_for(None).get("/api/tournaments/", {"status": "nonsense"})
    assert nonsense.status_code == 400  # the schema's enum: refused, not an empty lobby
    assert nonsense.json()["code"] == "invalid"


def test_the_detail_shows_the_clock_and_prizes_as_they_stand(client_for, director, players, clock):
    t = create(director)
    register(t, *players(3))
    start(t, clock)
    detail = client_for(None).get(f"/api/tournaments/{t.pk}/").json()
    assert detail["clock"]["level"] == 1 and detail["clock"]["small_blind"] == 10
    assert detail["clock"]["seconds_left"] == 600 and not detail["clock"]["paused"]
    assert detail["clock"]["next_level"]["big_blind"] == 40
    assert detail["prizes"] == [{"place": 1, "cash": 300, "ticket": False, "consolation": ""}]


def test_entrants_standings_and_results_are_public_and_show_no_money(
    client_for, director, players, clock
):
    ann, bob = players(2)
    t = create(director)
    register(t, ann, bob)
    start(t, clock)
    anyone = client_for(None)
    entrants = anyone.get(f"/api/tournaments/{t.pk}/entrants/").json()
    assert {e["player"] for e in entrants} == {ann.pk, bob.pk}
    assert all("paid" not in e and "cash" not in e for e in entrants)
    assert anyone.get(f"/api/tournaments/{t.pk}/results/").json() == []
    bust(t, ann, bob)
    standings = anyone.get(f"/api/tournaments/{t.pk}/standings/").json()
    assert [(s["player"], s["place"], s["stack"]) for s in standings] == [
        (bob.pk, 1, 2000), (ann.pk, 2, 0),
    ]  # fmt: skip
    results = anyone.get(f"/api/tournaments/{t.pk}/results/").json()
    assert [(r["player"], r["place"], r["prize"]) for r in results] == [
        (bob.pk, 1, 200), (ann.pk, 2, 0),
    ]  # fmt: skip


def test_a_viewer_sees_his_own_entry_only(client_for, director, players):
    ann, bob = players(2)
    t = create(director)
    register(t, ann)
    mine = client_for(ann).get(f"/api/tournaments/{t.pk}/").json()["you"]
    assert (mine["paid"], mine["entries"], mine["in"]) == (110, 1, True)
    assert client_for(bob).get(f"/api/tournaments/{t.pk}/").json()["you"] is None


def test_an_unknown_tournament_is_a_json_404(client_for):
    for path in ("/api/tournaments/999999/", "/api/tournaments/999999/standings/"):
        response = client_for(None).get(path)
        assert (response.status_code, response.json()["code"]) == (404, "not_found")


def test_the_schema_lists_the_tournament_endpoints(client_for):
    schema = client_for(None).get("/api/schema/", {"format": "json"}).json()
    paths = schema["paths"]
    assert "/api/tournaments/" in paths
    for name in ("register", "rebuy", "add-on", "pause", "move", "cancel", "standings"):
        assert f"/api/tournaments/{{tournament_id}}/{name}/" in paths
