"""Prizes and tickets, paid through the ledger in the command that ends
play: the pool is paid out whole; a satellite awards tickets into its
target plus the rest in cash, and a winner already in the target gets the
seat's value in cash; tickets pay entries and come back on refunds."""

from __future__ import annotations

import pytest

from accounts import ledger
from accounts.selectors import account_balance
from kernel.api_errors import ApiError
from tests.tournaments.conftest import CASH
from tests.tournaments.service_support import (
    bust,
    cash,
    create,
    fresh,
    house,
    play_out,
    pool,
    register,
    start,
    state,
    tickets,
)
from tournaments import services
from tournaments.models import Entrant
from tournaments.rules import Satellite
from tournaments.selectors import results

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("pools_paid")]


def won(t, user) -> tuple[int | None, int, bool]:
    e = Entrant.objects.get(tournament=t, player=user)
    return e.place, e.prize, e.ticket


def test_the_winner_is_paid_the_pool_when_play_ends(director, players, clock):
    ann, bob = players(2)
    t = create(director)
    register(t, ann, bob)
    start(t, clock)
    bust(t, ann, bob)
    row = fresh(t)
    assert (row.status, row.players_left) == ("finished", 1)
    assert won(t, bob) == (1, 200, False) and won(t, ann) == (2, 0, False)
    assert cash(bob) == CASH - 110 + 200 and cash(ann) == CASH - 110
    assert (pool(t), house()) == (0, 20)


def test_a_whole_tournament_pays_out_its_pool_by_the_payout_table(director, players, clock):
    field = players(9)
    t = create(director)
    register(t, *field)
    start(t, clock)
    play_out(t, seed=7)
    paid = results(fresh(t))
    assert [r["place"] for r in paid] == sorted(r["place"] for r in paid)
    assert sum(r["prize"] for r in paid) == 900 and pool(t) == 0
    assert paid[0]["prize"] == 450  # 50/30/20 of 900 (tied places share theirs)
    assert sum(cash(p) for p in field) == 9 * CASH - 90


def satellite_of(director, players, clock, seats=None):
    """A satellite (5 x 100 + 10) into a target of 200 + 20, played out."""
    target = create(director, name="Main", buy_in=200, fee=20)
    sat = create(director, name="Sat", satellite=Satellite(str(target.pk), 220, seats))
    field = players(5)
    return target, sat, field


def played_satellite(director, players, clock):
    """``satellite_of``, its field registered and played to the end."""
    target, sat, field = satellite_of(director, players, clock)
    register(sat, *field)
    start(sat, clock)
    play_out(sat, seed=3)
    return target, sat, field


def test_a_satellite_awards_seats_into_its_target_and_the_rest_in_cash(director, players, clock):
    target, sat, field = played_satellite(director, players, clock)
    row = fresh(sat)
    assert row.status == "finished"
    winners = [p for p in field if won(sat, p)[2]]
    assert len(winners) == 2 and all(tickets(p, target) == 1 for p in winners)
    assert [won(sat, p)[1] for p in field if won(sat, p)[0] == 3] == [60]  # 500 - 2 x 220
    assert pool(sat) == 0


def test_a_ticket_pays_an_entry_into_the_target_and_comes_back_when_withdrawn(
    director, players, clock
):
    target, _sat, field = played_satellite(director, players, clock)
    winner = next(p for p in field if tickets(p, target))
    before = cash(winner)
    register(target, winner)
    assert (tickets(winner, target), cash(winner)) == (0, before)
    assert pool(target) == 200
    services.tournament_unregister(by=winner, tournament_id=target.pk)
    assert (tickets(winner, target), cash(winner), pool(target)) == (1, before, 0)


def test_a_winner_already_in_the_target_gets_the_seat_in_cash(director, players, clock):
    target, sat, field = satellite_of(director, players, clock, seats=1)
    register(sat, *field)
    register(target, *field)  # everybody is in the main event already
    start(sat, clock)
    play_out(sat, seed=3)
    first = next(p for p in field if won(sat, p)[0] == 1)
    assert won(sat, first) == (1, 220, False) and tickets(first, target) == 0
    assert pool(sat) == 0


def test_registering_with_a_ticket_one_does_not_hold_is_refused(director, players):
    (ann,) = players(1)
    t = create(director)
    with pytest.raises(ApiError) as refused:
        register(t, ann, ticket=True)
    assert (refused.value.status, refused.value.code) == (409, "no_ticket")
    assert cash(ann) == CASH and fresh(t).entries == 0


def test_a_ticket_holder_may_pay_cash_instead(director, players, clock):
    target, _sat, field = played_satellite(director, players, clock)
    winner = next(p for p in field if tickets(p, target))
    before = cash(winner)
    register(target, winner, ticket=False)
    assert (tickets(winner, target), cash(winner)) == (1, before - 220)


def test_cancelling_cashes_out_every_ticket_and_refunds_the_rest(director, players, staff, clock):
    """A ticket into a tournament that will never run is worth its entry
    price in cash: one that paid an entry comes back and is cashed out, one
    still held too; a cash entry is refunded in cash."""
    target, _sat, field = played_satellite(director, players, clock)
    entered, holder = [p for p in field if tickets(p, target)]
    other = next(p for p in field if not tickets(p, target))
    before = {p.pk: cash(p) for p in (entered, holder, other)}
    register(target, entered, other)
    services.tournament_cancel(by=staff, tournament_id=target.pk, reason="storm")
    price = 220  # the target's buy-in and fee, what each ticket stands for
    assert [tickets(p, target) for p in (entered, holder)] == [0, 0]
    assert cash(entered) == before[entered.pk] + price
    assert cash(holder) == before[holder.pk] + price
    assert cash(other) == before[other.pk]
    assert pool(target) == 0 and state(target).status.value == "cancelled"
    assert account_balance(ledger.ticket_reserve(target.pk)) == 0
    assert account_balance(ledger.tickets_issued(target.pk)) == 0


def test_a_satellite_needs_a_target_taking_entries_at_its_price(director, players):
    target = create(director, buy_in=200, fee=20)
    for satellite, field in (
        (Satellite("999999", 220), "satellite.target"),
        (Satellite(str(target.pk), 200), "satellite.target_buy_in"),
    ):
        with pytest.raises(ApiError) as refused:
            create(director, satellite=satellite)
        assert refused.value.code == "invalid" and field in refused.value.extra["fields"]
