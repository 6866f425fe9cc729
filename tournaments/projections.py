"""Tournament read models from the tournament's stream: ``Tournament`` and
``Entrant`` rows.

Every row is a function of the folded stream (and the time of its first
event), so the same function serves each command, in its transaction, and
``rebuild``, which replays the whole log.  Events are stored in the cash
tables' append-only log (``kernel.eventstore``), one stream per tournament,
through the rules' JSON codec.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from django.db import transaction

from kernel import readmodels, statements
from kernel.eventstore import NewEvent, Recorded, load
from kernel.eventstore import streams as stream_names
from tournaments.models import Entrant, Tournament, tournament_stream
from tournaments.rules import Entrant as Entry
from tournaments.rules import (
    Status,
    TournamentEvent,
    TournamentState,
    definition_to_json,
    replay,
    tournament_event_from_json,
    tournament_event_to_json,
)
from tournaments.rules import queries as q
from tournaments.timing import deadline, moment

STREAM_PREFIX = "tournament-"


def encode(events: Sequence[TournamentEvent]) -> list[NewEvent]:
    """Tournament events as rows to append."""
    out = []
    for event in events:
        data = tournament_event_to_json(event)
        out.append(NewEvent(data.pop("type"), data))
    return out


def decode(row: Recorded) -> TournamentEvent:
    """A stored tournament event back as the rules' dataclass."""
    return tournament_event_from_json({"type": row.type, **row.data})


def fold(tournament_id: int, using: str = "default") -> TournamentState:
    """The state of a tournament from its whole stream."""
    return replay(decode(row) for row in load(tournament_stream(tournament_id), using=using))


def tournament_fields(state: TournamentState, definition: bool = True) -> dict[str, Any]:
    """The Tournament columns as ``state`` says (without ``definition``:
    all but the definition's JSON, for a row that has it already)."""
    d = state.definition
    running = state.status is Status.RUNNING
    fields: dict[str, Any] = {
        "name": state.name,
        "status": state.status.value,
        "game": d.game.value,
        "betting": d.betting.value,
        "buy_in": d.buy_in,
        "fee": d.fee,
        "starting_stack": d.starting_stack,
        "seats_per_table": d.seats_per_table,
        "satellite_target": d.satellite.target if d.satellite else "",
        "sit_and_go": d.sit_and_go,
        "starts_at": moment(state.starts_at),
        "started_at": moment(state.started_at),
        "version": state.version,
        "entries": state.entries,
        "players_left": q.players_left(state),
        "prize_pool": q.prize_pool(state),
        "level": q.level(state),
        "on_break": running and q.on_break(state),
        "clock_running": running and state.clock.since is not None,
        "level_ends_at": moment(deadline(state)),
        "tables": len(state.tables),
        "hand_for_hand": state.hand_for_hand,
        "final_table": running and len(state.tables) == 1,
    }
    if definition:
        fields["definition"] = definition_to_json(d)
    return fields


def write_tournament(
    row: Tournament,
    state: TournamentState,
    *,
    before: TournamentState | None = None,
    created_at: datetime | None = None,
    using: str = "default",
    writes: Sequence[statements.Statement] = (),
) -> None:
    """The tournament row and its entrant rows as ``state`` says;
    ``created_at`` when writing the stream's first event (its record time,
    which ``rebuild`` uses too).  With ``before`` (the state the rows were
    written from, ``row`` as read with it) only the columns and the
    entrants that changed are written: a hand's report touches a few
    players of a field of hundreds, and never the definition: in one
    statement with ``writes`` (an append made ready), on PostgreSQL."""
    if before is None:
        statements.execute(writes, using)
        for name, value in tournament_fields(state).items():
            setattr(row, name, value)
        if created_at is not None:
            row.created_at = created_at
        row.save(using=using)
        readmodels.rewrite(ENTRANTS, entrant_rows(row.pk, state), using, tournament_id=row.pk)
        return
    fields = tournament_fields(state, definition=before.definition is not state.definition)
    touched = _touched(before, state)
    gone, entrants = readmodels.changes(
        ENTRANTS,
        entrant_rows(row.pk, before, touched),
        entrant_rows(row.pk, state, touched),
        using,
    )
    statements.execute(gone, using)  # rare: an entry withdrawn
    statements.execute([*writes, *readmodels.update(row, fields, using), *entrants], using)


ENTRANTS = readmodels.Kind(Entrant, ("tournament_id", "player_id"))
"""A tournament's entrant rows."""


def entrant_rows(
    tournament: int, state: TournamentState, players: set[str] | None = None
) -> readmodels.Rows:
    """The entrant rows of ``tournament`` (of ``players`` only, if given)
    as ``state`` says."""
    return {(tournament, int(p)): v for p, v in entrant_fields(state, players).items()}


def entrant_fields(
    state: TournamentState, players: set[str] | None = None
) -> dict[str, dict[str, Any]]:
    """The Entrant columns of every player (or of ``players``: a hand's
    few, looked up rather than found in a field of hundreds), by player id."""
    places = {s.player: s.place for s in state.standings}
    awards = {a.player: a for a in state.awards or ()}
    entrants = state.entrants
    chosen = entrants.items() if players is None else _some(entrants, players)
    out = {}
    for player, e in chosen:
        status = Entrant.Status.IN
        if e.disqualified:
            status = Entrant.Status.DISQUALIFIED
        elif e.out:
            status = Entrant.Status.OUT
        won = awards.get(player)
        out[player] = {
            "status": status.value,
            "entries": e.entries,
            "stack": e.stack,
            "table": e.table,
            "seat": e.seat,
            "rebuys": e.rebuys,
            "added_on": e.added_on,
            "paid": e.paid,
            "place": places.get(player),
            "prize": won.cash if won else 0,
            "ticket": bool(won and won.ticket),
            "consolation": won.into if won else "",
            "bounty": e.bounty,
            "bounty_won": e.bounty_won,
        }
    return out


def _some(entrants: Mapping[str, Entry], players: set[str]) -> list[tuple[str, Entry]]:
    """These players' entries (those that exist), by player id."""
    return [(p, entrants[p]) for p in sorted(players) if p in entrants]


def _touched(before: TournamentState, state: TournamentState) -> set[str]:
    """The players whose columns may differ: those whose entry is a new
    object (``evolve`` keeps the others as they were), or everyone once the
    places and prizes are decided."""
    if before.standings != state.standings or before.awards != state.awards:
        return set(before.entrants) | set(state.entrants)
    changed = {p for p, e in state.entrants.items() if before.entrants.get(p) is not e}
    return changed | (set(before.entrants) - set(state.entrants))


def rebuild(using: str = "default") -> int:
    """Recompute every tournament's rows from the log; the number of streams."""
    count = 0
    with transaction.atomic(using=using):
        for stream in stream_names(STREAM_PREFIX, using=using):
            pk = int(stream.removeprefix(STREAM_PREFIX))
            rows = load(stream, using=using)
            state = replay(decode(r) for r in rows)
            row = Tournament.objects.using(using).filter(pk=pk).first() or Tournament(pk=pk)
            write_tournament(row, state, created_at=rows[0].recorded_at, using=using)
            count += 1
    return count
