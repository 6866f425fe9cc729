"""Step satellites through the service: step 1 awards tickets into step 2,
good for any of its tournaments; step 2 seats into the target event and
gives a consolation ticket back into step 2; a step ticket pays an entry
whole and comes back on an unregistration; a step tournament called off
cashes out no step ticket; once the chain expires its tickets are played
no more and the director cashes them out.  Money and tickets conserved:
every step's reserve holds exactly its outstanding tickets' value."""

from __future__ import annotations

from datetime import timedelta
from io import StringIO
from typing import Any

import pytest
from django.core.management import call_command
from django.utils import timezone

from accounts import ledger
from accounts.models import Account
from accounts.selectors import account_balance
from reports.activity import tickets_report
from reports.period import Period
from tests.tournaments.conftest import CASH
from tests.tournaments.service_support import (
    HOUR,
    cash,
    create,
    fresh,
    play_out,
    projected_rows,
    refused,
    register,
    start,
    tickets,
)
from tests.tournaments.support import definition
from tests.tournaments.test_api_tournaments import body, post
from tournaments import payments, services, steps, timing
from tournaments.models import Entrant, StepChain, Tournament
from tournaments.rules.payouts import PayoutTable, PayoutTier

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("pools_paid")]

STEPS = [{"price": 110}, {"price": 330, "consolation": [2, 1]}]


def _chain(director: Any, target: Tournament) -> StepChain:
    return steps.step_chain_create(
        by=director, name="Steps", target=target.pk,
        expires_at=timing.now() + timedelta(days=1), steps=STEPS,
    )  # fmt: skip


def _step(director: Any, chain: StepChain, step: int, buy_in: int, fee: int) -> Tournament:
    made, row = steps.step_definition(definition(buy_in=buy_in, fee=fee), chain=chain.pk, step=step)
    return services.tournament_create(
        by=director, name=f"Step {step}", definition=made,
        starts_at=timing.now() + HOUR, step_chain=row, step=step,
    )  # fmt: skip


def _held(user: Any, chain: StepChain, step: int) -> int:
    return payments.tickets_held(user.pk, f"step-{chain.pk}-{step}")


def _backed(chain: StepChain, director: Any) -> None:
    """Each step's reserve holds its outstanding tickets at the step's
    price, and its holders hold them all."""
    for step in steps.chain_detail(chain.pk, by=director)["steps"]:
        reserve = account_balance(ledger.ticket_reserve(step["ticket"]))
        assert reserve == step["tickets_outstanding"] * step["price"], step
        held = Account.objects.filter(kind=Account.Kind.TICKET, ref=step["ticket"])
        assert sum(a.balance for a in held) == step["tickets_outstanding"], step


def _played(t: Tournament, clock: Any, seed: int = 1) -> dict[int, Entrant]:
    start(t, clock)
    play_out(t, seed)
    assert fresh(t).status == Tournament.Status.FINISHED
    return {e.place: e for e in Entrant.objects.filter(tournament=t) if e.place}


def _today() -> Period:
    today = timezone.now().date()
    return Period(today - timedelta(days=1), today + timedelta(days=1))


def _cash_won(places: dict[int, Entrant]) -> int:
    return sum(e.prize for e in Entrant.objects.filter(tournament_id=places[1].tournament_id))


def _won_in_step_one(director: Any, chain: StepChain, clock: Any, field: list[Any]) -> Any:
    """Step 1 played by ``field`` (four: one seat into step 2, 110 cash):
    the player who won the step-2 ticket."""
    one = _step(director, chain, 1, 100, 10)
    register(one, *field)
    winner = _played(one, clock)[1].player
    assert _held(winner, chain, 2) == 1
    return winner


def test_a_chain_from_step_one_to_the_target(director, players, clock):
    field = players(10)
    target = create(director, name="Main", buy_in=1000, fee=100)
    chain = _chain(director, target)

    one = _step(director, chain, 1, 100, 10)
    register(one, *field[:7])  # 770: 700 pooled, two seats into step 2 (330), 40 in cash
    places = _played(one, clock)
    winners = [places[1].player, places[2].player]
    assert [_held(w, chain, 2) for w in winners] == [1, 1] and _cash_won(places) == 40
    _backed(chain, director)

    two = _step(director, chain, 2, 300, 30)
    register(two, *winners)  # with their step-2 tickets
    register(two, *field[7:])  # three more in cash: 1500 pooled
    assert [_held(w, chain, 2) for w in winners] == [0, 0]
    assert [cash(w) for w in winners] == [CASH - 110, CASH - 110]
    places = _played(two, clock, seed=2)
    # one seat (1100), then a step-2 ticket (330) back into the same step, 70 cash
    assert tickets(places[1].player, target) == 1
    assert places[2].consolation == f"step-{chain.pk}-2" and _held(places[2].player, chain, 2) == 1
    assert _cash_won(places) == 70  # to the places below (those tied share it)
    detail = steps.chain_detail(chain.pk, by=director)
    assert [s["tickets_outstanding"] for s in detail["steps"]] == [0, 1]
    assert detail["target"]["tickets_outstanding"] == 1
    assert [t["id"] for t in detail["steps"][1]["tournaments"]] == [two.pk]
    _backed(chain, director)

    rows = {r["ticket"]: r for r in tickets_report(period=_today())}
    moved = ("awarded", "spent", "returned", "cashed_out", "outstanding", "backing")
    assert [rows[f"step-{chain.pk}-2"][k] for k in moved] == [3, 2, 0, 0, 1, 330]
    assert [rows[str(target.pk)][k] for k in moved] == [1, 0, 0, 0, 1, 1100]
    assert rows[f"step-{chain.pk}-2"]["enters"] == "Steps, step 2"
    before = projected_rows()
    call_command("rebuild_tournament_projections", stdout=StringIO())
    assert projected_rows() == before  # the consolation column comes back from the events

    (mine,) = steps.tickets_of(places[2].player)
    assert (mine["value"], mine["step"], mine["expires_at"]) == (330, 2, chain.expires_at)
    (seat,) = steps.tickets_of(places[1].player)
    assert (seat["value"], seat["tournament"]) == (1100, target.pk)


