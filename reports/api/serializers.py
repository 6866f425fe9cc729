"""The reports' shapes: the period asked (query) and each report's rows,
declared once for the OpenAPI schema, the JSON answer and the CSV columns."""

from __future__ import annotations

from datetime import date
from typing import Any

from rest_framework import serializers

from kernel.api import Query
from reports.period import BadPeriod, period_of

Row = serializers.Serializer[dict[str, Any]]


class PeriodQuery(Query):
    """``from`` and ``to``: the first and last day of the report, both
    included (UTC); ``to`` defaults to today and ``from`` to 30 days before
    it.  ``format=csv`` (or ``Accept: text/csv``) answers in CSV."""

    def get_fields(self) -> dict[str, serializers.Field[Any, Any, Any, Any]]:
        return {
            "from": serializers.DateField(
                required=False, help_text="The first day (YYYY-MM-DD), included."
            ),
            "to": serializers.DateField(
                required=False, help_text="The last day (YYYY-MM-DD), included; default today."
            ),
            "format": serializers.ChoiceField(
                choices=["json", "csv"], required=False, help_text="csv: the rows as CSV."
            ),
        }

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        first: date | None = attrs.get("from")
        last: date | None = attrs.get("to")
        try:
            attrs["period"] = period_of(first, last)
        except BadPeriod as error:
            raise serializers.ValidationError({"to": [str(error)]}) from error
        return attrs


def _count(**options: Any) -> serializers.IntegerField:
    return serializers.IntegerField(min_value=0, **options)


class IncomeRow(Row):
    """One day's income (or cash flow) from one source at one subject (a
    table or a tournament)."""

    day = serializers.DateField()
    # A field called ``source`` (DRF takes it out of the class, so it hides
    # no ``Field.source``; the stubs cannot know).
    source = serializers.CharField(  # type: ignore[assignment]
        help_text="reports.sources: tournament_fees, deposits, ..."
    )
    subject = serializers.CharField(
        allow_blank=True, help_text="What its transfers name: table, tournament ('': nothing)."
    )
    subject_id = serializers.IntegerField(
        allow_null=True, help_text="The table's or tournament's id."
    )
    name = serializers.CharField(allow_blank=True, help_text="The table's or tournament's name.")
    game = serializers.CharField(allow_blank=True)
    amount = serializers.IntegerField(help_text="Chips: income (or money in) positive.")
    transfers = _count(help_text="The ledger transfers summed.")


class TablesRow(Row):
    """Play at the tables of one game and kind."""

    game = serializers.CharField()
    kind = serializers.ChoiceField(choices=["cash", "tournament"])
    tables = _count(help_text="Tables that dealt a hand in the period.")
    players = _count(help_text="Players dealt in, each once.")
    hands = _count()
    hours = serializers.FloatField(help_text="Each table's first hand's start to its last's end.")
    hands_per_hour = serializers.FloatField(allow_null=True)
    pots = _count(help_text="The chips in the pots of the hands that ended.")
    average_pot = serializers.FloatField(allow_null=True)
    house = serializers.IntegerField(help_text="The house's income at these tables (rake, ...).")


class FloorRow(Row):
    """The tables running now of one game and kind."""

    game = serializers.CharField()
    kind = serializers.ChoiceField(choices=["cash", "tournament"])
    tables = _count(help_text="Tables open (or closing after their hand).")
    players = _count(help_text="Players seated at them.")
    hands = _count(help_text="Hands in progress.")


class TournamentsRow(Row):
    """A tournament that started in the period."""

    tournament = serializers.IntegerField()
    name = serializers.CharField()
    game = serializers.CharField()
    status = serializers.CharField()
    started_at = serializers.DateTimeField()
    entrants = _count()
    entries = _count(help_text="Entries, rebuys' re-entries included.")
    prize_pool = serializers.IntegerField(help_text="Paid into the pool, less refunds.")
    prizes = serializers.IntegerField(help_text="Paid out of the pool: prizes and seats won.")
    fees = serializers.IntegerField(help_text="The house's fees, less refunds.")
    overlay = serializers.IntegerField(
        help_text="The house's money in it: tickets it gave away, a guarantee's overlay."
    )
    flight_event = serializers.IntegerField(
        allow_null=True, help_text="The multi-flight event it is a flight or the Day 2 of."
    )
    event = serializers.CharField(allow_blank=True, help_text="That event's name.")
    day = serializers.CharField(allow_blank=True, help_text="Day 1A, Day 1B, ... or Day 2.")
    carried = serializers.IntegerField(
        help_text="Pool carried between a multi-flight event's days: a flight's out "
        "(negative), Day 2's in from the flights."
    )


class TicketsRow(Row):
    """Tickets into one tournament, or one step of a step satellite chain."""

    ticket = serializers.CharField(help_text="A tournament's id, or step-<chain>-<step>.")
    enters = serializers.CharField(allow_blank=True)
    awarded = _count()
    spent = _count(help_text="Paid entries.")
    returned = _count(help_text="Given back by unregistrations and cancellations.")
    cashed_out = _count(help_text="Turned into money: a target called off, a chain expired.")
    outstanding = _count(help_text="Held now, not yet spent.")
    backing = serializers.IntegerField(help_text="The money held for the outstanding tickets.")


class PlayersRow(Row):
    """One player's play in the period."""

    player = serializers.IntegerField()
    username = serializers.CharField()
    screen_name = serializers.CharField()
    hands = _count()
    tournaments = _count()
    entries = _count()
    cashes = _count(help_text="Tournaments he won money or a seat in.")
    best_place = serializers.IntegerField(allow_null=True)
    prizes = _count()
    tables_net = serializers.IntegerField(help_text="Cash back from tables less cash into them.")
    tournaments_net = serializers.IntegerField(help_text="The same for tournaments.")
    net = serializers.IntegerField(help_text="Every movement of his cash but the cashier's.")
    rake_paid = _count(
        help_text="His part of the rake: each pot's rake shared by the chips he put in it."
    )
    last_seen = serializers.DateTimeField(allow_null=True)


def report_out(name: str, row: type[Row]) -> type[serializers.Serializer[dict[str, Any]]]:
    """The answer of report ``name``: the period and the rows."""
    fields: dict[str, Any] = {
        "from": serializers.DateField(),
        "to": serializers.DateField(),
        "rows": row(many=True),
        "__doc__": f"The {name} report: the period (both days included) and its rows.",
        "__module__": __name__,
    }
    out: type[serializers.Serializer[dict[str, Any]]] = type(
        f"{name.title()}ReportOut", (serializers.Serializer,), fields
    )
    return out
