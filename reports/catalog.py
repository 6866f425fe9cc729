"""Every report, once: its name (in URLs), title, selector and row shape.
The REST API (``reports.api``) and the admin's pages (``reports.admin``)
are both made from this list."""

from __future__ import annotations

import inspect
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from rest_framework import serializers

from reports import activity, money, players
from reports.api import serializers as s
from reports.period import Period


@dataclass(frozen=True)
class Report:
    name: str
    title: str
    selector: Callable[..., list[dict[str, Any]]]
    row: type[s.Row]

    @property
    def columns(self) -> list[str]:
        """The row's fields in order: the CSV's header."""
        return list(self.row().fields)

    @property
    def description(self) -> str:
        return inspect.getdoc(self.selector) or ""

    def rows(self, period: Period) -> list[dict[str, Any]]:
        """The rows as the API answers them (dates as ISO text)."""
        rows = serializers.ListSerializer(self.selector(period=period), child=self.row())
        return list(rows.data)


REPORTS: dict[str, Report] = {
    r.name: r
    for r in (
        Report("income", "The house's income", money.income_report, s.IncomeRow),
        Report("cashier", "Deposits and withdrawals", money.cashier_report, s.IncomeRow),
        Report("floor", "The tables running now", activity.floor_report, s.FloorRow),
        Report("tables", "Play at the tables, by game", activity.tables_report, s.TablesRow),
        Report("tournaments", "Tournaments run", activity.tournaments_report, s.TournamentsRow),
        Report("tickets", "Tournament and step tickets", activity.tickets_report, s.TicketsRow),
        Report("players", "Players", players.players_report, s.PlayersRow),
    )
}