def test_a_step_ticket_comes_back_and_outlives_a_cancelled_step(director, players, clock):
    ann, bob, *rest = players(5)
    chain = _chain(director, create(director, name="Main", buy_in=1000, fee=100))
    winner = _won_in_step_one(director, chain, clock, [ann, *rest])
    before = cash(winner)
    two = _step(director, chain, 2, 300, 30)
    register(two, winner)
    assert _held(winner, chain, 2) == 0
    services.tournament_unregister(by=winner, tournament_id=two.pk)
    assert _held(winner, chain, 2) == 1 and cash(winner) == before
    register(two, winner, bob)
    services.tournament_cancel(by=director, tournament_id=two.pk)
    assert _held(winner, chain, 2) == 1 and cash(winner) == before  # the ticket, not its money
    assert cash(bob) == CASH
    _backed(chain, director)


def test_an_expired_chain_takes_cash_only_and_its_tickets_are_cashed_out(director, players, clock):
    field = players(4)
    chain = _chain(director, create(director, name="Main", buy_in=1000, fee=100))
    winner = _won_in_step_one(director, chain, clock, field)
    before = cash(winner)
    two = _step(director, chain, 2, 300, 30)
    assert refused(steps.step_chain_close, chain.pk, by=director).code == "step_chain_open"
    clock.at(chain.expires_at)
    error = refused(services.tournament_register, by=winner, tournament_id=two.pk, ticket=True)
    assert (error.status, error.code) == (409, "ticket_expired")
    register(two, winner)  # in cash
    assert _held(winner, chain, 2) == 1 and cash(winner) == before - 330
    error = refused(steps.step_definition, definition(), chain=chain.pk, step=1)
    assert (error.code, list(error.extra["fields"])) == ("invalid", ["step.chain"])
    assert refused(steps.step_chain_close, chain.pk, by=director).code == "step_chain_open"
    services.tournament_cancel(by=director, tournament_id=two.pk)
    detail = steps.step_chain_close(chain.pk, by=director)
    assert detail["closed"] and [s["tickets_outstanding"] for s in detail["steps"]] == [0, 0]
    assert _held(winner, chain, 2) == 0 and cash(winner) == before + 330
    assert steps.step_chain_close(chain.pk, by=director)["closed"]  # again: nothing moves
    assert cash(winner) == before + 330
    _backed(chain, director)


def test_a_step_is_played_at_its_price_and_only_by_a_director(director, players):
    (ann,) = players(1)
    chain = _chain(director, create(director, name="Main", buy_in=1000, fee=100))
    error = refused(steps.step_definition, definition(buy_in=200), chain=chain.pk, step=1)
    assert (error.code, list(error.extra["fields"])) == ("invalid", ["buy_in"])
    error = refused(steps.step_definition, definition(), chain=chain.pk, step=3)
    assert list(error.extra["fields"]) == ["step.step"]
    table = PayoutTable((PayoutTier(2, (10_000,)),))
    error = refused(steps.step_definition, definition(payouts=table), chain=chain.pk, step=1)
    assert list(error.extra["fields"]) == ["payouts"]
    assert refused(steps.chain_detail, chain.pk, by=ann).status == 403
    error = refused(
        steps.step_chain_create, by=director, name="Bad", target=chain.target_id,
        expires_at=timing.now() + HOUR, steps=[{"price": 110, "consolation": [2]}],
    )  # fmt: skip
    assert (error.code, list(error.extra["fields"])) == (
        "invalid_definition",
        ["steps[1].consolation"],
    )


def test_the_api_sets_up_a_chain_its_steps_and_shows_the_tickets(client_for, director, players):
    (ann,) = players(1)
    api = client_for(director)
    target = post(api, body(name="Main")).json()
    expires = (timezone.now() + timedelta(days=1)).isoformat()
    chain = {"name": "Steps", "target": target["id"], "expires_at": expires, "steps": STEPS}
    response = api.post("/api/step-chains/", chain, format="json")
    assert response.status_code == 201, response.json()
    made = response.json()
    assert [s["price"] for s in made["steps"]] == [110, 330]
    assert made["target"]["price"] == target["buy_in"] + target["fee"]
    bad = api.post("/api/step-chains/", {**chain, "steps": []}, format="json")
    assert (bad.status_code, bad.json()["code"]) == (400, "invalid")
    step = {"chain": made["id"], "step": 1}
    response = post(api, body(name="Step 1", step=step, rebuys=None))
    assert response.status_code == 201, response.json()
    assert response.json()["satellite"]["target"] == f"step-{made['id']}-2"
    both = post(api, body(step=step, satellite={"target": target["id"]}, rebuys=None))
    assert (both.status_code, both.json()["code"]) == (400, "invalid")
    shown = api.get(f"/api/step-chains/{made['id']}/").json()
    assert [t["name"] for t in shown["steps"][0]["tournaments"]] == ["Step 1"]
    player = client_for(ann)
    denied = player.get(f"/api/step-chains/{made['id']}/")
    assert (denied.status_code, denied.json()["code"]) == (403, "forbidden")
    assert player.get("/api/tickets/").json() == []
    closing = api.post(f"/api/step-chains/{made['id']}/close/", format="json")
    assert (closing.status_code, closing.json()["code"]) == (409, "step_chain_open")
