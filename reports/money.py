"""The house's money: its income by day, source, table and tournament, and
the cashier's deposits and withdrawals by day.  One GROUP BY over the
ledger's entries for each (``reports.sources`` says which entries)."""

from __future__ import annotations

from functools import reduce
from operator import or_
from typing import Any

from django.db.models import Case, CharField, Count, Q, Sum, Value, When
from django.db.models.functions import TruncDate

from accounts.models import Entry
from reports.period import Period
from reports.sources import CASHIER, INCOME, Source
from reports.subjects import Subject, subject_of, subjects_named


def income_report(*, period: Period) -> list[dict[str, Any]]:
    """The house's income in ``period``: one row a day, source and subject
    (the table or tournament its transfers name), with the amount and the
    transfers that made it.  A tournament's overlay line
    (``tournament_overlays``) is the ``overlay`` transfers between the
    house's account and its pool: the whole guarantee out on the day the
    tournament is created (days ahead for a schedule's), what the pool did
    not need back on the day its prizes are awarded, all of it back if it
    is called off; the tournaments report shows the overlay net."""
    return _flows(period, INCOME)


def cashier_report(*, period: Period) -> list[dict[str, Any]]:
    """Money into the room (deposits) and out of it (withdrawals) in
    ``period``: one row a day and source."""
    return _flows(period, CASHIER)


def _matches(source: Source) -> Q:
    return Q(account__kind=source.account, transfer__kind__in=sorted(source.transfers))


def _flows(period: Period, sources: tuple[Source, ...]) -> list[dict[str, Any]]:
    """The entries of ``sources`` in ``period``, summed by day, source and
    subject (the transfer's ``ref`` up to its ``@``)."""
    which = Case(
        *(When(_matches(s), then=Value(s.name)) for s in sources), output_field=CharField()
    )
    groups = (
        Entry.objects.filter(
            reduce(or_, map(_matches, sources)), period.during("transfer__created_at")
        )
        .annotate(
            day=TruncDate("transfer__created_at"),
            source=which,
            subject=subject_of("transfer__ref"),
        )
        .values("day", "source", "subject")
        .annotate(amount=Sum("amount"), transfers=Count("transfer", distinct=True))
        .order_by("day", "source", "subject")
    )
    rows = list(groups)
    named = subjects_named(row["subject"] for row in rows)
    sign = {s.name: s.sign for s in sources}
    merged: dict[tuple[Any, ...], dict[str, Any]] = {}
    for row in rows:  # refs naming one subject two ways (tournament:4, tournament-4) add up
        subject = named.get(row["subject"], Subject())
        key = (row["day"], row["source"], subject)
        line = merged.setdefault(key, _line(row["day"], row["source"], subject))
        line["amount"] += sign[row["source"]] * int(row["amount"])
        line["transfers"] += row["transfers"]
    order = {s.name: n for n, s in enumerate(sources)}
    return sorted(
        merged.values(),
        key=lambda r: (r["day"], order[r["source"]], r["subject"], r["subject_id"] or 0),
    )


def _line(day: Any, source: str, subject: Subject) -> dict[str, Any]:
    return {
        "day": day,
        "source": source,
        "subject": subject.kind,
        "subject_id": subject.id,
        "name": subject.name,
        "game": subject.game,
        "amount": 0,
        "transfers": 0,
    }
