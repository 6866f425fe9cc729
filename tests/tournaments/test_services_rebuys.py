"""Rebuys and the add-on through the service (RULES.md 6): a rebuy while
the window is open and the stack is at or below the threshold, between
hands or in a hand one is not in; the add-on once, at the end of the
window; each paid into the pool; refusals move no money."""

from __future__ import annotations

from typing import Any

import pytest

from kernel.clocks import ClockEarly
from tests.tournaments.conftest import CASH
from tests.tournaments.service_support import (
    bust,
    cash,
    create,
    fresh,
    pool,
    refused,
    register,
    start,
    state,
    tick,
    written,
)
from tests.tournaments.support import structure
from tournaments import clocks, selectors, services, tables, timing
from tournaments.errors import ClockMoved
from tournaments.rules import Break, Rebuys

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("pools_paid")]


def rebuy_event(director: Any, **rebuys: Any) -> Any:
    """Rebuys through level 1 (1000 for 100), a break after it."""
    options = {"until_level": 1, "chips": 1000, "price": 100, **rebuys}
    return create(director, structure=structure(4, 10, (Break(1, 5),)), rebuys=Rebuys(**options))


def test_a_busted_player_who_may_rebuy_stays_in_and_rebuys(director, players, clock):
    ann, bob = players(2)
    t = rebuy_event(director)
    register(t, ann, bob)
    start(t, clock)
    bust(t, ann, bob)
    broke = state(t).entrants[str(ann.pk)]
    assert (broke.stack, broke.alive) == (0, True)
    services.tournament_rebuy(by=ann, tournament_id=t.pk)
    assert state(t).entrants[str(ann.pk)].stack == 1000
    assert cash(ann) == CASH - 210 and pool(t) == 300


def test_no_rebuy_above_the_threshold(director, players, clock):
    ann, bob = players(2)
    t = rebuy_event(director, threshold=500)
    register(t, ann, bob)
    start(t, clock)
    before = written(t)
    assert refused(services.tournament_rebuy, by=ann, tournament_id=t.pk).code == "rebuy_refused"
    assert written(t) == before and cash(ann) == CASH - 110


def test_no_rebuy_during_a_hand_one_is_in(director, players, clock):
    ann, bob = players(2)
    t = rebuy_event(director)
    register(t, ann, bob)
    start(t, clock)
    tables.tournament_hand_start(tournament_id=t.pk, table=1)
    assert refused(services.tournament_rebuy, by=ann, tournament_id=t.pk).code == "rebuy_refused"


def test_rebuys_stop_at_the_limit(director, players, clock):
    ann, bob = players(2)
    t = rebuy_event(director, max_rebuys=1)
    register(t, ann, bob)
    start(t, clock)
    services.tournament_rebuy(by=ann, tournament_id=t.pk)
    assert refused(services.tournament_rebuy, by=ann, tournament_id=t.pk).code == "rebuy_refused"


def test_a_player_who_declines_to_rebuy_is_out(director, players, clock):
    ann, bob, cy = players(3)
    t = rebuy_event(director)
    register(t, ann, bob, cy)
    start(t, clock)
    bust(t, ann, bob)
    services.tournament_decline_rebuy(by=ann, tournament_id=t.pk)
    assert state(t).entrants[str(ann.pk)].out


def test_the_window_closing_puts_out_those_who_did_not_rebuy(director, players, clock):
    ann, bob, cy = players(3)
    t = rebuy_event(director)
    register(t, ann, bob, cy)
    start(t, clock)
    bust(t, ann, bob)
    tick(t, clock)
    assert state(t).entrants[str(ann.pk)].out
    assert refused(services.tournament_rebuy, by=ann, tournament_id=t.pk).code == "not_registered"


def test_the_add_on_is_taken_once_in_the_break_after_the_window(director, players, clock):
    ann, bob = players(2)
    t = rebuy_event(director, add_on_chips=2000, add_on_price=50)
    register(t, ann, bob)
    start(t, clock)
    assert refused(services.tournament_add_on, by=ann, tournament_id=t.pk).code == "rebuy_refused"
    tick(t, clock)
    services.tournament_add_on(by=ann, tournament_id=t.pk)
    assert state(t).entrants[str(ann.pk)].stack == 3000
    assert cash(ann) == CASH - 160 and pool(t) == 250
    assert refused(services.tournament_add_on, by=ann, tournament_id=t.pk).code == "rebuy_refused"
    tick(t, clock)
    assert refused(services.tournament_add_on, by=bob, tournament_id=t.pk).code == "rebuy_refused"


