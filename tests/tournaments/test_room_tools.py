"""Room tools at tournaments: a tournament's own clocks run its tables
(validated like a table's, shown in its detail); a locked or self-excluded
player cannot register; a locked player at a tournament table is sat out
(blinded away: his chips stay in play, his entry stands)."""

from __future__ import annotations

from typing import Any

import pytest

from accounts import limits, locks
from poker.models import Seat, Table
from tests.tournaments.service_support import create, refused, register, state
from tests.tournaments.test_api_tournaments import body, post
from tournaments.models import Tournament
from tournaments.rules import Clocks, InvalidDefinition, Status
from tournaments.rules import queries as q
from tournaments.selectors import tournament_detail

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("pools_paid")]


@pytest.fixture
def playing(settings: Any) -> None:
    settings.TOURNAMENT_TABLES = True


@pytest.fixture
def floor(make_user: Any) -> Any:
    return make_user("flo", cash=0, role="floor")


def sit_and_go(director: Any, people: list[Any], **changes: Any) -> Tournament:
    t = create(director, sit_and_go=True, max_players=len(people), **changes)
    register(t, *people)
    assert state(t).status is Status.RUNNING
    return t


# --------------------------------------------------------------------------
# Clocks


def test_a_tournaments_tables_run_its_clocks(director, players, playing):
    clocks = Clocks(action_seconds=5, draw_seconds=7, time_bank_seconds=0, time_bank_refill_hands=3)
    t = sit_and_go(director, players(3), clocks=clocks)
    (table,) = Table.objects.filter(tournament=t.pk)
    assert (table.action_seconds, table.draw_seconds) == (5, 7)
    assert (table.time_bank_seconds, table.time_bank_refill_hands) == (0, 3)
    assert table.bet_seconds == 5  # the bet window kept within the shorter clock


def test_clocks_left_out_keep_the_table_defaults(director, players, playing):
    t = sit_and_go(director, players(3), clocks=Clocks(draw_seconds=45))
    (table,) = Table.objects.filter(tournament=t.pk)
    defaults = Table._meta
    assert table.draw_seconds == 45
    assert table.action_seconds == defaults.get_field("action_seconds").default
    assert table.time_bank_seconds == defaults.get_field("time_bank_seconds").default


@pytest.mark.parametrize(
    ("name", "value"),
    [("action_seconds", 0), ("action_seconds", 601), ("draw_seconds", 0),
     ("time_bank_seconds", -1), ("time_bank_seconds", 3601), ("time_bank_refill_hands", True)],
)  # fmt: skip
def test_a_clock_out_of_its_bounds_is_refused_naming_it(name, value):
    with pytest.raises(InvalidDefinition) as refusal:
        Clocks(**{name: value})
    assert refusal.value.field == name


def test_clocks_over_rest_are_kept_and_shown(client_for, director):
    clocks = {"action_seconds": 20, "time_bank_seconds": 60}
    response = post(client_for(director), body(clocks=clocks))
    assert response.status_code == 201, response.json()
    assert response.json()["table_clocks"] == {
        "action_seconds": 20,
        "draw_seconds": 30,
        "time_bank_seconds": 60,
        "time_bank_refill_hands": 10,
    }


def test_a_bad_clock_over_rest_names_its_field_and_creates_nothing(client_for, director):
    response = post(client_for(director), body(clocks={"action_seconds": 900}))
    assert response.status_code == 400
    assert "action_seconds" in response.json()["fields"]["clocks"], response.json()
    assert not Tournament.objects.exists()


# --------------------------------------------------------------------------
# Who may register


def test_a_locked_player_cannot_register_and_nothing_changes(director, players, floor):
    (ann,) = players(1)
    t = create(director)
    locks.account_lock(user=ann, reason="chargeback", by=floor)
    before = tournament_detail(Tournament.objects.get(pk=t.pk), None)
    error = refused(register, t, ann)
    assert (error.status, error.code) == (403, "account_locked")
    assert tournament_detail(Tournament.objects.get(pk=t.pk), None) == before


def test_a_self_excluded_player_cannot_register_and_nothing_changes(director, players):
    (ann,) = players(1)
    t = create(director)
    limits.self_exclusion_set(user=ann, days=3)
    error = refused(register, t, ann)
    assert (error.status, error.code) == (403, "self_excluded")
    assert state(t).entrants == {}


# --------------------------------------------------------------------------
# Locked while playing


def test_a_locked_player_is_sat_out_at_his_tournament_table(director, players, floor, playing):
    people = players(3)
    t = sit_and_go(director, people)
    total = sum(e.stack for e in q.alive(state(t)))
    ann = people[0]
    done = locks.account_lock(user=ann, reason="multi-accounting", by=floor)
    assert done.problems == [] and len(done.notes) == 1
    seat = Seat.objects.get(player=ann, table__tournament=t.pk)
    assert seat.sitting_out
    assert ann.pk in {int(e.player) for e in q.alive(state(t))}  # his entry stands
    assert sum(e.stack for e in q.alive(state(t))) == total
    again = locks.account_lock(user=ann, reason="again", by=floor)
    assert "left as it was" in again.notes[0]


def test_a_player_who_excludes_himself_may_play_out_his_tournament(director, players, playing):
    people = players(3)
    t = sit_and_go(director, people)
    ann = people[0]
    limits.self_exclusion_set(user=ann, days=1)
    seat = Seat.objects.get(player=ann, table__tournament=t.pk)
    assert not seat.sitting_out
