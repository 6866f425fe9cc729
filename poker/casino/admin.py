"""The admin for operators: casino tables, their boxes and rounds, shown
read-only (projections of the event log).  Staff open a table from the add
page and close tables with an action, both through the services
(``casino_table_open``, ``casino_table_close``): the admin never writes a
row itself."""

from __future__ import annotations

from typing import Any

from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponseRedirect
from django.urls import reverse

from config.admin import ReadOnly, ReadOnlyInline
from config.api_errors import ApiError
from poker.casino import services
from poker.casino.models import CasinoBox, CasinoRound, CasinoTable

OPEN_FIELDS = (
    "name",
    "jokers",
    "min_bet",
    "max_bet",
    "boxes",
    "bet_seconds",
    "decision_seconds",
)
"""What the add page asks (the pay table keeps the default)."""


class CasinoBoxInline(ReadOnlyInline):
    model = CasinoBox
    fields = ("number", "player", "bet", "held", "sitting_out", "leaving")


@admin.register(CasinoTable)
class CasinoTableAdmin(ReadOnly):
    list_display = (
        "id",
        "name",
        "jokers",
        "min_bet",
        "max_bet",
        "boxes",
        "status",
        "players_seated",
        "round_number",
        "exposure",
    )
    list_filter = ("status",)
    search_fields = ("name",)
    inlines = [CasinoBoxInline]
    actions = ["close_tables"]

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return bool(request.user.is_staff)

    def get_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        if obj is None:
            return OPEN_FIELDS
        return super().get_fields(request, obj)

    def get_inlines(self, request: HttpRequest, obj: Any) -> Any:
        return self.inlines if obj is not None else []

    def save_model(self, request: HttpRequest, obj: CasinoTable, form: Any, change: bool) -> None:
        """Open the table through the service (its events, then its row)."""
        assert not change, "casino tables change only by commands"
        settings = {f: form.cleaned_data[f] for f in OPEN_FIELDS}
        try:
            table = services.casino_table_open(by=request.user, **settings)
        except ApiError as error:
            self.message_user(request, f"Not opened: {error.message}", messages.ERROR)
            return
        obj.pk = table.pk

    def response_add(
        self, request: HttpRequest, obj: CasinoTable, post_url_continue: Any = None
    ) -> Any:
        if obj.pk is None:  # refused: back to the list, with the message
            return HttpResponseRedirect(reverse("admin:poker_casinotable_changelist"))
        return super().response_add(request, obj, post_url_continue)

    @admin.action(description="Close the selected casino tables")
    def close_tables(self, request: HttpRequest, queryset: QuerySet[CasinoTable]) -> None:
        """Close each table (between rounds at once, else when its round ends)."""
        for table in queryset.exclude(status=CasinoTable.Status.CLOSED):
            try:
                services.casino_table_close(by=request.user, table_id=table.pk)
            except ApiError as error:
                self.message_user(request, f"{table}: {error.message}", messages.ERROR)
            else:
                self.message_user(request, f"{table}: closing.", messages.SUCCESS)


@admin.register(CasinoBox)
class CasinoBoxAdmin(ReadOnly):
    list_display = ("table", "number", "player", "bet", "held", "sitting_out", "leaving")
    list_select_related = ("table", "player")


@admin.register(CasinoRound)
class CasinoRoundAdmin(ReadOnly):
    list_display = ("id", "table", "number", "phase", "version", "started_at", "ended_at")
    list_filter = ("phase",)
    search_fields = ("id",)
