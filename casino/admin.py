"""The admin for operators: casino tables, their boxes and rounds, shown
read-only (projections of the event log), with the house-edge figures of
each table's configuration (``CasinoMath``, stored by ``manage.py
casino_math --store``).  Staff open a table from the add page and close
tables with an action, both through the services (``casino_table_open``,
``casino_table_close``): the admin never writes a row itself."""

from __future__ import annotations

from typing import Any

from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponseRedirect
from django.urls import reverse
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from casino import services
from casino.edge import casino_math_of
from casino.models import CasinoBox, CasinoMath, CasinoRound, CasinoTable
from kernel.admin import ReadOnly, ReadOnlyInline
from kernel.api_errors import ApiError
from poker.engine.casino import CasinoRules, PayTable

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
        "house_edge",
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
        return [*super().get_fields(request, obj), "house_edge"]

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        extra = ["house_edge"] if obj is not None else []
        return [*super().get_readonly_fields(request, obj), *extra]

    @admin.display(description=_("house edge vs the best response"))
    def house_edge(self, table: CasinoTable) -> str:
        """The configuration's stored figures, in words."""
        rules = CasinoRules(table.jokers, PayTable.from_json(table.pay_table))
        row = casino_math_of(rules)
        return gettext("none stored") if row is None else figures_text(row)

    def get_inlines(self, request: HttpRequest, obj: Any) -> Any:
        return self.inlines if obj is not None else []

    def save_model(self, request: HttpRequest, obj: CasinoTable, form: Any, change: bool) -> None:
        """Open the table through the service (its events, then its row)."""
        assert not change, "casino tables change only by commands"
        settings = {f: form.cleaned_data[f] for f in OPEN_FIELDS}
        try:
            table = services.casino_table_open(by=request.user, **settings)
        except ApiError as error:
            self.message_user(
                request, gettext("Not opened: %(why)s") % {"why": error.message}, messages.ERROR
            )
            return
        obj.pk = table.pk
        row = casino_math_of(CasinoRules(table.jokers, PayTable.from_json(table.pay_table)))
        if row is not None:
            said = gettext("House edge: %(figures)s.") % {"figures": figures_text(row)}
            self.message_user(request, said, messages.INFO)

    def response_add(
        self, request: HttpRequest, obj: CasinoTable, post_url_continue: Any = None
    ) -> Any:
        if obj.pk is None:  # refused: back to the list, with the message
            return HttpResponseRedirect(reverse("admin:casino_casinotable_changelist"))
        return super().response_add(request, obj, post_url_continue)

    @admin.action(description=_("Close the selected casino tables"))
    def close_tables(self, request: HttpRequest, queryset: QuerySet[CasinoTable]) -> None:
        """Close each table (between rounds at once, else when its round ends)."""
        for table in queryset.exclude(status=CasinoTable.Status.CLOSED):
            try:
                services.casino_table_close(by=request.user, table_id=table.pk)
            except ApiError as error:
                self.message_user(request, f"{table}: {error.message}", messages.ERROR)
            else:
                said = gettext("%(table)s: closing.") % {"table": table}
                self.message_user(request, said, messages.SUCCESS)


def figures_text(row: CasinoMath) -> str:
    """A configuration's figures in one line."""
    return gettext(
        "model %(model)s, simulated %(simulated)s (95%% CI %(low)s to %(high)s, "
        "%(rounds)s rounds); largest payout %(payout)s B"
    ) % {
        "model": f"{row.model_edge:.2%}",
        "simulated": f"{row.simulated_edge:.2%}",
        "low": f"{row.simulated_low:.2%}",
        "high": f"{row.simulated_high:.2%}",
        "rounds": f"{row.rounds:,}",
        "payout": row.largest_payout,
    }


@admin.register(CasinoMath)
class CasinoMathAdmin(ReadOnly):
    """Each configuration's stored figures (``manage.py casino_math --store``)."""

    list_display = (
        "digest",
        "jokers",
        "model_edge",
        "simulated_edge",
        "simulated_low",
        "simulated_high",
        "rounds",
        "largest_payout",
        "computed_at",
    )


@admin.register(CasinoBox)
class CasinoBoxAdmin(ReadOnly):
    list_display = ("table", "number", "player", "bet", "held", "sitting_out", "leaving")
    list_select_related = ("table", "player")


@admin.register(CasinoRound)
class CasinoRoundAdmin(ReadOnly):
    list_display = ("id", "table", "number", "phase", "version", "started_at", "ended_at")
    list_filter = ("phase",)
    search_fields = ("id",)
