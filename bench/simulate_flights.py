"""A whole multi-flight event played by bots (``python -m
bench.simulate --flights N``): N starting flights, each a field of
the plan's players, played side by side through the same services and
clocks as one tournament (``simulation``) until each stops at its mark;
then Day 2, which takes them in and starts by itself once the last has
stopped, is played to the end.

The flights start together, a lead after the event is set up long enough
for every bot to register (each flight has one level of late
registration besides, for a slow machine); a bot who busts a flight
before its late registration closes may enter a later flight.
"""

from __future__ import annotations

import random
import time
import uuid
from dataclasses import replace
from datetime import timedelta
from typing import Any

from bench.simulation import (
    Plan,
    Report,
    Say,
    _act_at_share,
    _bots,
    _decide,
    _director,
    _state,
    play,
)
from kernel.api_errors import ApiError
from tournaments import flights, services, timing
from tournaments.models import Tournament
from tournaments.rules import Status, TournamentState, flight_label
from tournaments.rules import queries as q

ADVANCE_PERCENT = 20
"""A simulated flight plays down to a fifth of its field."""
LEAD_SECONDS = 5.0
SECONDS_A_REGISTRATION = 0.25
"""What the lead allows each bot's registration (a slow, shared machine)."""


def simulate_flights(plan: Plan, say: Say = print) -> Report:
    """Set up the event, its bots and their money; play every flight to its
    stop, then Day 2 to the end.  The report is Day 2's."""
    assert plan.flights is not None
    rng = random.Random(plan.seed)
    run = uuid.uuid4().hex[:8]
    director = _director(run)
    field = plan.players * plan.flights
    definition = replace(
        plan.definition(None), sit_and_go=False, min_players=2,
        max_players=2 * max(2, plan.players), late_registration_level=1,
    )  # fmt: skip
    lead = timedelta(seconds=LEAD_SECONDS + SECONDS_A_REGISTRATION * field)
    starts = timing.now() + lead
    event = flights.flight_event_create(
        by=director, name=f"Flights {run}", definition=definition,
        flights=[starts] * plan.flights, day_two_starts_at=starts + timedelta(seconds=1),
        advance_percent=ADVANCE_PERCENT,
    )  # fmt: skip
    rows = list(Tournament.objects.filter(flight_event=event).order_by("flight"))
    day_two, legs = rows[0], rows[1:]
    bots = _bots(run, field, plan.wallet * 2)  # enough for a second flight
    say(f"{plan.flights} flights of {plan.players} bots ({plan.game.value}), Day 2 {day_two.pk}")
    reports = []
    for k, leg in enumerate(legs):
        mine = dict(list(bots.items())[k * plan.players : (k + 1) * plan.players])
        for bot in mine.values():
            _enter(bot, leg)
        reports.append(Report(leg, None, dict(bots), director=director))
        say(f"{flight_label(leg.flight or 0)}: tournament {leg.pk}, {len(mine)} registered")
    _play_flights(reports, bots, rng, plan, say)
    flights.flights_sweep()  # as beat would, for a carry a process left undone
    report = Report(Tournament.objects.get(pk=day_two.pk), None, bots, director=director)
    _wait_for_day_two(day_two.pk, plan.time_limit)
    say(event_line(flights.flight_event_detail(event.pk)))
    report.started = time.perf_counter()
    play(report, rng, plan.time_limit, say, plan.bot_threads, plan.progress_seconds)
    return report


def _enter(bot: Any, leg: Tournament) -> bool:
    try:
        services.tournament_register(by=bot, tournament_id=leg.pk)
    except ApiError:
        return False  # registration closed, or the bot is in another flight
    return True


def _play_flights(
    reports: list[Report], bots: dict[str, Any], rng: random.Random, plan: Plan, say: Say
) -> None:
    """Bots act at every flight's tables until each has stopped; a busted
    bot re-enters a later flight still taking entries (half of them)."""
    began = time.perf_counter()
    said = 0.0
    idle: dict[int, tuple[int, int | None]] = {}
    retried: set[str] = set()
    offered: dict[int, set[str]] = {r.tournament.pk: set() for r in reports}
    while True:
        states = [_state(r.tournament.pk) for r in reports]
        if all(s.status in (Status.FINISHED, Status.CANCELLED) for s in states):
            break
        if time.perf_counter() - began > plan.time_limit:
            raise TimeoutError(f"flights still playing after {plan.time_limit:.0f} s")
        if time.perf_counter() - said >= plan.progress_seconds:
            said = time.perf_counter()
            for report, state in zip(reports, states, strict=True):
                if state.status is Status.RUNNING:
                    say(f"{_label(report)} {report.line(state)}")
        busy = 0
        for report, state in zip(reports, states, strict=True):
            if state.status is Status.RUNNING:
                busy += _decide(report, state, rng, offered[report.tournament.pk])
                busy += _act_at_share(report, 0, 1, rng, idle)
        busy += _re_enter(reports, states, bots, retried, rng)
        if not busy:
            time.sleep(0.02)
    for report, state in zip(reports, states, strict=True):
        say(f"{_label(report)} {flight_line(state)}")


def _label(report: Report) -> str:
    return flight_label(report.tournament.flight or 0) + ":"


def _re_enter(
    reports: list[Report],
    states: list[TournamentState],
    bots: dict[str, Any],
    retried: set[str],
    rng: random.Random,
) -> int:
    """Busted bots try a later flight still taking entries, once each."""
    entered = 0
    for k, state in enumerate(states):
        for entrant in state.entrants.values():
            if entrant.alive or entrant.player in retried:
                continue
            retried.add(entrant.player)
            later = [r.tournament for r, s in zip(reports[k + 1 :], states[k + 1 :], strict=True)
                     if q.registration_open(s)]  # fmt: skip
            if later and rng.random() < 0.5:
                entered += _enter(bots[entrant.player], later[0])
    return entered


def _wait_for_day_two(pk: int, limit: float) -> None:
    """Day 2 starts by itself once the last flight is carried."""
    began = time.perf_counter()
    while _state(pk).status is not Status.RUNNING:
        if _state(pk).status is Status.FINISHED:
            return
        if time.perf_counter() - began > limit:
            raise TimeoutError("Day 2 did not start")
        flights.flights_sweep()
        time.sleep(0.1)


def flight_line(state: TournamentState) -> str:
    """A flight at its end: its field, where it stopped, its bags."""
    if state.status is Status.CANCELLED:
        return "called off"
    chips = sum(b.stack for b in state.bags)
    return (
        f"stopped at level {state.stopped_level} with {len(state.bags)} bags of "
        f"{state.entries} entries ({chips} chips), pool {state.pool}"
    )


def event_line(detail: dict[str, Any]) -> str:
    """The event going into Day 2: its players, chips and pool."""
    d2 = detail["day_two"]
    return (
        f"Day 2: {d2['players']} players, {d2['chips']} chips ({d2['forfeited_chips']} "
        f"forfeited), pool {d2['prize_pool']} of {sum(f['prize_pool'] for f in detail['flights'])}"
        f", level {d2['resume_level']}"
    )
