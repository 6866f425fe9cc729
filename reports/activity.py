"""The room's activity: the tables' play by game, and the tournaments run.

Hands are counted from the hand rows (projections of the hand streams,
rebuilt from them) grouped by table in SQL, players from the hands' first
events (``reports.dealt``); tournaments from their rows and their money
from the ledger, each grouped in SQL.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping
from typing import Any, TypeVar

from django.db.models import Count, Max, Min, Q, Sum
from django.db.models.functions import Coalesce

from accounts import ledger
from accounts.models import Account, Entry, Transfer
from poker.models import Hand, Table
from reports.dealt import dealt_in
from reports.money import income_report
from reports.period import Period
from reports.sources import INCOME
from tournaments.models import StepChain, Tournament
from tournaments.rules.flights import flight_label

K = TypeVar("K")

CASH = "cash"
TOURNAMENT = "tournament"


def tables_report(*, period: Period) -> list[dict[str, Any]]:
    """Play at the tables in ``period``, by game and kind of table (cash or
    tournament): the tables that dealt, the players dealt in, the hands,
    the hours the tables dealt (each table's first hand's start to its last
    hand's end), hands per such hour, the pots of the hands that ended (the
    chips put in, rake included), and ``house``: what the house earned at
    the game's cash tables (the income report's rows naming a table: the
    rake, the casino's result)."""
    per_table = (
        Hand.objects.filter(period.during("started_at"))
        .values("table_id", "table__game", "table__tournament")
        .annotate(
            hands=Count("id"),
            first=Min("started_at"),
            last=Max(Coalesce("ended_at", "started_at")),
            ended=Count("ended_at"),
            pots=Sum("pot", filter=Q(ended_at__isnull=False)),
        )
        .order_by()
    )
    games: dict[tuple[str, str], dict[str, Any]] = defaultdict(
        lambda: {"tables": 0, "hands": 0, "seconds": 0.0, "ended": 0, "pots": 0}
    )
    for row in per_table:
        kind = CASH if row["table__tournament"] is None else TOURNAMENT
        game = games[(row["table__game"], kind)]
        game["tables"] += 1
        game["hands"] += row["hands"]
        game["seconds"] += (row["last"] - row["first"]).total_seconds()
        game["ended"] += row["ended"]
        game["pots"] += int(row["pots"] or 0)
    players = dict(
        ((game, CASH if cash else TOURNAMENT), count)
        for game, cash, count in dealt_in(
            period=period,
            select="t.game, t.tournament IS NULL, COUNT(DISTINCT {player})",
            group="t.game, t.tournament IS NULL",
        )
    )
    house: dict[str, int] = defaultdict(int)
    for line in income_report(period=period):
        if line["subject"] not in ("", "tournament"):  # a table of some kind
            house[line["game"]] += line["amount"]
            games[(line["game"], CASH)]  # a game with income and no hands is a row too
    return [
        {
            "game": game,
            "kind": kind,
            "tables": g["tables"],
            "players": players.get((game, kind), 0),
            "hands": g["hands"],
            "hours": round(g["seconds"] / 3600, 2),
            "hands_per_hour": round(g["hands"] * 3600 / g["seconds"], 1) if g["seconds"] else None,
            "pots": g["pots"],
            "average_pot": round(g["pots"] / g["ended"], 1) if g["ended"] else None,
            "house": house.get(game, 0) if kind == CASH else 0,
        }
        for (game, kind), g in sorted(games.items())
    ]


def floor_report(*, period: Period) -> list[dict[str, Any]]:
    """The room as it is now, whatever the period: the tables running (open
    or closing) by game and kind, the players seated at them, and the hands
    in progress."""
    running = (
        Table.objects.exclude(status=Table.Status.CLOSED)
        .annotate(cash=Q(tournament__isnull=True))
        .values("game", "cash")
        .annotate(
            tables=Count("id"),
            players=Sum("players_seated"),
            running_hands=Count(
                "id", filter=Q(current_hand__ended_at__isnull=True, current_hand__isnull=False)
            ),
        )
        .order_by("game", "-cash")
    )
    return [
        {
            "game": row["game"],
            "kind": CASH if row["cash"] else TOURNAMENT,
            "tables": row["tables"],
            "players": int(row["players"] or 0),
            "hands": row["running_hands"],
        }
        for row in running
    ]


ENTRY_KINDS = next(s.transfers for s in INCOME if s.name == "tournament_fees")
"""The transfers of a tournament's entries (registrations, tickets spent,
rebuys and add-ons, less the entries refunded): each pays into its prize
pool and its fee to the house."""
POOL_SUMS = {
    "collected": ENTRY_KINDS,
    "paid": frozenset({Transfer.Kind.PRIZE, Transfer.Kind.TICKET_AWARD}),
    "carried": frozenset({Transfer.Kind.FLIGHT_CARRY}),
}
"""A prize pool's entries summed: what the entries paid in, what it paid
out (cash prizes and satellite seats), what a multi-flight event's days
carried (a flight's pool out, negative; Day 2's in from the flights)."""
HOUSE_SUMS = {
    "fees": ENTRY_KINDS,
    "given": frozenset({Transfer.Kind.TICKET_AWARD, Transfer.Kind.OVERLAY}),
}
"""The house's entries for a tournament summed: its fees, and its own
money given to the tournament (tickets into it, a guarantee's overlay held
in its pool, less what went back)."""


