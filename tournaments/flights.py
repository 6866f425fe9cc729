"""Multi-flight events (``tournaments.rules.flights``): setting one up,
who may enter which flight, carrying each flight into Day 2, and what the
players and the director see of the event.

An event is a row (``FlightEvent``) holding what its tournaments share
(the rules' ``FlightRules``); its starting flights and its Day 2 are
tournaments of their own, each with its stream.  A flight stops by its
own rules (``FlightStopped``, the bags in it); Day 2 takes it in by a
command of its own (``CarryFlight``: the bags, and the flight's pool moved
on the ledger into Day 2's, in that command's transaction).  The carry
runs once the flight's command has committed (``carry_later``), and
beat's sweep carries any flight that stopped without being carried (a
process killed in between): the flight's events say what to carry, Day 2's
events what it has, and the carry's command id is derived from the
flight, so it happens exactly once.
"""

from __future__ import annotations

import logging
import secrets
from dataclasses import replace
from datetime import datetime
from itertools import pairwise
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from kernel.api_errors import ApiError
from kernel.system_ids import command_id_for
from tournaments.errors import NotFound, invalid, refusal
from tournaments.models import Entrant, FlightEvent, Tournament
from tournaments.rules import (
    Bag,
    Cancelled,
    Carry,
    CarryFlight,
    Flight,
    FlightRules,
    FlightStopped,
    InvalidDefinition,
    Status,
    TournamentDefinition,
    TournamentState,
    flight_label,
    may_enter,
)
from tournaments.rules import queries as q
from tournaments.rules.flights import carry
from tournaments.selectors import iso, state_of
from tournaments.services import ensure_director, tournament_create
from tournaments.work import Outcome, run

log = logging.getLogger(__name__)

OVER = (Tournament.Status.FINISHED, Tournament.Status.CANCELLED)


class MayNotEnter(ApiError):
    """A player who bagged chips in an earlier flight of an event without
    re-entry, or who is still in another flight."""

    status = 409
    code = "flight_entry_refused"
    message = _("You bagged chips in an earlier flight, and this event allows no re-entry.")


def flight_rules(row: FlightEvent) -> FlightRules:
    """The rules' ``FlightRules`` of an event row."""
    return FlightRules(row.advance_percent, row.re_entry, Carry(row.carry))


# --------------------------------------------------------------------------
# Setting an event up


def flight_event_create(
    *,
    by: Any,
    name: str,
    definition: TournamentDefinition,
    flights: list[datetime],
    day_two_starts_at: datetime,
    advance_percent: int,
    re_entry: bool = True,
    carry: str = "best",
) -> FlightEvent:
    """An event of ``len(flights)`` starting flights, each starting at its
    time with ``definition`` (its own late registration), and its Day 2 at
    ``day_two_starts_at`` (after every flight's start; it waits for the
    last flight to stop if that comes later).  Directors only."""
    ensure_director(by)
    try:
        rules = FlightRules(advance_percent, re_entry, Carry(carry))
        shapes = [
            replace(definition, flight=Flight(rules, len(flights), n))
            for n in range(1, len(flights) + 1)
        ]
        day_two = replace(
            definition, flight=Flight(rules, len(flights), 0), rebuys=None,
            late_registration_level=None, re_entries=0,
        )  # fmt: skip
    except InvalidDefinition as error:
        raise refusal(error) from None
    if any(later < earlier for earlier, later in pairwise(flights)):
        raise invalid("flights", _("The flights start in the order they play."))
    if day_two_starts_at <= max(flights):
        raise invalid("day_two_starts_at", _("Day 2 starts after every flight has started."))
    with transaction.atomic():
        row = FlightEvent.objects.create(
            name=name, advance_percent=advance_percent, re_entry=re_entry, carry=carry
        )
        days = [*enumerate(zip(shapes, flights, strict=True), start=1)]
        for n, (shape, starts_at) in [*days, (0, (day_two, day_two_starts_at))]:
            tournament_create(
                by=by, name=f"{name} {flight_label(n)}", definition=shape,
                starts_at=starts_at, flight_event=row,
            )  # fmt: skip
    return row


# --------------------------------------------------------------------------
# Entering a flight


