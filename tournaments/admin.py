"""The admin for operators: tournaments and their entrants, read-only (they
are projections of the tournament streams; tournaments change only by
commands), and the schedules with the tournaments they created, read-only
too (set up, paused and deleted through the API, which checks them)."""

from __future__ import annotations

from django.contrib import admin

from kernel.admin import ReadOnly, ReadOnlyInline
from tournaments.models import Entrant, Occurrence, Schedule, Tournament


class EntrantInline(ReadOnlyInline):
    model = Entrant
    fields = ("player", "status", "entries", "stack", "table", "seat", "place", "prize", "ticket")


@admin.register(Tournament)
class TournamentAdmin(ReadOnly):
    list_display = (
        "id",
        "name",
        "status",
        "game",
        "buy_in",
        "satellite_target",
        "starts_at",
        "entries",
        "players_left",
        "level",
        "prize_pool",
    )
    list_filter = ("status", "game", "sit_and_go")
    search_fields = ("name", "satellite_target")
    inlines = [EntrantInline]


@admin.register(Entrant)
class EntrantAdmin(ReadOnly):
    list_display = (
        "tournament",
        "player",
        "status",
        "entries",
        "stack",
        "place",
        "prize",
        "ticket",
    )
    list_filter = ("status", "ticket")
    search_fields = ("player__username",)


class OccurrenceInline(ReadOnlyInline):
    model = Occurrence
    fields = ("day", "tournament")


@admin.register(Schedule)
class ScheduleAdmin(ReadOnly):
    list_display = ("id", "name", "every", "time", "time_zone", "horizon_days", "paused", "problem")
    list_filter = ("every", "paused")
    search_fields = ("name",)
    inlines = [OccurrenceInline]
