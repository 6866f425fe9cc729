"""Thin HTTP views of the casino tables: validate input, call one service
or selector, answer.  Reads are open to spectators (no hidden card leaves
through them); commands need a logged-in player; opening and closing
tables needs staff, funding the bankroll a cashier."""

from __future__ import annotations

from typing import Any

from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework import permissions
from rest_framework.pagination import PageNumberPagination
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.errors import NotPermitted
from casino import history, selectors, services
from casino.api import responses as out
from casino.api import serializers as s
from casino.edge import casino_math_list
from casino.models import CasinoRound, CasinoTable
from kernel.api import command_view, validated, viewer


class CasinoTablesView(APIView):
    """The casino tables (GET) and opening one (POST, staff)."""

    permission_classes = [permissions.IsAuthenticatedOrReadOnly]

    @extend_schema(
        responses={200: out.CasinoTableOut(many=True)}, operation_id="casino_tables_list"
    )
    def get(self, request: Request) -> Response:
        tables = selectors.casino_table_list()
        return Response([selectors.casino_table_summary(t) for t in tables])

    @extend_schema(
        request=s.CasinoTableIn,
        responses={201: out.CasinoTableViewOut},
        operation_id="casino_tables_create",
    )
    def post(self, request: Request) -> Response:
        data = validated(s.CasinoTableIn, request.data)
        table = services.casino_table_open(by=request.user, **data)
        return Response(selectors.casino_table_view(table, viewer(request)), status=201)


class CasinoTableView(APIView):
    """One casino table as the asking viewer may see it."""

    permission_classes = [permissions.IsAuthenticatedOrReadOnly]

    @extend_schema(responses={200: out.CasinoTableViewOut}, operation_id="casino_tables_retrieve")
    def get(self, request: Request, table_id: int) -> Response:
        table = get_object_or_404(CasinoTable, pk=table_id)
        return Response(selectors.casino_table_view(table, viewer(request)))


class CasinoStrategyView(APIView):
    """The table's published house edge and strategy card (stored figures)."""

    permission_classes = [permissions.IsAuthenticatedOrReadOnly]

    @extend_schema(responses={200: out.CasinoStrategyOut}, operation_id="casino_strategy_retrieve")
    def get(self, request: Request, table_id: int) -> Response:
        table = get_object_or_404(CasinoTable, pk=table_id)
        return Response(selectors.casino_table_strategy(table))


def _command(name: str, body: type[Any], service: Any) -> type[APIView]:
    operation = f"casino_{name.replace('-', '_')}"
    return command_view(
        service,
        body,
        out.CasinoTableViewOut,
        class_name=f"Casino{name.title().replace('-', '')}View",
        operation_id=operation,
    )


def _move(action: str) -> Any:
    def service(*, by: Any, table_id: int, **data: Any) -> dict[str, Any]:
        return services.casino_act(by=by, table_id=table_id, action=action, **data)

    service.__doc__ = {
        "exchange": "Exchange cards in the running round (stakes one more original bet).",
        "stand": "Keep your cards in this exchange (stakes nothing).",
        "play": "Play against the dealer: stake BET = 2 x ANTE.",
        "fold": "Fold: give up the round and the ANTE.",
    }[action]
    return service


COMMAND_VIEWS: dict[str, type[APIView]] = {
    "close": _command("close", s.CasinoCommandIn, services.casino_table_close),
    "sit": _command("sit", s.CasinoSitIn, services.casino_sit),
    "bet": _command("bet", s.CasinoBetIn, services.casino_bet),
    "exchange": _command("exchange", s.CasinoExchangeIn, _move("exchange")),
    "stand": _command("stand", s.CasinoMoveIn, _move("stand")),
    "play": _command("play", s.CasinoMoveIn, _move("play")),
    "fold": _command("fold", s.CasinoMoveIn, _move("fold")),
    "sit-out": _command("sit-out", s.CasinoCommandIn, services.casino_sit_out),
    "sit-in": _command("sit-in", s.CasinoCommandIn, services.casino_sit_in),
    "leave": _command("leave", s.CasinoCommandIn, services.casino_leave),
}


class BankrollView(APIView):
    """The house's bankroll (staff) and funding it (POST, a cashier)."""

    @extend_schema(responses={200: out.BankrollOut}, operation_id="casino_bankroll_retrieve")
    def get(self, request: Request) -> Response:
        if not request.user.is_staff:
            raise NotPermitted(_("Only staff see the bankroll."))
        return Response(services.bankroll_view())

    @extend_schema(
        request=s.BankrollFundIn,
        responses={200: out.BankrollOut},
        operation_id="casino_bankroll_fund",
    )
    def post(self, request: Request) -> Response:
        data = validated(s.BankrollFundIn, request.data)
        return Response(services.bankroll_fund(by=request.user, **data))


class CasinoMathView(APIView):
    """Every configuration's stored house-edge figures (staff): what a
    table may open with."""

    @extend_schema(responses={200: out.CasinoMathOut(many=True)}, operation_id="casino_math_list")
    def get(self, request: Request) -> Response:
        if not request.user.is_staff:
            raise NotPermitted(_("Only staff see the house's figures."))
        return Response(casino_math_list())


class RoundPages(PageNumberPagination):
    page_size = 20
    page_size_query_param = "page_size"
    max_page_size = 100


class CasinoRoundsView(APIView):
    """The logged-in player's casino rounds, newest first, by pages."""

    pagination_class = RoundPages

    @extend_schema(
        parameters=[s.RoundPageQuery],
        responses={200: out.CasinoRoundSummaryOut(many=True)},
        operation_id="casino_rounds_list",
    )
    def get(self, request: Request) -> Response:
        validated(s.RoundPageQuery, request.query_params)
        pages = RoundPages()
        player = request.user.pk
        assert player is not None  # signed in (the default IsAuthenticated)
        page = pages.paginate_queryset(history.rounds_of(player), request, view=self)
        assert page is not None
        return pages.get_paginated_response([history.round_summary(r, request.user) for r in page])


class CasinoRoundView(APIView):
    """One casino round's history as the viewer may see it, with the deck
    commitment and the openings of his cards (``manage.py verify_hand``)."""

    permission_classes = [permissions.IsAuthenticatedOrReadOnly]

    @extend_schema(responses={200: out.CasinoRoundDetailOut}, operation_id="casino_rounds_retrieve")
    def get(self, request: Request, round_id: str) -> Response:
        row = get_object_or_404(CasinoRound.objects.select_related("table"), pk=round_id)
        return Response(history.round_detail(row, viewer(request)))