def _bags(rows: list[Tournament]) -> list[Bag]:
    """Every bag of the flights among ``rows`` that have stopped."""
    return [
        bag
        for t in rows
        if t.flight and t.status == Tournament.Status.FINISHED
        for bag in state_of(t).bags
    ]


def verify_may_enter(tournament_id: int, player: str) -> None:
    """Refuse an entry into a starting flight to a player who bagged chips
    in an earlier one when the event allows no re-entry (``may_enter``),
    or who is still in another flight that has not stopped."""
    row = Tournament.objects.filter(pk=tournament_id).select_related("flight_event").first()
    if row is None or row.flight_event is None or not row.flight:
        return
    others = list(
        Tournament.objects.filter(flight_event=row.flight_event, flight__gt=0).exclude(pk=row.pk)
    )
    if not may_enter(player, _bags(others), flight_rules(row.flight_event)):
        raise MayNotEnter()
    playing = [t.pk for t in others if t.status not in OVER]
    if Entrant.objects.filter(
        tournament_id__in=playing, player_id=int(player), status=Entrant.Status.IN
    ).exists():
        raise MayNotEnter(_("You are still in another flight of this event."))


# --------------------------------------------------------------------------
# Carrying a flight into Day 2


def carry_later(outcome: Outcome) -> None:
    """Once a flight's command that stopped it or called it off commits,
    carry it into Day 2 (a failure is left to the sweep)."""
    row = outcome.row
    if not row.flight or not any(isinstance(e, FlightStopped | Cancelled) for e in outcome.events):
        return
    pk = row.pk
    transaction.on_commit(lambda: _carry_quietly(pk))


def _carry_quietly(flight_id: int) -> None:
    try:
        flight_carry(flight_id=flight_id)
    except ApiError as error:  # carried already, or Day 2 busy: the sweep retries
        log.info("flight %s not carried now: %s", flight_id, error.code)


def flight_carry(*, flight_id: int) -> Outcome | None:
    """Day 2 takes in flight ``flight_id``, stopped (its bags and its pool)
    or called off (nothing); None when it has been carried already or is
    still playing.  The command id is the flight's own: a second carry is
    the same command."""
    row = Tournament.objects.filter(pk=flight_id).first()
    if row is None or not row.flight or row.flight_event_id is None:
        raise NotFound()
    flight = state_of(row)
    stopped = flight.stopped_level is not None
    if not stopped and flight.status is not Status.CANCELLED:
        return None
    day_two = Tournament.objects.get(flight_event_id=row.flight_event_id, flight=0)
    number = row.flight
    source = str(row.pk)

    def decide(state: TournamentState, now: int) -> CarryFlight:
        return CarryFlight(
            number, source, flight.pool if stopped else 0, flight.stopped_level or 0,
            flight.bags, now, secrets.randbits(64),
        )  # fmt: skip

    return run(
        day_two.pk, by=None, command_id=command_id_for(f"carry {row.stream}"), decide=decide,
        kind="tournament.carry_flight", body={"flight": row.pk},
    )  # fmt: skip


def flights_sweep() -> int:
    """Carry every flight that stopped or was called off and that its Day
    2 has not taken in (a process killed between the two); how many."""
    carried = 0
    waiting = Tournament.objects.filter(flight=0, status=Tournament.Status.SCHEDULED)
    for day_two in waiting.order_by("pk"):
        have = state_of(day_two).carried
        flights = Tournament.objects.filter(
            flight_event_id=day_two.flight_event_id, flight__gt=0, status__in=OVER
        )
        for row in flights.order_by("flight"):
            if row.flight in have:
                continue
            try:
                if flight_carry(flight_id=row.pk) is not None:
                    carried += 1
            except ApiError as error:
                log.info("flight %s not carried by the sweep: %s", row.pk, error.code)
    return carried


# --------------------------------------------------------------------------
# What players and the director see


def flight_event_list(*, viewer: Any = None) -> list[dict[str, Any]]:
    """Every event, newest first, as ``flight_event_detail`` shows it."""
    ids = FlightEvent.objects.order_by("-id").values_list("pk", flat=True)
    return [flight_event_detail(pk, viewer=viewer) for pk in ids]


