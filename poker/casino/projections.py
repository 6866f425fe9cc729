"""The casino read models from the events: written with every append, and
rebuilt from the streams alone (``rebuild``, run by ``manage.py
rebuild_projections`` after poker's own)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Any

from django.db import transaction
from django.db.models import Max

from kernel import readmodels, statements
from kernel.eventstore import load
from kernel.eventstore import streams as stream_names
from kernel.models import Event
from poker.casino import streams
from poker.casino.models import CasinoBox, CasinoRound, CasinoTable, casino_feed, round_id
from poker.casino.work import CasinoWork
from poker.engine import casino
from poker.engine.casino.table import (
    CasinoTableConfig,
    CasinoTableState,
    RoundDealt,
    evolve_table,
)


def config_fields(config: CasinoTableConfig) -> dict[str, object]:
    """The table row's settings columns."""
    return {
        "name": config.name,
        "jokers": config.rules.jokers,
        "pay_table": config.rules.pay_table.to_json(),
        "min_bet": config.min_bet,
        "max_bet": config.max_bet,
        "boxes": config.boxes,
        "bet_seconds": config.bet_seconds,
        "decision_seconds": config.decision_seconds,
    }


def bet_until(
    before: CasinoTableState, after: CasinoTableState, at: datetime, was: datetime | None
) -> datetime | None:
    """When the betting window closes after a command at ``at``: it opens
    with the first bet of a round and closes with the deal."""
    if not after.bets:
        return None
    if before.bets and was is not None:
        return was
    return at + timedelta(seconds=after.config.bet_seconds)


BOXES = readmodels.Kind(CasinoBox, ("table_id", "number"), identity=("player_id",))
"""A table's box rows; a box another player took is another row."""


def table_values(state: CasinoTableState, until: datetime | None) -> dict[str, Any]:
    """The table row's columns that follow its state (``until``: when the
    betting window closes)."""
    return {
        "version": state.version,
        "status": "closed" if state.closed else "closing" if state.closing else "open",
        "round_number": state.round_number,
        "round_running": state.round_running,
        "bet_until": until,
        "exposure": state.exposure(),
        "players_seated": len(state.seats),
    }


def box_rows(table: int, state: CasinoTableState) -> readmodels.Rows:
    """The box rows of ``table`` as ``state`` says."""
    return {
        (table, n): {
            "player_id": int(s.player),
            "bet": s.bet,
            "held": s.held,
            "sitting_out": s.sitting_out,
            "leaving": s.leaving,
        }
        for n, s in state.seats.items()
    }


def round_values(
    state: casino.CasinoState, version: int, at: datetime, ended: datetime | None
) -> dict[str, Any]:
    """A round's row at ``version`` (its last event at ``at``; ``ended``:
    when it ended, if before): its phase, the box to act and since when."""
    return {
        "version": version,
        "phase": state.phase.value,
        "to_act": state.to_act,
        "turn_started_at": None if state.complete else at,
        "ended_at": ended or (at if state.complete else None),
    }


def write(
    work: CasinoWork, appending: Sequence[statements.Statement], using: str = "default"
) -> None:
    """The append (``appending``) and the rows ``work``'s events changed,
    unread, in one statement on PostgreSQL (a box emptied or taken by
    another player deletes its old row first, apart)."""
    table = work.table
    values = table_values(
        work.table_state, bet_until(work.table_start, work.table_state, work.now, table.bet_until)
    )
    values["position"] = table.position + len(work.recorded)
    writes = readmodels.update(table, values, using)
    gone, boxes = readmodels.changes(
        BOXES, box_rows(table.pk, work.table_start), box_rows(table.pk, work.table_state), using
    )
    for current in work.rounds:
        if current.events:
            row = current.row
            version = current.start + len(current.events)
            now = round_values(current.state, version, work.now, row.ended_at)
            if current.start == 0:  # dealt now
                writes.append(readmodels.saved(row, now, using))
            else:
                writes += readmodels.update(row, now, using)
    statements.execute(gone, using)
    statements.execute([*appending, *writes, *boxes], using)


def write_table(
    table: CasinoTable,
    state: CasinoTableState,
    until: datetime | None,
    position: int,
    using: str = "default",
) -> None:
    """The row of a table that exists (just opened, or rebuilt) and its box
    rows as ``state`` says, against the rows stored."""
    values = {**table_values(state, until), "position": position}
    statements.execute(readmodels.update(table, values, using), using)
    readmodels.rewrite(BOXES, box_rows(table.pk, state), using, table_id=table.pk)


# --------------------------------------------------------------------------
# Rebuild


def rebuild(using: str = "default") -> int:
    """Recompute every casino read model from the events, with the row
    functions of the commands; the number of streams."""
    count = 0
    with transaction.atomic(using=using):
        CasinoRound.objects.using(using).all().delete()
        for stream in stream_names("casino-table-", using=using):
            count += 1 + _rebuild_table(int(stream.removeprefix("casino-table-")), using)
    streams.forget()
    return count


def _rebuild_table(table_pk: int, using: str) -> int:
    rows = load(f"casino-table-{table_pk}", using=using)
    state: CasinoTableState | None = None
    until: datetime | None = None
    dealt: dict[int, tuple[list[int], datetime]] = {}
    for row in rows:
        event = streams.decode_table(row)
        before, state = state, evolve_table(state, event)
        if isinstance(event, RoundDealt):
            dealt[event.number] = (list(event.boxes), row.recorded_at)
        until = bet_until(before or state, state, row.recorded_at, until)
    assert state is not None
    tables = CasinoTable.objects.using(using)
    table = tables.filter(pk=table_pk).first()
    if table is None:
        table = tables.create(pk=table_pk, **config_fields(state.config))
    fed = Event.objects.using(using).filter(feed=casino_feed(table_pk))
    write_table(table, state, until, fed.aggregate(last=Max("position"))["last"] or 0, using)
    for number, (boxes, started) in sorted(dealt.items()):
        _rebuild_round(table, number, boxes, started, using)
    return len(dealt)


def _rebuild_round(
    table: CasinoTable, number: int, boxes: list[int], started: datetime, using: str
) -> None:
    pk = round_id(table.pk, number)
    rows = load(f"casino-round-{pk}", using=using)
    state = casino.replay(streams.decode_round(r) for r in rows)
    players = [int(box.name) for box in state.boxes]
    row = CasinoRound(
        pk, table=table, number=number, boxes=boxes, players=players, started_at=started
    )
    values = round_values(state, len(rows), rows[-1].recorded_at, None)
    statements.execute([readmodels.saved(row, values, using)], using)