def tournaments_report(*, period: Period) -> list[dict[str, Any]]:
    """The tournaments that started in ``period``: their entrants and
    entries (rows), and from the ledger the prize pool they collected, what
    they paid out, the house's fees, and the overlay: the house's own
    money in the tournament (the tickets it gave away into it, and what it
    paid to make a guarantee: while the tournament runs, the guarantee it
    holds there).  A multi-flight event's flights and its Day 2 name the
    event and their day, and what their pools carried: each flight's pool
    out to Day 2, Day 2's in from the flights."""
    rows = list(
        Tournament.objects.filter(period.during("started_at"))
        .annotate(entrant_count=Count("entrants"))
        .order_by("started_at", "pk")
        .values(
            "pk", "name", "game", "status", "started_at", "entrant_count", "entries",
            "flight_event_id", "flight_event__name", "flight",
        )
    )  # fmt: skip
    ids = [row["pk"] for row in rows]
    pools = _sums({ledger.pool(pk).key: pk for pk in ids}, "account__key", POOL_SUMS)
    house = _sums(
        {f"tournament:{pk}": pk for pk in ids},
        "transfer__ref",
        HOUSE_SUMS,
        Q(account__key=ledger.house().key),
    )
    return [
        {
            "tournament": row["pk"],
            "name": row["name"],
            "game": row["game"],
            "status": row["status"],
            "started_at": row["started_at"],
            "entrants": row["entrant_count"],
            "entries": row["entries"],
            "prize_pool": pools[row["pk"]]["collected"],
            "prizes": -pools[row["pk"]]["paid"],
            "fees": house[row["pk"]]["fees"],
            "overlay": -house[row["pk"]]["given"],
            "flight_event": row["flight_event_id"],
            "event": row["flight_event__name"] or "",
            "day": "" if row["flight"] is None else flight_label(row["flight"]),
            "carried": pools[row["pk"]]["carried"],
        }
        for row in rows
    ]


def _sums(
    keys: Mapping[str, K], field: str, sums: Mapping[str, frozenset[str]], *where: Q
) -> defaultdict[K, dict[str, int]]:
    """For each of ``keys``' values (keyed by the entries' ``field``), the
    amounts of its entries (those ``where`` also picks) summed by each of
    ``sums``'s kinds of transfer (0 for none)."""
    by_kind = {
        name: Sum("amount", filter=Q(transfer__kind__in=sorted(kinds)))
        for name, kinds in sums.items()
    }
    rows = (
        Entry.objects.filter(*where, **{f"{field}__in": keys})
        .values(field)
        .annotate(**by_kind)
        .order_by()
    )
    out: defaultdict[K, dict[str, int]] = defaultdict(lambda: dict.fromkeys(sums, 0))
    for row in rows:
        out[keys[row[field]]] = {name: int(row[name] or 0) for name in sums}
    return out


TICKET_MOVES = {
    "awarded": frozenset({Transfer.Kind.TICKET_AWARD}),
    "spent": frozenset({Transfer.Kind.TICKET_SPEND}),
    "returned": frozenset({Transfer.Kind.UNREGISTRATION}),
    "cashed_out": frozenset({Transfer.Kind.TICKET_REFUND}),
}
"""How tickets move, by the kind of transfer that moves them."""


def tickets_report(*, period: Period) -> list[dict[str, Any]]:
    """Tickets by what they enter (a tournament, or a step of a step
    satellite chain): how many were awarded, spent on entries, given back
    by unregistrations and cashed out in the period, how many are
    outstanding now (held, not yet spent), and the money backing them."""
    issued = Account.objects.filter(kind=Account.Kind.TICKETS_ISSUED).order_by("ref")
    tickets = {ledger.tickets_issued(a.ref).key: a for a in issued}
    moved = _sums(tickets, "account__key", TICKET_MOVES, period.during("transfer__created_at"))
    reserves = dict(
        Account.objects.filter(kind=Account.Kind.TICKET_RESERVE).values_list("ref", "balance")
    )
    return [
        {
            "ticket": a.ref,
            "enters": _ticket_name(a.ref),
            **{name: abs(moved[a][name]) for name in TICKET_MOVES},
            "outstanding": -a.balance,
            "backing": int(reserves.get(a.ref, 0)),
        }
        for a in tickets.values()
    ]


def _ticket_name(ref: str) -> str:
    """What a ticket enters, named: a tournament, or a chain's step."""
    if ref.isdigit():
        row = Tournament.objects.filter(pk=int(ref)).values_list("name", flat=True).first()
        return row or ""
    chain, step = ref.removeprefix("step-").split("-")
    name = StepChain.objects.filter(pk=int(chain)).values_list("name", flat=True).first()
    return f"{name or ''}, step {step}"
