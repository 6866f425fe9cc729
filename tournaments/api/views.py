"""Thin HTTP views of tournaments: validate input, call one service or
selector, answer.

Reads are open to anyone (nothing in them is anyone's money but the
viewer's own entry); commands need a login, and creating tournaments and
the staff controls need a tournament director (checked by the services).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from kernel.api import command_view, validated, viewer
from poker.api.serializers import CommandIn
from poker.api.views import ReadOpen
from tournaments import flights, schedules, selectors, services, steps
from tournaments.api import responses as out
from tournaments.api import serializers as s
from tournaments.definitions import definition_build
from tournaments.models import Tournament


def _row(tournament_id: int) -> Tournament:
    return get_object_or_404(Tournament, pk=tournament_id)


class TournamentsView(APIView):
    """The lobby (GET, ``?status=``) and creating a tournament (POST, directors)."""

    permission_classes = [ReadOpen]

    @extend_schema(
        parameters=[s.LobbyQuery],
        responses={200: out.TournamentOut(many=True)},
        operation_id="tournaments_list",
    )
    def get(self, request: Request) -> Response:
        query = validated(s.LobbyQuery, request.query_params)
        rows = selectors.tournament_list(status=query.get("status"))
        return Response([selectors.tournament_summary(t) for t in rows])

    @extend_schema(
        request=s.TournamentIn,
        responses={201: out.TournamentDetailOut},
        operation_id="tournaments_create",
    )
    def post(self, request: Request) -> Response:
        services.ensure_director(request.user)  # before reading a word of it
        data = validated(s.TournamentIn, request.data)
        name, starts_at = data.pop("name"), data.pop("starts_at")
        definition, chain, step = steps.tournament_definition(data)
        row = services.tournament_create(
            by=request.user, name=name, definition=definition, starts_at=starts_at,
            step_chain=chain, step=step,
        )  # fmt: skip
        return Response(selectors.tournament_detail(row, viewer(request)), status=201)


class TournamentView(APIView):
    """One tournament: structure, prizes, clock, and your own entry."""

    permission_classes = [ReadOpen]

    @extend_schema(responses={200: out.TournamentDetailOut}, operation_id="tournaments_retrieve")
    def get(self, request: Request, tournament_id: int) -> Response:
        return Response(selectors.tournament_detail(_row(tournament_id), viewer(request)))


def _read_view(
    name: str, read: Callable[[Tournament], Any], shape: type[Any], doc: str
) -> type[APIView]:
    """A public list about one tournament."""

    class ReadView(APIView):
        permission_classes = [ReadOpen]

        @extend_schema(responses={200: shape(many=True)}, operation_id=f"tournaments_{name}")
        def get(self, request: Request, tournament_id: int) -> Response:
            return Response(read(_row(tournament_id)))

    ReadView.__doc__ = doc
    ReadView.__name__ = ReadView.__qualname__ = f"Tournament{name.title()}View"
    return ReadView


READ_VIEWS: dict[str, type[APIView]] = {
    "entrants": _read_view(
        "entrants", selectors.entrants, out.TournamentEntrantOut, "Everyone who entered."
    ),
    "standings": _read_view(
        "standings",
        lambda row: selectors.standings(selectors.state_of(row)),
        out.StandingOut,
        "Places as they stand (final once play is over).",
    ),
    "results": _read_view("results", selectors.results, out.ResultOut, "Final places and prizes."),
}


def _command_view(name: str, body: type[Any], service: Any) -> type[APIView]:
    """The view of one command on a tournament."""
    operation = f"tournaments_{name.replace('-', '_')}"
    return command_view(
        service,
        body,
        out.TournamentDetailOut,
        class_name=f"Tournament{name.title()}View",
        operation_id=operation,
    )


COMMAND_VIEWS: dict[str, type[APIView]] = {
    name: _command_view(name, body, service)
    for name, body, service in (
        ("register", s.EntryIn, services.tournament_register),
        ("unregister", CommandIn, services.tournament_unregister),
        ("rebuy", CommandIn, services.tournament_rebuy),
        ("add-on", CommandIn, services.tournament_add_on),
        ("decline-rebuy", CommandIn, services.tournament_decline_rebuy),
        ("pause", CommandIn, services.tournament_pause),
        ("resume", CommandIn, services.tournament_resume),
        ("add-time", s.AddTimeIn, services.tournament_add_time),
        ("move", s.MoveIn, services.tournament_move),
        ("disqualify", s.PlayerIn, services.tournament_disqualify),
        ("cancel", s.CancelIn, services.tournament_cancel),
        ("deal-propose", s.DealIn, services.tournament_deal_propose),
        ("deal-accept", CommandIn, services.tournament_deal_accept),
        ("deal-decline", CommandIn, services.tournament_deal_decline),
    )
}


class StepChainsView(APIView):
    """Every step chain (GET) and setting one up (POST), for directors."""

    @extend_schema(responses={200: out.StepChainOut(many=True)}, operation_id="step_chains_list")
    def get(self, request: Request) -> Response:
        return Response(steps.chain_list(by=request.user))

    @extend_schema(
        request=s.StepChainIn, responses={201: out.StepChainOut}, operation_id="step_chains_create"
    )
    def post(self, request: Request) -> Response:
        services.ensure_director(request.user)
        data = validated(s.StepChainIn, request.data)
        row = steps.step_chain_create(by=request.user, **data)
        return Response(steps.chain_detail(row.pk, by=request.user), status=201)


class StepChainView(APIView):
    """The whole chain, its tournaments and tickets outstanding (directors)."""

    @extend_schema(responses={200: out.StepChainOut}, operation_id="step_chains_retrieve")
    def get(self, request: Request, chain_id: int) -> Response:
        return Response(steps.chain_detail(chain_id, by=request.user))


class StepChainCloseView(APIView):
    """Once expired, cash out every step ticket still held (directors)."""

    @extend_schema(
        request=None, responses={200: out.StepChainOut}, operation_id="step_chains_close"
    )
    def post(self, request: Request, chain_id: int) -> Response:
        return Response(steps.step_chain_close(chain_id, by=request.user))


class TicketsView(APIView):
    """Your tickets: what each enters, its value and its expiry."""

    @extend_schema(responses={200: out.HeldTicketOut(many=True)}, operation_id="tickets_list")
    def get(self, request: Request) -> Response:
        return Response(steps.tickets_of(request.user))


class ComingUpView(APIView):
    """The lobby's coming up: tournaments still to start at a set time,
    soonest first, those the schedules created included."""

    permission_classes = [ReadOpen]

    @extend_schema(responses={200: out.ComingUpOut(many=True)}, operation_id="tournaments_coming")
    def get(self, request: Request) -> Response:
        return Response(schedules.coming_up(limit=COMING_UP))


COMING_UP = 20
"""Tournaments the lobby's coming up lists at most."""