def test_a_free_rebuy_moves_no_money(director, players, clock):
    ann, bob = players(2)
    t = rebuy_event(director, price=0)
    register(t, ann, bob)
    start(t, clock)
    services.tournament_rebuy(by=ann, tournament_id=t.pk)
    assert state(t).entrants[str(ann.pk)].stack == 2000
    assert cash(ann) == CASH - 110 and pool(t) == 200


def test_a_broke_players_rebuy_clock_puts_him_out_when_it_runs_out(director, players, clock):
    ann, bob = players(2)
    t = rebuy_event(director, decision_seconds=30)
    register(t, ann, bob)
    start(t, clock)
    bust(t, ann, bob)
    until = state(t).entrants[str(ann.pk)].rebuy_until
    assert until == int(clock.now.timestamp()) + 30
    detail = selectors.tournament_detail(fresh(t), ann)
    assert detail["you"]["rebuy_until"] == timing.moment(until).isoformat()
    clock.later(29)
    with pytest.raises(ClockEarly):
        clocks.rebuy_due(tournament_id=t.pk, player=str(ann.pk), until=until)
    clock.later(1)
    clocks.rebuy_due(tournament_id=t.pk, player=str(ann.pk), until=until)
    assert state(t).entrants[str(ann.pk)].out
    assert fresh(t).status == "finished"  # play ends without waiting for the window
    with pytest.raises(ClockMoved):  # the decision is made: a second run finds nothing
        clocks.rebuy_due(tournament_id=t.pk, player=str(ann.pk), until=until)


def test_a_rebuy_leaves_the_rebuy_timer_nothing_to_do(director, players, clock):
    ann, bob = players(2)
    t = rebuy_event(director)
    register(t, ann, bob)
    start(t, clock)
    bust(t, ann, bob)
    until = state(t).entrants[str(ann.pk)].rebuy_until
    assert until is not None
    services.tournament_rebuy(by=ann, tournament_id=t.pk)
    clock.later(3600)
    with pytest.raises(ClockMoved):
        clocks.rebuy_due(tournament_id=t.pk, player=str(ann.pk), until=until)
    assert state(t).entrants[str(ann.pk)].stack == 1000


def test_the_rebuy_timer_is_set_after_commit(
    director, players, clock, settings, monkeypatch, django_capture_on_commit_callbacks
):
    ann, bob = players(2)
    t = rebuy_event(director)
    register(t, ann, bob)
    start(t, clock)
    settings.CLOCKS_ENABLED = True
    set_timers: list[tuple[Any, ...]] = []
    monkeypatch.setattr(clocks, "set_rebuy_timer", lambda *a: set_timers.append(a))
    monkeypatch.setattr(clocks, "set_clock_timer", lambda *a: None)
    with django_capture_on_commit_callbacks(execute=True):
        bust(t, ann, bob)
    until = state(t).entrants[str(ann.pk)].rebuy_until
    assert set_timers == [(t.pk, str(ann.pk), until)]


def test_the_rebuy_clock_decides_once_in_the_drain(director, players, clock, settings):
    ann, bob, cy = players(3)
    t = rebuy_event(director)
    register(t, ann, bob, cy)
    start(t, clock)
    settings.CLOCKS_ENABLED = True
    bust(t, ann, bob)
    until = state(t).entrants[str(ann.pk)].rebuy_until
    assert until is not None
    clock.later(60)
    assert clocks.sweep() >= 1  # the drain, of the tournaments' clocks
    assert state(t).entrants[str(ann.pk)].out
    with pytest.raises(ClockMoved):
        clocks.rebuy_due(tournament_id=t.pk, player=str(ann.pk), until=until)
    bust(t, cy, bob)
    clock.later(120)
    clocks.sweep()
    assert state(t).entrants[str(cy.pk)].out and fresh(t).status == "finished"
