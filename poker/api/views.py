"""Thin HTTP views: validate input, call one service or selector, answer.

Reads are open to spectators (no hidden card leaves through them); writes
need a logged-in player, and opening or closing tables needs staff.
"""

from __future__ import annotations

import re
from typing import Any

from django.http import HttpResponse
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import permissions
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from kernel.api import command_view, validated, viewer
from kernel.api_errors import ApiError
from poker import selectors, services
from poker.api import responses as out
from poker.api import serializers as s
from poker.models import Hand, Table

ReadOpen = permissions.IsAuthenticatedOrReadOnly
"""Anyone may read; writing needs a login (DRF's own class, which the
schema knows: its reads are documented as needing no login)."""


class TablesView(APIView):
    """The lobby (GET) and opening a table (POST, staff)."""

    permission_classes = [ReadOpen]

    @extend_schema(responses={200: out.TableOut(many=True)}, operation_id="tables_list")
    def get(self, request: Request) -> Response:
        return Response([selectors.table_summary(t) for t in selectors.table_list()])

    @extend_schema(
        request=s.TableIn, responses={201: out.TableViewOut}, operation_id="tables_create"
    )
    def post(self, request: Request) -> Response:
        data = validated(s.TableIn, request.data)
        table = services.table_create(by=request.user, **data)
        return Response(selectors.table_view(table, viewer(request)), status=201)


class TableView(APIView):
    """One table as the asking viewer may see it."""

    permission_classes = [ReadOpen]

    @extend_schema(responses={200: out.TableViewOut}, operation_id="tables_retrieve")
    def get(self, request: Request, table_id: int) -> Response:
        table = get_object_or_404(Table.objects.select_related("current_hand"), pk=table_id)
        return Response(selectors.table_view(table, viewer(request)))


def _command(name: str, operation: str, body: type[Any], service: Any) -> type[APIView]:
    """The view of one table command of the logged-in user (``name``: its class's)."""
    return command_view(
        service, body, out.TableViewOut, class_name=f"{name}View", operation_id=operation
    )


TableCloseView = _command("TableClose", "tables_close", s.CommandIn, services.table_close)
ActionsView = _command("Actions", "actions_create", s.ActIn, services.hand_act)
SEAT_VIEWS: dict[str, type[APIView]] = {
    name: _command(f"Seat{name.title()}", f"seats_{name.replace('-', '_')}", body, service)
    for name, body, service in (
        ("sit", s.SitIn, services.seat_sit),
        ("leave", s.CommandIn, services.seat_leave),
        ("top-up", s.TopUpIn, services.seat_top_up),
        ("sit-out", s.CommandIn, services.seat_sit_out),
        ("sit-in", s.SitInIn, services.seat_sit_in),
    )
}


TABLE_ID = {"type": "integer", "minimum": 0, "maximum": 10**18 - 1}
"""A table id in a query (the 18 digits the URLs take)."""


class HandsView(APIView):
    """Hand histories of a table, newest first."""

    permission_classes = [ReadOpen]

    @extend_schema(
        parameters=[OpenApiParameter("table", TABLE_ID, required=True)],
        responses={200: out.HandSummaryOut(many=True)},
        operation_id="hands_list",
    )
    def get(self, request: Request) -> Response:
        table_id = request.query_params.get("table", "")
        if not re.fullmatch(r"[0-9]{1,18}", table_id):
            raise ApiError(_("Say which table: ?table=<id>."), code="invalid")
        table = get_object_or_404(Table, pk=int(table_id))
        hands = selectors.hands_of(table)[:200]
        return Response([_hand_summary(h) for h in hands])


def _hand_summary(hand: Hand) -> dict[str, Any]:
    return {
        "id": hand.pk,
        "number": hand.number,
        "phase": hand.phase,
        "seats": hand.seats,
        "pot": hand.pot,
        "started_at": hand.started_at,
        "ended_at": hand.ended_at,
        "commitment": hand.deck_commitment,
        "result": hand.result,
    }


class HandView(APIView):
    """One hand's history as the viewer may see it."""

    permission_classes = [ReadOpen]

    @extend_schema(responses={200: out.HandDetailOut}, operation_id="hands_retrieve")
    def get(self, request: Request, hand_id: str) -> Response:
        hand = get_object_or_404(Hand.objects.select_related("table"), pk=hand_id)
        return Response(selectors.hand_detail(hand, viewer(request)))


class HandPhhView(APIView):
    """One hand in PokerKit's PHH format (TOML), as the viewer may see it."""

    permission_classes = [ReadOpen]

    @extend_schema(responses={(200, "application/toml"): str}, operation_id="hands_phh")
    def get(self, request: Request, hand_id: str) -> HttpResponse:
        hand = get_object_or_404(Hand.objects.select_related("table"), pk=hand_id)
        text = selectors.hand_phh(hand, viewer(request))
        return HttpResponse(text, content_type="application/toml; charset=utf-8")
