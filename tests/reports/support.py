"""Sums taken straight from the ledger's entries and the store's events,
row by row in Python, for the reports (which sum in SQL) to be checked
against."""

from __future__ import annotations

from collections import Counter, defaultdict
from datetime import timedelta
from typing import Any

from django.utils import timezone
from rest_framework.test import APIClient

from accounts.models import Entry, Transfer
from kernel.models import Event

Kind = Transfer.Kind


def around_today(days_before: int = 1) -> dict[str, str]:
    """A period from ``days_before`` days ago to tomorrow (a tournament's
    service clock runs an hour ahead)."""
    today = timezone.now().date()
    return {"from": str(today - timedelta(days=days_before)), "to": str(today + timedelta(days=1))}


def report(client: APIClient, name: str, **query: str) -> list[dict[str, Any]]:
    """The rows of report ``name`` (over ``around_today`` unless ``query``
    names a period)."""
    response = client.get(f"/api/reports/{name}/", {**around_today(), **query})
    assert response.status_code == 200, response.content
    rows: list[dict[str, Any]] = response.json()["rows"]
    return rows


def entries(**where: Any) -> list[Entry]:
    return list(Entry.objects.filter(**where).select_related("transfer", "account"))


def house_by_kind() -> dict[str, int]:
    """The house account's entries summed by the kind of their transfer."""
    sums: dict[str, int] = defaultdict(int)
    for entry in entries(account__key="house"):
        sums[entry.transfer.kind] += entry.amount
    return dict(sums)


def cash_by_player(*kinds: str, leave_out: tuple[str, ...] = ()) -> dict[int, int]:
    """Each player's cash entries summed (of ``kinds``, or of all kinds but
    ``leave_out``)."""
    sums: dict[int, int] = defaultdict(int)
    for entry in entries(account__kind="cash"):
        kind = entry.transfer.kind
        if (kinds and kind not in kinds) or kind in leave_out:
            continue
        sums[entry.account.user_id] += entry.amount
    return dict(sums)


def dealt() -> Counter[str]:
    """How many hands each player (by id) was dealt, from the hands' first events."""
    counts: Counter[str] = Counter()
    for event in Event.objects.filter(type="hand.started"):
        counts.update(player["name"] for player in event.data["players"])
    return counts


def pots_awarded() -> int:
    """Every chip every pot paid out."""
    return sum(e.data["amount"] for e in Event.objects.filter(type="hand.pot_awarded"))


def raked() -> int:
    """Every chip the house raked (``hand.raked``: none before the rake)."""
    return sum(e.data["amount"] for e in Event.objects.filter(type="hand.raked"))
