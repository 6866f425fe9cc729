"""Registration through the service: entries paid from the wallet (buy-in
to the pool, fee to the house), refunds, late registration and re-entry,
sit-and-go starts, tickets, retries; refusals write nothing."""

from __future__ import annotations

import uuid

import pytest

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
    state,
    tick,
    written,
)
from tournaments import services
from tournaments.models import Entrant

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("pools_paid")]


def test_creation_opens_registration_and_schedules_the_start(director):
    t = create(director, name="Sunday")
    assert (t.name, t.status, t.version) == ("Sunday", "registering", 2)
    assert t.starts_at is not None and t.entries == 0


def test_an_entry_pays_the_buy_in_to_the_pool_and_the_fee_to_the_house(director, players):
    (ann,) = players(1)
    t = create(director)
    answer = register(t, ann)
    assert cash(ann) == CASH - 110
    assert (pool(t), house()) == (100, 10)
    assert answer["you"]["paid"] == 110 and answer["entries"] == 1
    assert Entrant.objects.get(tournament=t, player=ann).status == "in"


def test_a_player_who_cannot_pay_is_refused_and_nothing_is_written(director, make_user):
    poor = make_user("poor", cash=109)
    t = create(director)
    before = written(t)
    error = refused(register, t, poor)
    assert (error.status, error.code) == (409, "insufficient_funds")
    assert written(t) == before and cash(poor) == 109


def test_a_second_entry_while_in_is_refused(director, players):
    (ann,) = players(1)
    t = create(director)
    register(t, ann)
    before = written(t)
    error = refused(register, t, ann)
    assert (error.status, error.code) == (409, "already_registered")
    assert written(t) == before and cash(ann) == CASH - 110


def test_unregistering_before_the_start_refunds_buy_in_and_fee(director, players):
    ann, bob = players(2)
    t = create(director)
    register(t, ann, bob)
    services.tournament_unregister(by=ann, tournament_id=t.pk)
    assert cash(ann) == CASH and (pool(t), house()) == (100, 10)
    assert list(Entrant.objects.filter(tournament=t).values_list("player", flat=True)) == [bob.pk]


def test_unregistering_without_an_entry_is_refused(director, players):
    (ann,) = players(1)
    t = create(director)
    error = refused(services.tournament_unregister, by=ann, tournament_id=t.pk)
    assert (error.status, error.code) == (409, "not_registered")


def test_nobody_unregisters_once_play_has_started(director, players, clock):
    ann, bob = players(2)
    t = create(director)
    register(t, ann, bob)
    start(t, clock)
    before = written(t)
    error = refused(services.tournament_unregister, by=ann, tournament_id=t.pk)
    assert (error.status, error.code) == (409, "illegal_action")
    assert written(t) == before


def test_a_full_tournament_takes_no_more_entries(director, players):
    ann, bob, cy = players(3)
    t = create(director, max_players=2)
    register(t, ann, bob)
    error = refused(register, t, cy)
    assert (error.status, error.code) == (409, "tournament_full") and cash(cy) == CASH


def test_a_sit_and_go_starts_with_the_entry_that_fills_it(director, players):
    ann, bob, cy = players(3)
    t = create(director, sit_and_go=True, max_players=3)
    assert t.starts_at is None
    register(t, ann, bob)
    assert fresh(t).status == "registering"
    register(t, cy)
    row = fresh(t)
    assert (row.status, row.tables, row.players_left) == ("running", 1, 3)
    assert row.level_ends_at is not None
    assert all(e.table == 1 and e.seat for e in Entrant.objects.filter(tournament=t))
    assert pool(t) == 300


def test_late_registration_seats_a_newcomer_and_closes_after_its_level(director, players, clock):
    ann, bob, cy, dee = players(4)
    t = create(director, late_registration_level=1)
    register(t, ann, bob)
    start(t, clock)
    register(t, cy)
    late = state(t).entrants[str(cy.pk)]
    assert late.table == 1 and late.stack == 1000 and cash(cy) == CASH - 110
    tick(t, clock)
    error = refused(register, t, dee)
    assert (error.status, error.code) == (409, "registration_closed")


def test_a_busted_player_re_enters_and_pays_again(director, players, clock):
    ann, bob = players(2)
    t = create(director, late_registration_level=2, re_entries=1)
    register(t, ann, bob)
    start(t, clock)
    bust(t, ann, bob)
    assert state(t).entrants[str(ann.pk)].out
    register(t, ann)
    again = state(t).entrants[str(ann.pk)]
    assert (again.entries, again.stack, again.out) == (2, 1000, False)
    assert cash(ann) == CASH - 220 and pool(t) == 300
    bust(t, ann, bob)
    error = refused(register, t, ann)
    assert error.code == "already_registered"  # no re-entry left


def test_a_retried_registration_is_answered_and_charged_once(director, players, make_user):
    (ann,) = players(1)
    t = create(director)
    command = uuid.uuid4()
    first = register(t, ann, command_id=command)
    again = register(t, ann, command_id=command)
    assert again["you"] == first["you"] and again["version"] == first["version"]
    assert cash(ann) == CASH - 110 and fresh(t).entries == 1
    error = refused(register, t, make_user("eve"), command_id=command)
    assert (error.status, error.code) == (409, "command_id_taken")


def test_logging_in_is_needed_to_register(director):
    t = create(director)
    error = refused(services.tournament_register, by=None, tournament_id=t.pk)
    assert (error.status, error.code) == (401, "not_authenticated")


def test_an_unknown_tournament_is_not_found(players):
    (ann,) = players(1)
    error = refused(services.tournament_register, by=ann, tournament_id=999_999)
    assert (error.status, error.code) == (404, "not_found")
