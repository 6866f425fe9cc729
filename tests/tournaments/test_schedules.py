"""Recurring tournaments: a schedule creates each occurrence's tournament
once, however often and by however many runs it is filled, through the
clocks' changes; a paused one creates nothing; its template is checked by
the tournament rules; its guarantee is held from the house and its
overlay shows in the reports; the lobby lists what is coming."""

from __future__ import annotations

import uuid
from datetime import UTC, date, datetime, time, timedelta
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from django.conf import settings
from django.db import IntegrityError, transaction

from accounts import money
from accounts import services as accounts
from accounts.models import Transfer
from reports.activity import tournaments_report
from reports.money import income_report
from reports.period import Period
from tests.tournaments.conftest import CASH
from tests.tournaments.service_support import bust, cash, create, house, pool, register, start
from tournaments import schedules, services, tasks
from tournaments.models import Occurrence, Schedule, Tournament

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("pools_paid")]

BERLIN = ZoneInfo("Europe/Berlin")
TEMPLATE: dict[str, Any] = {
    "game": "32-card-draw",
    "betting": "pot-limit",
    "structure": {"levels": [{"small_blind": 10, "big_blind": 20, "minutes": 15},
                             {"small_blind": 20, "big_blind": 40, "minutes": 15}]},
    "starting_stack": 3000,
    "buy_in": 100,
    "fee": 10,
    "max_players": 50,
}  # fmt: skip
"""A tournament create body without its name and start."""
LEVEL_REFUSED = {"small_blind": 10, "big_blind": 30}
"""A big blind the rules refuse (not twice the small one)."""


def body(**changes: Any) -> dict[str, Any]:
    return {
        "name": "Daily 32",
        "every": "daily",
        "time": "20:00",
        "time_zone": "Europe/Berlin",
        "horizon_days": 3,
        "template": TEMPLATE,
        **changes,
    }


def post(client: Any, data: dict[str, Any]) -> Any:
    return client.post("/api/schedules/", data, format="json")


def make(client_for: Any, director: Any, **changes: Any) -> Schedule:
    response = post(client_for(director), body(**changes))
    assert response.status_code == 201, response.json()
    return Schedule.objects.get(pk=response.json()["id"])


def days(row: Schedule) -> list[date]:
    return list(row.occurrences.order_by("day").values_list("day", flat=True))


def local_starts(row: Schedule) -> list[tuple[date, time]]:
    return [
        (o.day, o.tournament.starts_at.astimezone(BERLIN).time())
        for o in row.occurrences.select_related("tournament").order_by("day")
    ]


def fund_house(amount: int) -> None:
    money.house_fund(transfer_id=uuid.uuid4(), amount=amount)


def test_a_schedule_creates_its_horizon_at_once_and_each_day_as_it_comes(
    client_for, director, clock
):
    clock.at(datetime(2026, 6, 1, 12, tzinfo=UTC))
    row = make(client_for, director)
    assert days(row) == [date(2026, 6, 1), date(2026, 6, 2), date(2026, 6, 3)]
    assert {t for _, t in local_starts(row)} == {time(20, 0)}
    names = set(Tournament.objects.values_list("name", "status"))
    assert names == {("Daily 32", "registering")}
    clock.later(24 * 3600)
    assert schedules.schedules_fill(now=clock.now) == 1
    assert days(row)[-1] == date(2026, 6, 4)


@pytest.mark.parametrize(
    ("first", "change", "hours"),
    [
        (date(2026, 3, 25), 29, (19, 18)),  # Berlin's clocks go forward on March 29th
        (date(2026, 10, 21), 25, (18, 19)),  # and back on October 25th
    ],
)
def test_an_occurrence_is_created_once_across_repeated_runs_and_the_clocks_changing(
    client_for, director, clock, first, change, hours
):
    clock.at(datetime(first.year, first.month, first.day, 12, tzinfo=UTC))
    row = make(client_for, director, horizon_days=2)
    for _ in range(4 * 8):  # every 6 hours for 8 days, each run twice
        schedules.schedules_fill(now=clock.now)
        schedules.schedules_fill(now=clock.now)
        clock.later(6 * 3600)
    expected = [first + timedelta(days=n) for n in range(10)]
    assert days(row) == expected
    assert Tournament.objects.count() == len(expected) == row.occurrences.count()
    assert {t for _, t in local_starts(row)} == {time(20, 0)}
    utc = {o.day.day: o.tournament.starts_at.hour for o in row.occurrences.all()}
    assert (utc[change - 1], utc[change]) == hours