class SchedulesView(APIView):
    """Every schedule (GET) and setting one up (POST), for directors: its
    first tournaments are created at once, the rest as their day comes
    within its horizon."""

    @extend_schema(responses={200: out.ScheduleOut(many=True)}, operation_id="schedules_list")
    def get(self, request: Request) -> Response:
        return Response(schedules.schedule_list(by=request.user))

    @extend_schema(
        request=s.ScheduleIn, responses={201: out.ScheduleOut}, operation_id="schedules_create"
    )
    def post(self, request: Request) -> Response:
        services.ensure_director(request.user)
        data = validated(s.ScheduleIn, request.data)
        row = schedules.schedule_create(by=request.user, **data)
        return Response(schedules.schedule_detail(row), status=201)


class ScheduleView(APIView):
    """One schedule (GET), or deleting it (DELETE: the tournaments it
    created stay), for directors."""

    @extend_schema(responses={200: out.ScheduleOut}, operation_id="schedules_retrieve")
    def get(self, request: Request, schedule_id: int) -> Response:
        return Response(schedules.schedule_view(by=request.user, schedule_id=schedule_id))

    @extend_schema(request=None, responses={204: None}, operation_id="schedules_destroy")
    def delete(self, request: Request, schedule_id: int) -> Response:
        schedules.schedule_delete(by=request.user, schedule_id=schedule_id)
        return Response(status=204)


def _pause_view(name: str, paused: bool, doc: str) -> type[APIView]:
    class PauseView(APIView):
        @extend_schema(
            request=None, responses={200: out.ScheduleOut}, operation_id=f"schedules_{name}"
        )
        def post(self, request: Request, schedule_id: int) -> Response:
            row = schedules.schedule_pause(by=request.user, schedule_id=schedule_id, paused=paused)
            return Response(schedules.schedule_detail(row))

    PauseView.__doc__ = doc
    PauseView.__name__ = PauseView.__qualname__ = f"Schedule{name.title()}View"
    return PauseView


SCHEDULE_VIEWS: dict[str, type[APIView]] = {
    "pause": _pause_view("pause", True, "Pause a schedule: it creates nothing until resumed."),
    "resume": _pause_view("resume", False, "Resume a schedule: it catches up on its horizon."),
}


class FlightEventsView(APIView):
    """Every multi-flight event (GET, anyone) and setting one up (POST, directors)."""

    permission_classes = [ReadOpen]

    @extend_schema(
        responses={200: out.FlightEventOut(many=True)}, operation_id="flight_events_list"
    )
    def get(self, request: Request) -> Response:
        return Response(flights.flight_event_list(viewer=viewer(request)))

    @extend_schema(
        request=s.FlightEventIn,
        responses={201: out.FlightEventOut},
        operation_id="flight_events_create",
    )
    def post(self, request: Request) -> Response:
        services.ensure_director(request.user)
        data = validated(s.FlightEventIn, request.data)
        event = {k: data.pop(k) for k in ("name", "flights", "day_two_starts_at")}
        rules = {k: data.pop(k) for k in ("advance_percent", "re_entry", "carry")}
        row = flights.flight_event_create(
            by=request.user, definition=definition_build(data), **event, **rules
        )
        return Response(flights.flight_event_detail(row.pk, viewer=viewer(request)), status=201)


class FlightEventView(APIView):
    """One event: its flights, Day 2, and which flights you may still enter."""

    permission_classes = [ReadOpen]

    @extend_schema(responses={200: out.FlightEventOut}, operation_id="flight_events_retrieve")
    def get(self, request: Request, event_id: int) -> Response:
        return Response(flights.flight_event_detail(event_id, viewer=viewer(request)))
