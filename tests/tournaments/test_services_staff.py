"""Staff controls through the service: who may use them (the tournament
director role or a superuser; never a player, a cashier or staff without
the role), moving a player, disqualifying
(at once, or when his hand ends), cancelling at any stage with everything
paid given back; a refused control changes nothing."""

from __future__ import annotations

from typing import Any

import pytest

from kernel.api_errors import ApiError
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
    written,
)
from tests.tournaments.support import structure
from tournaments import services, tables
from tournaments.models import Entrant
from tournaments.rules import Rebuys

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("pools_paid")]


def running(director: Any, users: list[Any], clock: Any, **changes: Any) -> Any:
    t = create(director, **changes)
    register(t, *users)
    return start(t, clock)


def test_directors_and_superusers_may_pause_players_and_cashiers_may_not(
    director, staff, players, clock, make_user
):
    ann, bob = players(2)
    t = running(director, [ann, bob], clock)
    before = written(t)
    cashier = make_user("cashier", cash=0, role="cashier")
    plain_staff = make_user("floor", cash=0, staff=True)
    assert cashier.is_staff  # a staff role makes him staff, and staff is not enough
    for nobody in (ann, cashier, plain_staff):
        error = refused(services.tournament_pause, by=nobody, tournament_id=t.pk)
        assert (error.status, error.code) == (403, "forbidden") and written(t) == before
        with pytest.raises(ApiError) as caught:
            create(nobody)
        assert caught.value.status == 403
    services.tournament_pause(by=director, tournament_id=t.pk)
    services.tournament_resume(by=staff, tournament_id=t.pk)
    with pytest.raises(ApiError) as caught:
        create(ann)
    assert caught.value.status == 403


def test_a_player_not_in_a_hand_is_moved_to_an_empty_seat(director, players, clock):
    ann, bob, cy = players(3)
    t = running(director, [ann, bob, cy], clock)
    seats = state(t).tables[1].seats
    free = next(n for n in range(1, 7) if n not in seats)
    services.tournament_move(by=director, tournament_id=t.pk, player=ann.pk, table=1, seat=free)
    assert Entrant.objects.get(tournament=t, player=ann).seat == free
    tables.tournament_hand_start(tournament_id=t.pk, table=1)
    other = next(n for n in range(1, 7) if n not in state(t).tables[1].seats)
    error = refused(
        services.tournament_move, by=director, tournament_id=t.pk, player=bob.pk, table=1,
        seat=other,
    )  # fmt: skip
    assert error.code == "illegal_action"


def test_disqualification_takes_the_chips_out_and_keeps_the_money(director, players, clock):
    ann, bob, cy = players(3)
    t = running(director, [ann, bob, cy], clock)
    services.tournament_disqualify(by=director, tournament_id=t.pk, player=cy.pk)
    out = Entrant.objects.get(tournament=t, player=cy)
    assert (out.status, out.stack, out.table) == ("disqualified", 0, None)
    assert fresh(t).players_left == 2 and pool(t) == 300 and cash(cy) == CASH - 110
    bust(t, ann, bob)
    assert Entrant.objects.get(tournament=t, player=cy).place is None
    assert cash(bob) == CASH - 110 + 300  # one place paid in a field of two


def test_disqualification_during_his_hand_waits_for_its_end(director, players, clock):
    ann, bob, cy = players(3)
    t = running(director, [ann, bob, cy], clock)
    tables.tournament_hand_start(tournament_id=t.pk, table=1)
    services.tournament_disqualify(by=director, tournament_id=t.pk, player=cy.pk)
    assert state(t).entrants[str(cy.pk)].disqualify_queued
    stacks = {p.player: p.stack for p in state(t).hands[1].players}
    tables.tournament_hand_finish(tournament_id=t.pk, table=1, stacks=stacks)
    assert state(t).entrants[str(cy.pk)].disqualified


def test_the_last_player_in_cannot_be_disqualified(director, players, clock):
    ann, bob = players(2)
    t = running(director, [ann, bob], clock)
    services.tournament_disqualify(by=director, tournament_id=t.pk, player=ann.pk)
    assert fresh(t).status == "finished"  # one player left: play is over


def test_cancelling_after_rebuys_gives_back_everything_paid(director, players, clock):
    ann, bob = players(2)
    rebuys = Rebuys(until_level=2, chips=1000, price=100, threshold=5000)
    t = running(director, [ann, bob], clock, rebuys=rebuys, structure=structure(4, 10))
    services.tournament_rebuy(by=ann, tournament_id=t.pk)
    services.tournament_rebuy(by=ann, tournament_id=t.pk)
    assert (cash(ann), pool(t), house()) == (CASH - 310, 400, 20)
    services.tournament_cancel(by=director, tournament_id=t.pk, reason="power cut")
    assert (cash(ann), cash(bob), pool(t), house()) == (CASH, CASH, 0, 0)
    assert fresh(t).status == "cancelled"


def test_a_finished_tournament_cannot_be_cancelled(director, players, clock):
    ann, bob = players(2)
    t = running(director, [ann, bob], clock)
    bust(t, ann, bob)
    before = written(t)
    error = refused(services.tournament_cancel, by=director, tournament_id=t.pk)
    assert (error.status, error.code) == (409, "tournament_over") and written(t) == before


def test_added_time_is_bounded(director, players, clock):
    t = running(director, players(2), clock)
    for seconds in (0, 3601):
        error = refused(
            services.tournament_add_time, by=director, tournament_id=t.pk, seconds=seconds
        )
        assert (error.status, error.code) == (400, "malformed")