def test_a_retry_of_a_day_already_taken_creates_nothing(client_for, director, clock):
    clock.at(datetime(2026, 6, 1, 12, tzinfo=UTC))
    row = make(client_for, director, horizon_days=1)
    (day,) = days(row)
    start = datetime(2026, 6, 1, 18, tzinfo=UTC)
    before = (Tournament.objects.count(), Transfer.objects.count())
    assert schedules._occur(row.pk, day, start) == 0
    assert tasks.tournament_schedules.apply().get() == 0
    assert (Tournament.objects.count(), Transfer.objects.count()) == before


def test_the_occurrence_key_refuses_a_second_tournament_for_one_day(client_for, director, clock):
    clock.at(datetime(2026, 6, 1, 12, tzinfo=UTC))
    row = make(client_for, director, horizon_days=1)
    other = create(director, name="another")
    with pytest.raises(IntegrityError), transaction.atomic():
        Occurrence.objects.create(schedule=row, day=date(2026, 6, 1), tournament=other)
    services.tournament_cancel(by=director, tournament_id=other.pk)


def test_a_paused_schedule_creates_nothing_and_catches_up_when_resumed(client_for, director, clock):
    clock.at(datetime(2026, 6, 1, 12, tzinfo=UTC))
    row = make(client_for, director, horizon_days=1)
    client = client_for(director)
    paused = client.post(f"/api/schedules/{row.pk}/pause/")
    assert (paused.status_code, paused.json()["paused"]) == (200, True)
    clock.later(3 * 24 * 3600)
    assert schedules.schedules_fill(now=clock.now) == 0
    assert schedules.schedule_fill(row.pk, now=clock.now) == 0
    assert days(row) == [date(2026, 6, 1)]
    resumed = client.post(f"/api/schedules/{row.pk}/resume/")
    assert resumed.status_code == 200 and resumed.json()["paused"] is False
    assert days(row) == [date(2026, 6, 1), date(2026, 6, 4)]


def test_a_schedule_whose_director_lost_the_role_creates_nothing_and_says_why(
    client_for, director, clock
):
    clock.at(datetime(2026, 6, 1, 12, tzinfo=UTC))
    row = make(client_for, director, horizon_days=1)
    accounts.role_revoke(user=director, role="tournament_director")
    clock.later(2 * 24 * 3600)
    assert schedules.schedules_fill(now=clock.now) == 0
    row.refresh_from_db()
    assert days(row) == [date(2026, 6, 1)] and "no longer directs" in row.problem


def test_a_deleted_schedule_stops_and_its_tournaments_stay(client_for, director, clock):
    clock.at(datetime(2026, 6, 1, 12, tzinfo=UTC))
    row = make(client_for, director, horizon_days=2)
    response = client_for(director).delete(f"/api/schedules/{row.pk}/")
    assert response.status_code == 204
    clock.later(5 * 24 * 3600)
    assert schedules.schedules_fill(now=clock.now) == 0
    assert Tournament.objects.count() == 2 and not Schedule.objects.exists()
    missing = client_for(director).delete(f"/api/schedules/{row.pk}/")
    assert (missing.status_code, missing.json()["code"]) == (404, "not_found")


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"template": {**TEMPLATE, "starting_stack": 0}}, "template"),
        ({"template": {**TEMPLATE, "structure": {"levels": [LEVEL_REFUSED]}}},
         "template.structure.levels[0].big_blind"),
        ({"template": {**TEMPLATE, "late_registration_level": 9}},
         "template.late_registration_level"),
        ({"template": {**TEMPLATE, "satellite": {"target": 999999}}}, "template.satellite.target"),
        ({"template": {**TEMPLATE, "sit_and_go": True}}, "template.sit_and_go"),
        ({"time_zone": "Mars/Olympus"}, "time_zone"),
        ({"every": "weekly"}, "weekdays"),
        ({"weekdays": [8], "every": "weekly"}, "weekdays"),
        ({"time": "25:00"}, "time"),
        ({"horizon_days": 61}, "horizon_days"),
        ({"every": "hourly"}, "every"),
    ],
)  # fmt: skip
def test_a_template_or_timing_refused_names_its_field_and_creates_nothing(
    client_for, director, change, field
):
    response = post(client_for(director), body(**change))
    assert response.status_code == 400, response.json()
    assert field in response.json()["fields"], response.json()
    assert not Schedule.objects.exists() and not Tournament.objects.exists()


