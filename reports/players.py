"""Each player's play in a period: hands dealt, tournaments and their
results, money won and lost, the rake he paid, and when he was last seen.

Three GROUP BY queries, each by player: the hands' first events
(``reports.dealt``), the entrant rows of the tournaments that started in
the period, and the ledger entries of the players' cash
(``reports.sources`` says which transfers are the tables' and the
tournaments'); and one read of the raked hands' events, shared out in
Python (``reports.rake``: no query sums a pot's contributors).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from datetime import UTC
from typing import Any

from django.contrib.auth import get_user_model
from django.db.models import Count, Max, Min, Q, Sum
from django.utils.dateparse import parse_datetime

from accounts.models import Account, Entry
from reports.dealt import dealt_in
from reports.period import Period
from reports.rake import rake_paid
from reports.sources import CASHIER_KINDS, PLAYER_TABLES, PLAYER_TOURNAMENTS
from tournaments.models import Entrant

ZERO: dict[str, Any] = {
    "hands": 0,
    "tournaments": 0,
    "entries": 0,
    "cashes": 0,
    "best_place": None,
    "prizes": 0,
    "tables_net": 0,
    "tournaments_net": 0,
    "net": 0,
    "rake_paid": 0,
}


def players_report(*, period: Period) -> list[dict[str, Any]]:
    """Every player who played in ``period`` (dealt a hand, in a tournament
    that started in it, or moved cash to or from a table or tournament):

    - ``hands``: hands dealt to him, at cash and tournament tables;
    - ``tournaments``, ``entries``, ``cashes``, ``best_place``, ``prizes``:
      the tournaments that started in the period he entered, his entries
      (rebuys included), those he won money or a seat in, his best place,
      the cash he won there;
    - ``tables_net``, ``tournaments_net``: his cash back from the cash
      tables and tournaments less his cash into them, in the period
      (chips still on a table count when he leaves it);
    - ``net``: every movement of his cash in the period but the cashier's;
    - ``rake_paid``: his part of the rake of the cash hands that ended in
      the period, "contributed" rake: each pot's rake shared among the
      players who put chips into that pot (folded or not), in proportion
      to their chips in it, in whole chips (the odd ones to the largest
      remainders, a tie to the seat first left of the button), so the
      players' parts add up to the rake exactly;
    - ``last_seen``: the latest of his last login, the last hand dealt to
      him in the period and his cash's last movement in it.
    """
    found: dict[int, dict[str, Any]] = {}

    def of(player: int) -> dict[str, Any]:
        return found.setdefault(player, dict(ZERO))

    seen: dict[int, Any] = {}

    def saw(player: int, at: Any) -> None:
        if at is not None:
            seen[player] = max(seen[player], at) if player in seen else at

    dealt = dealt_in(
        period=period, select="{player}, COUNT(*), MAX(h.started_at)", group="{player}"
    )
    for player, hands, last in dealt:
        if str(player).isdigit():  # a player's id (hand scripts name players otherwise)
            of(int(player))["hands"] = hands
            saw(int(player), _moment(last))
    for row in _tournaments(period):
        of(row["player_id"]).update({k: v for k, v in row.items() if k != "player_id"})
    for player, chips in rake_paid(period=period).items():
        of(player)["rake_paid"] = chips
    for row in _money(period):
        player = row.pop("account__user_id")
        saw(player, row.pop("last"))
        of(player).update(row)
    users = (
        get_user_model()
        .objects.filter(pk__in=found)
        .values_list("pk", "username", "screen_name", "last_login")
    )
    out = []
    for pk, username, screen_name, login in sorted(users):
        saw(pk, login)
        out.append(
            {"player": pk, "username": username, "screen_name": screen_name,
             **found[pk], "last_seen": seen.get(pk)}
        )  # fmt: skip
    return out


def _moment(value: Any) -> Any:
    """A time from raw SQL: SQLite gives text, PostgreSQL a datetime."""
    if isinstance(value, str):
        parsed = parse_datetime(value)
        return parsed if parsed is None or parsed.tzinfo else parsed.replace(tzinfo=UTC)
    return value


def _tournaments(period: Period) -> Iterable[Mapping[str, Any]]:
    return (
        Entrant.objects.filter(period.during("tournament__started_at"))
        .values("player_id")
        .annotate(
            tournaments=Count("id"),
            entries=Sum("entries"),
            cashes=Count("id", filter=Q(prize__gt=0) | Q(ticket=True)),
            best_place=Min("place"),
            prizes=Sum("prize"),
        )
        .order_by()
    )


def _money(period: Period) -> Iterable[dict[str, Any]]:
    rows = (
        Entry.objects.filter(period.during("transfer__created_at"), account__kind=Account.Kind.CASH)
        .exclude(transfer__kind__in=sorted(CASHIER_KINDS))
        .values("account__user_id")
        .annotate(
            tables_net=Sum("amount", filter=Q(transfer__kind__in=sorted(PLAYER_TABLES))),
            tournaments_net=Sum("amount", filter=Q(transfer__kind__in=sorted(PLAYER_TOURNAMENTS))),
            net=Sum("amount"),
            last=Max("transfer__created_at"),
        )
        .order_by()
    )
    for row in rows:
        yield {k: v if k in ("account__user_id", "last") else (v or 0) for k, v in row.items()}