def flight_event_detail(event_id: int, *, viewer: Any = None) -> dict[str, Any]:
    """The event: each flight (its field, its mark, whether it has stopped
    and been carried, its bags), Day 2 (ready, its players, its pool, the
    level it resumes at) and, for a logged-in viewer, which flights he may
    still enter and his bags, marking the one that goes through."""
    event = FlightEvent.objects.filter(pk=event_id).first()
    if event is None:
        raise NotFound(_("No such multi-flight event."))
    rules = flight_rules(event)
    rows = list(Tournament.objects.filter(flight_event=event).order_by("flight"))
    day_two = next(t for t in rows if t.flight == 0)
    flights = [t for t in rows if t.flight]
    d2 = state_of(day_two)
    states = {t.pk: state_of(t) for t in flights}
    bags = [b for t in flights for b in states[t.pk].bags]
    through = carry(bags, rules)
    player = None if viewer is None or not viewer.is_authenticated else str(viewer.pk)
    total = sum(s.pool for s in states.values())
    return {
        "id": event.pk,
        "name": event.name,
        "advance_percent": event.advance_percent,
        "re_entry": event.re_entry,
        "carry": event.carry,
        "prize_pool": d2.pool if d2.carried else total,
        "flights": [_flight(t, states[t.pk], d2, player, bags, rules, flights) for t in flights],
        "day_two": {
            "id": day_two.pk,
            "name": day_two.name,
            "status": day_two.status,
            "starts_at": iso(day_two.starts_at),
            "started_at": iso(day_two.started_at),
            "ready": d2.status is not Status.SCHEDULED,
            "flights_carried": len(d2.carried),
            "players": len(through.stacks) if d2.status is Status.SCHEDULED else len(d2.entrants),
            "players_left": day_two.players_left,
            "chips": through.chips,
            "forfeited_chips": sum(b.stack for b in through.forfeited),
            "prize_pool": d2.pool,
            "resume_level": d2.resume_level if d2.status is not Status.SCHEDULED else None,
        },
        "you": None if player is None else _you(player, bags, through.forfeited, flights),
    }


def _flight(
    t: Tournament,
    state: TournamentState,
    d2: TournamentState,
    player: str | None,
    bags: list[Bag],
    rules: FlightRules,
    flights: list[Tournament],
) -> dict[str, Any]:
    stopped = state.stopped_level is not None
    entrant = None if player is None else state.entrant(player)
    return {
        "id": t.pk,
        "flight": t.flight,
        "label": flight_label(t.flight or 0),
        "name": t.name,
        "status": t.status,
        "starts_at": iso(t.starts_at),
        "late_registration_level": state.definition.late_registration_level,
        "registration_open": q.registration_open(state),
        "entries": state.entries,
        "players_left": q.players_left(state),
        "mark": rules.stop_at(state.entries),
        "prize_pool": state.pool,
        "stopped": stopped,
        "stopped_level": state.stopped_level,
        "bags": len(state.bags),
        "chips_bagged": sum(b.stack for b in state.bags),
        "carried": t.flight in d2.carried,
        "may_enter": player is not None
        and q.registration_open(state)
        and (entrant is None or not entrant.alive)
        and may_enter(player, [b for b in bags if b.flight != t.flight], rules)
        and not _playing_elsewhere(player, t, flights),
    }


def _playing_elsewhere(player: str, t: Tournament, flights: list[Tournament]) -> bool:
    for other in flights:
        if other.pk != t.pk and other.status not in OVER:
            entrant = state_of(other).entrant(player)
            if entrant is not None and entrant.alive:
                return True
    return False


def _you(
    player: str, bags: list[Bag], forfeited: tuple[Bag, ...], flights: list[Tournament]
) -> dict[str, Any]:
    labels = {t.flight: flight_label(t.flight or 0) for t in flights}
    mine = [b for b in bags if b.player == player]
    kept = [b for b in mine if b not in forfeited]
    return {
        "bags": [
            {
                "flight": b.flight,
                "label": labels.get(b.flight, ""),
                "stack": b.stack,
                "goes_through": b not in forfeited,
            }
            for b in mine
        ],
        "day_two_stack": kept[0].stack if kept else None,
    }