def test_only_directors_see_and_set_up_schedules(client_for, director, players):
    (ann,) = players(1)
    assert post(client_for(None), body()).status_code == 401
    assert post(client_for(ann), body()).status_code == 403
    assert client_for(ann).get("/api/schedules/").status_code == 403
    row = make(client_for, director)
    for path in (f"/api/schedules/{row.pk}/pause/", f"/api/schedules/{row.pk}/resume/"):
        assert client_for(ann).post(path).status_code == 403
    assert client_for(ann).delete(f"/api/schedules/{row.pk}/").status_code == 403
    listed = client_for(director).get("/api/schedules/").json()
    assert [s["id"] for s in listed] == [row.pk]
    assert len(listed[0]["tournaments"]) == 3 and listed[0]["problem"] is None


def test_the_room_time_zone_is_the_default(client_for, director, clock):
    data = body()
    del data["time_zone"]
    response = post(client_for(director), data)
    assert response.status_code == 201, response.json()
    assert response.json()["time_zone"] == settings.TIME_ZONE


def test_the_guarantee_is_held_for_each_occurrence_and_its_overlay_paid_and_reported(
    client_for, director, players, clock
):
    ann, bob = players(2)
    fund_house(3000)
    template = {**TEMPLATE, "guarantee": 1000}
    soon = (clock.now + timedelta(hours=2)).strftime("%H:%M")
    row = make(client_for, director, horizon_days=1, time_zone="UTC", time=soon, template=template)
    (t,) = [o.tournament for o in row.occurrences.all()]
    assert house() == 2000 and pool(t) == 1000
    register(t, ann, bob)
    start(t, clock)
    bust(t, ann, bob)
    assert cash(bob) == CASH - 110 + 1000  # a pool of 200 and 800 of overlay
    assert house() == 3000 - 800 + 20 and pool(t) == 0
    period = Period(clock.now.date() - timedelta(days=2), clock.now.date() + timedelta(days=2))
    line = next(r for r in tournaments_report(period=period) if r["tournament"] == t.pk)
    assert (line["prize_pool"], line["prizes"], line["overlay"], line["fees"]) == (
        200,
        1000,
        800,
        20,
    )
    overlays = [r for r in income_report(period=period) if r["source"] == "tournament_overlays"]
    assert [(r["subject_id"], r["amount"]) for r in overlays] == [(t.pk, -800)]
    kinds = Transfer.objects.filter(ref=f"tournament:{t.pk}", kind=Transfer.Kind.OVERLAY)
    assert kinds.count() == 2  # the guarantee held, and its unneeded 200 back


def test_a_guarantee_the_house_cannot_cover_waits_with_its_reason(client_for, director, clock):
    clock.at(datetime(2026, 6, 1, 12, tzinfo=UTC))
    row = make(client_for, director, horizon_days=2, template={**TEMPLATE, "guarantee": 500})
    assert days(row) == [] and row.problem.startswith("2026-06-01")
    fund_house(700)
    assert schedules.schedules_fill(now=clock.now) == 1
    row.refresh_from_db()
    assert days(row) == [date(2026, 6, 1)] and row.problem.startswith("2026-06-02")
    fund_house(500)
    assert schedules.schedules_fill(now=clock.now) == 1
    row.refresh_from_db()
    assert row.problem == "" and house() == 200


def test_the_lobby_lists_what_is_coming_soonest_first(client_for, director, clock):
    make(client_for, director, horizon_days=2, name="Nightly")
    coming = client_for(None).get("/api/tournaments/coming/")
    assert coming.status_code == 200
    lines = coming.json()
    assert [line["schedule"] for line in lines] == ["Nightly", "Nightly"]
    assert lines[0]["starts_at"] < lines[1]["starts_at"]
    assert {line["status"] for line in lines} == {"registering"}


def test_beat_runs_the_schedules_and_the_schema_lists_them(client_for):
    beat = settings.CELERY_BEAT_SCHEDULE["tournament-schedules"]
    assert beat["task"] == tasks.tournament_schedules.name
    paths = client_for(None).get("/api/schema/", {"format": "json"}).json()["paths"]
    for path in ("/api/schedules/", "/api/schedules/{schedule_id}/",
                 "/api/schedules/{schedule_id}/pause/", "/api/tournaments/coming/"):  # fmt: skip
        assert path in paths
