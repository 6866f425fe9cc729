"""The admin for operators: cash tables, their seats and hands, read-only
(they are projections of the event log; tables change only by commands)."""

from __future__ import annotations

from django.contrib import admin

from kernel.admin import ReadOnly, ReadOnlyInline
from poker.models import Hand, Seat, Table


class SeatInline(ReadOnlyInline):
    model = Seat
    fields = ("number", "player", "stack", "sitting_out", "in_hand", "top_up_queued")


@admin.register(Table)
class TableAdmin(ReadOnly):
    list_display = (
        "id",
        "name",
        "game",
        "betting",
        "small_blind",
        "big_blind",
        "status",
        "players_seated",
        "hand_number",
    )
    list_filter = ("status", "game", "betting")
    search_fields = ("name",)
    inlines = [SeatInline]


@admin.register(Seat)
class SeatAdmin(ReadOnly):
    list_display = ("table", "number", "player", "stack", "sitting_out", "in_hand")
    list_select_related = ("table", "player")


@admin.register(Hand)
class HandAdmin(ReadOnly):
    list_display = ("id", "table", "number", "phase", "pot", "started_at", "ended_at")
    list_filter = ("phase",)
    search_fields = ("id",)
