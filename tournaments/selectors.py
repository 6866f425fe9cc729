"""The read side of tournaments: the lobby, one tournament with its
structure and prizes, entrants, standings and results.

Everything here is public but a viewer's own entry (what he paid, whether
he may rebuy now): nobody sees another player's money, and nothing here
reads a wallet.  Lines come from the read models; what needs the rules
(the clock, the prizes as they stand, standings) from the folded stream.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, TypedDict

from django.contrib.auth import get_user_model
from django.db.models import F, QuerySet

from poker.engine.table.config import setting
from poker.models import Table
from tournaments import timing
from tournaments.models import Entrant, Tournament
from tournaments.rules import (
    Structure,
    TournamentDefinition,
    TournamentState,
    can_add_on,
    can_rebuy,
    definition_from_json,
)
from tournaments.rules import queries as q
from tournaments.rules.definition import CLOCK_SETTINGS
from tournaments.timing import blinds_view, clock_view, seconds

STANDINGS_IN_FRAME = 50
"""Places a live frame carries (the REST standings have them all)."""


def tournament_list(*, status: str | None = None) -> QuerySet[Tournament]:
    """The lobby: soonest first, tournaments still to come before the rest."""
    rows = Tournament.objects.all()
    if status:
        rows = rows.filter(status=status)
    return rows.order_by("starts_at", "id")


def state_of(row: Tournament) -> TournamentState:
    """The tournament's state as of its row's version."""
    from tournaments.work import folds

    return folds.state(row.stream, row.version)


def iso(at: datetime | None) -> str | None:
    """An instant as clients see it (ISO 8601, UTC), the same over REST and
    WebSockets."""
    return None if at is None else at.isoformat()


def registration_open(row: Tournament) -> bool:
    """Entries are taken: before the start, or in late registration
    (through level L and the break after it).  Never for a multi-flight
    event's Day 2, whose players come from the flights."""
    if row.flight == 0:
        return False
    if row.status == Tournament.Status.REGISTERING:
        return True
    late = row.definition.get("late_registration_level")
    return row.status == Tournament.Status.RUNNING and late is not None and row.level <= late


def tournament_summary(row: Tournament) -> dict[str, Any]:
    """One lobby line (public)."""
    d = row.definition
    return {
        "id": row.pk,
        "name": row.name,
        "status": row.status,
        "game": row.game,
        "betting": row.betting,
        "buy_in": row.buy_in,
        "fee": row.fee,
        "starting_stack": row.starting_stack,
        "sit_and_go": row.sit_and_go,
        "satellite_target": row.satellite_target or None,
        "starts_at": iso(row.starts_at),
        "started_at": iso(row.started_at),
        "min_players": d.get("min_players"),
        "max_players": d.get("max_players"),
        "entries": row.entries,
        "players_left": row.players_left,
        "prize_pool": row.prize_pool,
        "guarantee": d.get("guarantee", 0),
        "registration_open": registration_open(row),
        "level": row.level,
        "on_break": row.on_break,
        "level_ends_at": iso(row.level_ends_at),
        "tables": row.tables,
    }


def tournament_detail(
    row: Tournament, viewer: Any, state: TournamentState | None = None
) -> dict[str, Any]:
    """One tournament: its line, its structure and options, the prizes as
    the pool stands, the clock, and the viewer's own entry."""
    state = state or state_of(row)
    definition = definition_from_json(row.definition)
    table_ids = _table_ids(row)
    return {
        **tournament_summary(row),
        "version": row.version,
        "seats_per_table": row.seats_per_table,
        "late_registration_level": definition.late_registration_level,
        "re_entries": definition.re_entries,
        "rebuys": row.definition.get("rebuys"),
        "satellite": row.definition.get("satellite"),
        "bounty": row.definition.get("bounty"),
        "structure": structure_view(definition.structure),
        "table_clocks": table_clocks(definition),
        "prizes": prizes(state),
        "hand_for_hand": row.hand_for_hand,
        "final_table": row.final_table,
        "clock": clock_view(state, seconds(timing.now())),
        "tables_in_play": tables_in_play(state, table_ids),
        "deal": deal_view(state),
        "flight_event": flight_event_of(row),
        "you": own_entry(state, viewer, table_ids),
    }


def flight_event_of(row: Tournament) -> dict[str, Any] | None:
    """The multi-flight event a flight or Day 2 belongs to (None: none)."""
    event = row.flight_event  # None without a query when the key is null
    if event is None:
        return None
    return {"id": event.pk, "name": event.name, "flight": row.flight}


def deal_view(state: TournamentState) -> dict[str, Any] | None:
    """The deal offered or made at the final table (None: none)."""
    offer = state.deal_offer
    shown = offer or state.deal
    if shown is None:
        return None
    return {
        "status": "offered" if offer is not None else "made",
        "kind": offer.kind if offer is not None else None,
        "amounts": [{"player": int(a.player), "amount": a.amount} for a in shown.amounts],
        "left_to_play": shown.left_to_play,
        "accepted": sorted(int(p) for p in state.deal_accepted),
    }


def table_clocks(definition: TournamentDefinition) -> dict[str, int]:
    """The clocks its tables run: the tournament's, else the table defaults."""
    given = definition.clocks.given()
    return {name: given.get(name, setting(name).default) for name in CLOCK_SETTINGS}


def _table_ids(row: Tournament) -> dict[int, int]:
    """The poker table of each of the tournament's table numbers in play."""
    tables = Table.objects.filter(tournament=row.pk).exclude(status=Table.Status.CLOSED)
    numbered = tables.values_list("tournament_table", "pk")
    return {number: pk for number, pk in numbered if number is not None}


