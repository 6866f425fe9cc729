"""Multi-flight events on the service: the flights are tournaments of their
own, each stopping at its mark; Day 2 takes each in with its pool moved on
the ledger (money conserved, the audit sound), goes through with one bag a
player (best or latest), waits for the last flight however its start
comes, and resumes where a process killed mid-carry left it."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest

from kernel.models import Event
from reports.activity import tournaments_report
from reports.period import Period
from tests.tournaments.conftest import CASH
from tests.tournaments.service_support import (
    HOUR,
    bust,
    cash,
    fresh,
    house,
    play_out,
    pool,
    refused,
    register,
    start,
    state,
    tick,
)
from tests.tournaments.support import definition
from tournaments import flights, payments, selectors, services
from tournaments.models import FlightEvent, Tournament
from tournaments.rules import FlightCarried, Status

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("pools_paid")]


def event(director: Any, clock: Any, n: int = 2, **options: Any) -> FlightEvent:
    """An event of ``n`` flights an hour apart (25%: a field of 6 stops at
    2), Day 2 after the last."""
    more = {k: options.pop(k) for k in list(options) if k in ("late_registration_level",)}
    options.setdefault("advance_percent", 25)
    return flights.flight_event_create(
        by=director, name="Main", definition=definition(**more),
        flights=[clock.now + HOUR * k for k in range(1, n + 1)],
        day_two_starts_at=clock.now + HOUR * (n + 1), **options,
    )  # fmt: skip


def parts(e: FlightEvent) -> tuple[list[Tournament], Tournament]:
    rows = list(Tournament.objects.filter(flight_event=e).order_by("flight"))
    return rows[1:], rows[0]


def bust_to_mark(t: Tournament, keep: list[Any]) -> None:
    """Bust everyone at ``t`` but ``keep`` (all at one table of 6), each
    to the first kept player."""
    s = state(t)
    by_id = {str(u.pk): u for u in keep}
    for player in sorted(s.entrants):
        if player not in by_id and state(t).entrants[player].alive:
            loser = type(keep[0]).objects.get(pk=int(player))
            bust(t, loser, keep[0])


def stop(t: Tournament, field: list[Any], keep: list[Any], clock: Any) -> Tournament:
    """Register ``field``, start, and play down to ``keep`` (the flight's
    mark): it stops, and is carried once its command commits."""
    register(t, *field)
    start(t, clock)
    bust_to_mark(t, keep)
    return fresh(t)


def test_each_flight_stops_at_its_mark_and_its_pool_goes_to_day_two(
    director, players, clock, django_capture_on_commit_callbacks
):
    field = players(6)
    e = event(director, clock)
    (one, _two), d2 = parts(e)
    assert fresh(d2).status == "scheduled" and fresh(one).status == "registering"
    with django_capture_on_commit_callbacks(execute=True):
        one = stop(one, field, field[:2], clock)
    assert one.status == "finished" and sorted(b.player for b in state(one).bags) == sorted(
        str(u.pk) for u in field[:2]
    )
    assert pool(one) == 0 and pool(d2) == 600  # moved whole, in the carry's command
    assert [u.pk for u in field if cash(u) != CASH - 110] == []  # no prizes in a flight
    assert state(d2).carried.keys() == {1} and fresh(d2).status == "scheduled"


def test_money_and_chips_are_conserved_through_the_whole_event(
    director, players, make_user, clock, django_capture_on_commit_callbacks
):
    first, second = players(6), [make_user(f"q{k}") for k in range(1, 7)]
    e = event(director, clock)
    (one, two), d2 = parts(e)
    fees = house()
    with django_capture_on_commit_callbacks(execute=True):
        stop(one, first, first[:2], clock)
        stop(two, second, second[:2], clock)
    s = state(d2)
    assert s.status is Status.REGISTERING and pool(d2) == 1200 == s.pool
    d2 = start(d2, clock)
    s = state(d2)
    assert s.tally.chips + sum(b.stack for b in s.forfeited) == 12 * 1000
    play_out(d2)
    assert fresh(d2).status == "finished" and pool(d2) == 0
    everyone = [*first, *second]
    assert sum(cash(u) for u in everyone) == 12 * CASH - 12 * 10  # the fees alone left
    assert house() - fees == 12 * 10


@pytest.mark.parametrize(("rule", "through"), [("best", 1), ("latest", 2)])
def test_a_player_in_two_flights_carries_his_best_or_latest_bag(
    rule, through, director, players, make_user, clock, django_capture_on_commit_callbacks
):
    first = players(6)
    ann = first[0]
    second = [ann, *(make_user(f"q{k}") for k in range(1, 6))]
    e = event(director, clock, carry=rule)
    (one, two), d2 = parts(e)
    with django_capture_on_commit_callbacks(execute=True):
        stop(one, first, [ann, first[1]], clock)  # ann bags 5000 in flight 1
        register(two, *second)
        start(two, clock)
        bust(two, second[1], second[2])
        bust_to_mark(two, [second[2], ann])  # ann bags 1000 in flight 2
    forfeited = {b.flight for b in state(d2).forfeited if b.player == str(ann.pk)}
    kept = state(d2).entrants[str(ann.pk)].stack
    assert kept == {1: 5000, 2: 1000}[through] and forfeited == {3 - through}
    detail = flights.flight_event_detail(e.pk, viewer=ann)
    assert detail["you"]["day_two_stack"] == kept
    assert [b["goes_through"] for b in detail["you"]["bags"]] == [through == 1, through == 2]


def test_without_re_entry_a_player_who_bagged_may_not_enter_another_flight(
    director, players, clock, django_capture_on_commit_callbacks
):
    field = players(7)
    e = event(director, clock, re_entry=False)
    (one, two), _ = parts(e)
    with django_capture_on_commit_callbacks(execute=True):
        stop(one, field[:6], field[:2], clock)
    error = refused(services.tournament_register, by=field[0], tournament_id=two.pk)
    assert (error.status, error.code) == (409, "flight_entry_refused")
    register(two, field[2], field[6])  # busted in flight 1, or never in it: welcome
    detail = flights.flight_event_detail(e.pk, viewer=field[0])
    assert [f["may_enter"] for f in detail["flights"]] == [False, False]


def test_a_player_still_in_one_flight_may_not_enter_another(director, players, clock):
    field = players(6)
    e = event(director, clock)
    (one, two), _ = parts(e)
    register(one, *field)
    start(one, clock)
    error = refused(services.tournament_register, by=field[0], tournament_id=two.pk)
    assert error.code == "flight_entry_refused"
    assert flights.flight_event_detail(e.pk, viewer=field[0])["flights"][1]["may_enter"] is False


def test_each_flights_late_registration_closes_on_its_own(director, players, clock):
    field = players(8)
    e = event(director, clock, late_registration_level=1)
    (one, two), _ = parts(e)
    register(one, *field[:4])
    start(one, clock)
    register(one, field[4])  # level 1: still open
    tick(one, clock)  # level 2: closed for flight 1
    assert refused(services.tournament_register, by=field[5], tournament_id=one.pk).code == (
        "registration_closed"
    )
    register(two, field[5])  # flight 2 takes entries still
    detail = flights.flight_event_detail(e.pk, viewer=field[6])
    assert [f["registration_open"] for f in detail["flights"]] == [False, True]


def test_day_two_waits_for_the_last_flight_then_starts_at_once(
    director, players, make_user, clock, django_capture_on_commit_callbacks
):
    first, second = players(6), [make_user(f"q{k}") for k in range(1, 7)]
    e = event(director, clock)
    (one, two), d2 = parts(e)
    with django_capture_on_commit_callbacks(execute=True):
        stop(one, first, first[:2], clock)
        register(two, *second)
        start(two, clock)
    clock.at(fresh(d2).starts_at + HOUR / 60)
    from tournaments import clocks

    error = refused(
        clocks.start_due, tournament_id=d2.pk, starts_at=int(fresh(d2).starts_at.timestamp())
    )
    assert error.code == "clock_moved" and fresh(d2).status == "scheduled"  # flight 2 plays
    with django_capture_on_commit_callbacks(execute=True):
        bust_to_mark(two, second[:2])
    row = fresh(d2)
    assert row.status == "running" and row.started_at == clock.now
    assert state(d2).tally.left == 4 and len(state(d2).tables) == 1


def test_day_two_ready_before_its_start_starts_on_time_at_the_level_reached(
    director, players, make_user, clock, django_capture_on_commit_callbacks
):
    first, second = players(6), [make_user(f"q{k}") for k in range(1, 7)]
    e = event(director, clock)
    (one, two), d2 = parts(e)
    with django_capture_on_commit_callbacks(execute=True):
        stop(one, first, first[:2], clock)
        register(two, *second)
        start(two, clock)
        tick(two, clock)  # flight 2 reaches level 2
        bust_to_mark(two, second[:2])
    assert fresh(d2).status == "registering"  # ready, waiting for its time
    assert selectors.tournament_detail(fresh(d2), None)["registration_open"] is False
    d2 = start(d2, clock)
    assert d2.status == "running" and d2.level == 2 and state(d2).resume_level == 2


def test_a_flight_called_off_is_carried_with_nothing(
    director, players, clock, django_capture_on_commit_callbacks
):
    field = players(6)
    e = event(director, clock)
    (one, two), d2 = parts(e)
    with django_capture_on_commit_callbacks(execute=True):
        register(one, field[0])
        services.tournament_cancel(by=director, tournament_id=one.pk)
        stop(two, field, field[:2], clock)
    assert state(d2).carried[1].pool == 0 and pool(d2) == 600
    assert fresh(d2).status == "registering"


def test_a_carry_killed_mid_way_leaves_nothing_and_the_sweep_finishes_it(
    director, players, clock, monkeypatch
):
    """The flight's stop commits; the carry dies inside its transaction (a
    process killed there): Day 2 and the ledger are as before it, and the
    sweep carries the flight exactly once from the events."""
    field = players(6)
    e = event(director, clock)
    (one, _two), d2 = parts(e)

    def killed(**kwargs: Any) -> None:
        raise KeyboardInterrupt("killed mid-carry")

    with monkeypatch.context() as patched:
        patched.setattr(payments.money, "tournament_pool_carry", killed)
        stop(one, field, field[:2], clock)
        with pytest.raises(KeyboardInterrupt):
            flights.flight_carry(flight_id=one.pk)
    assert state(d2).carried == {} and pool(one) == 600 and pool(d2) == 0
    assert flights.flights_sweep() == 1
    assert flights.flights_sweep() == 0 and flights.flight_carry(flight_id=one.pk) is None
    kinds = list(Event.objects.filter(stream=fresh(d2).stream).values_list("type", flat=True))
    assert kinds.count("tournament.flight_carried") == 1
    assert pool(one) == 0 and pool(d2) == 600
    assert isinstance(state(d2).carried[1], FlightCarried) and state(d2).carried[1].bags


def test_day_two_takes_no_entries_and_is_not_called_off_once_it_holds_a_pool(
    director, players, clock, django_capture_on_commit_callbacks
):
    field = players(6)
    e = event(director, clock)
    (one, _), d2 = parts(e)
    assert refused(services.tournament_register, by=field[0], tournament_id=d2.pk).code == (
        "registration_closed"
    )
    with django_capture_on_commit_callbacks(execute=True):
        stop(one, field, field[:2], clock)
    error = refused(services.tournament_cancel, by=director, tournament_id=d2.pk)
    assert error.code == "illegal_action" and pool(d2) == 600


def test_only_directors_set_up_events_and_bad_times_are_refused(director, players, clock):
    (ann,) = players(1)
    assert refused(event, ann, clock).status == 403
    error = refused(
        flights.flight_event_create, by=director, name="X", definition=definition(),
        flights=[clock.now + HOUR, clock.now + 2 * HOUR], day_two_starts_at=clock.now + HOUR,
        advance_percent=10,
    )  # fmt: skip
    assert error.status == 400 and "day_two_starts_at" in error.extra["fields"]
    error = refused(event, director, clock, carry="best", re_entry=True, advance_percent=0)
    assert error.status == 400
    assert FlightEvent.objects.count() == 0 and Tournament.objects.count() == 0


def test_the_tournaments_report_shows_the_flights_and_day_two_with_the_pool_carried(
    director, players, make_user, clock, django_capture_on_commit_callbacks
):
    first, second = players(6), [make_user(f"q{k}") for k in range(1, 7)]
    e = event(director, clock)
    (one, two), d2 = parts(e)
    with django_capture_on_commit_callbacks(execute=True):
        stop(one, first, first[:2], clock)
        stop(two, second, second[:2], clock)
    start(d2, clock)
    play_out(d2)
    today = clock.now.date()
    rows = tournaments_report(period=Period(today - timedelta(days=1), today + timedelta(days=1)))
    shown = {r["tournament"]: r for r in rows}
    assert [shown[t.pk]["day"] for t in (one, two, d2)] == ["Day 1A", "Day 1B", "Day 2"]
    assert {shown[t.pk]["event"] for t in (one, two, d2)} == {"Main"}
    assert [shown[t.pk]["carried"] for t in (one, two, d2)] == [-600, -600, 1200]
    assert [shown[t.pk]["prize_pool"] for t in (one, two, d2)] == [600, 600, 0]
    assert [shown[t.pk]["prizes"] for t in (one, two, d2)] == [0, 0, 1200]
    assert [shown[t.pk]["fees"] for t in (one, two, d2)] == [60, 60, 0]