def tables_in_play(state: TournamentState, table_ids: dict[int, int]) -> list[dict[str, Any]]:
    """The tables being played: number, the poker table to watch
    (``/api/tables/{table_id}/``, ``ws/tables/{table_id}/``), players."""
    return [
        {"number": n, "table_id": table_ids.get(n), "players": len(state.tables[n].seats)}
        for n in sorted(state.tables)
    ]


def structure_view(structure: Structure) -> dict[str, Any]:
    """The levels (numbered from 1) and the breaks after them."""
    levels = [
        {**blinds_view(n, level), "minutes": level.minutes}
        for n, level in enumerate(structure.levels, start=1)
    ]
    breaks = [{"after_level": b.after_level, "minutes": b.minutes} for b in structure.breaks]
    return {"levels": levels, "breaks": breaks, "minute_seconds": structure.minute_seconds}


def prizes(state: TournamentState) -> list[dict[str, Any]]:
    """The prize of each paid place as the pool stands (final once
    registration, rebuys and add-ons are over)."""
    return [
        {"place": n, "cash": p.cash, "ticket": p.ticket, "consolation": p.into}
        for n, p in enumerate(q.prizes(state), start=1)
    ]


def own_entry(
    state: TournamentState, viewer: Any, table_ids: dict[int, int]
) -> dict[str, Any] | None:
    """The viewer's entry as he alone sees it (None: no entry, or no
    viewer); ``table_ids``: the poker table of each table number."""
    if viewer is None or not getattr(viewer, "is_authenticated", False):
        return None
    e = state.entrant(str(viewer.pk))
    if e is None:
        return None
    return {
        "entries": e.entries,
        "stack": e.stack,
        "table": e.table,
        "table_id": table_ids.get(e.table) if e.table is not None else None,
        "seat": e.seat,
        "rebuys": e.rebuys,
        "added_on": e.added_on,
        "paid": e.paid,
        "bounty": e.bounty,
        "bounty_won": e.bounty_won,
        "in": e.alive,
        "disqualified": e.disqualified,
        "may_rebuy": can_rebuy(state, e.player),
        "may_add_on": can_add_on(state, e.player),
        "rebuy_until": iso(timing.moment(e.rebuy_until)),
    }


def names(players: list[str] | list[int]) -> dict[str, str]:
    """Screen names by player id (never a login name); pairs, not users
    (a frame's standings name fifty players: no model built for each)."""
    rows = get_user_model().objects.filter(pk__in=[int(p) for p in players])
    return {str(pk): name for pk, name in rows.values_list("pk", "screen_name")}


SCREEN_NAME = F("player__screen_name")
"""An entrant's screen name (never his login name)."""


def entrants(row: Tournament) -> list[dict[str, Any]]:
    """Everyone who entered: status, chips, seat (no money)."""
    rows = Entrant.objects.filter(tournament=row).order_by("player_id")
    columns = ("status", "entries", "stack", "table", "seat", "rebuys", "added_on")
    return list(rows.values("player", *columns, "bounty", "bounty_won", name=SCREEN_NAME))


def standings(state: TournamentState, limit: int | None = None) -> list[dict[str, Any]]:
    """Places as they stand (the final ones once play is over): players
    still in by chips, then the busts, latest first."""
    if state.standings:
        placed = state.standings[:limit] if limit is not None else state.standings
    elif limit is not None:
        placed = q.leading_standings(state, limit)
    else:
        placed = q.current_standings(state)
    shown = names([s.player for s in placed])
    return [
        {
            "place": s.place,
            "shared": s.shared,
            "player": int(s.player),
            "name": shown.get(s.player, ""),
            "stack": state.entrants[s.player].stack,
            "in": state.entrants[s.player].alive,
            "bounty": state.entrants[s.player].bounty,
            "bounty_won": state.entrants[s.player].bounty_won,
        }
        for s in placed
    ]


def results(row: Tournament) -> list[dict[str, Any]]:
    """Final places and what each won, best first (empty before the end)."""
    if row.status != Tournament.Status.FINISHED:
        return []
    rows = Entrant.objects.filter(tournament=row, place__isnull=False)
    columns = ("place", "player", "prize", "ticket", "consolation", "bounty_won")
    return list(rows.order_by("place", "player_id").values(*columns, name=SCREEN_NAME))


class Live(TypedDict):
    """What a live frame says of the tournament (``live``)."""

    status: str
    clock: dict[str, Any] | None
    entries: int
    players_left: int
    average_stack: int
    prize_pool: int
    standings: list[dict[str, Any]]


def live(state: TournamentState, now: int) -> Live:
    """What a live frame says of the tournament: the clock, players left,
    the average stack and the standings at the top (the counts from the
    state's tally: a frame follows every hand of a field of hundreds)."""
    left, chips = state.tally.left, state.tally.chips
    return {
        "status": state.status.value,
        "clock": clock_view(state, now),
        "entries": state.entries,
        "players_left": left,
        "average_stack": chips // left if left else 0,
        "prize_pool": q.prize_pool(state),
        "standings": standings(state, STANDINGS_IN_FRAME),
    }


def tournament_names(ids: set[int]) -> dict[int, str]:
    """The names of the tournaments ``ids`` (for the ledger's references)."""
    return dict(Tournament.objects.filter(pk__in=ids).values_list("pk", "name"))
