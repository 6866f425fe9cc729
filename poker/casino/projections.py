"""The casino read models from the events: written with every append, and
rebuilt from the streams alone (``rebuild``, run by ``manage.py
rebuild_projections`` after poker's own)."""

from __future__ import annotations

from datetime import datetime, timedelta

from django.db import transaction
from django.db.models import Max

from poker.casino import streams
from poker.casino.models import CasinoBox, CasinoRound, CasinoTable, casino_feed, round_id
from poker.casino.work import CasinoWork, RoundWork
from poker.engine import casino
from poker.engine.casino.table import (
    BetPlaced,
    CasinoTableConfig,
    CasinoTableState,
    RoundDealt,
    evolve_table,
)
from poker.eventstore import load
from poker.eventstore import streams as stream_names
from poker.models import Event


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


def write(work: CasinoWork) -> None:
    """The read models after ``work``'s events (appended just now)."""
    table = work.table
    table.position += len(work.recorded)
    until = bet_until(work.table_start, work.table_state, work.now, table.bet_until)
    write_table(table, work.table_state, until)
    for current in work.rounds:
        if current.events:
            write_round(current, work.now)


def write_table(
    table: CasinoTable, state: CasinoTableState, until: datetime | None, using: str = "default"
) -> None:
    table.version = state.version
    table.status = (
        CasinoTable.Status.CLOSED
        if state.closed
        else CasinoTable.Status.CLOSING
        if state.closing
        else CasinoTable.Status.OPEN
    )
    table.round_number = state.round_number
    table.round_running = state.round_running
    table.bet_until = until
    table.exposure = state.exposure()
    table.players_seated = len(state.seats)
    table.save(using=using)
    CasinoBox.objects.using(using).filter(table=table).delete()
    CasinoBox.objects.using(using).bulk_create(
        CasinoBox(
            table=table,
            number=n,
            player_id=int(s.player),
            bet=s.bet,
            held=s.held,
            sitting_out=s.sitting_out,
            leaving=s.leaving,
        )
        for n, s in sorted(state.seats.items())
    )


def write_round(current: RoundWork, at: datetime) -> None:
    """A round's row: its version, phase, the box to act and since when."""
    row, state = current.row, current.state
    row.version = current.start + len(current.events)
    row.phase = state.phase.value
    row.to_act = state.to_act
    row.turn_started_at = None if state.complete else at
    if state.complete and row.ended_at is None:
        row.ended_at = at
    row.save()


# --------------------------------------------------------------------------
# Rebuild


def rebuild(using: str = "default") -> int:
    """Recompute every casino read model from the events; the number of streams."""
    count = 0
    with transaction.atomic(using=using):
        CasinoRound.objects.using(using).all().delete()
        CasinoBox.objects.using(using).all().delete()
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
        before = state
        state = evolve_table(state, event)
        if isinstance(event, RoundDealt):
            dealt[event.number] = (list(event.boxes), row.recorded_at)
        if isinstance(event, BetPlaced) and before is not None and not before.bets:
            until = row.recorded_at + timedelta(seconds=state.config.bet_seconds)
        if not state.bets:
            until = None
    assert state is not None
    table = CasinoTable.objects.using(using).filter(pk=table_pk).first()
    if table is None:
        table = CasinoTable(pk=table_pk, **config_fields(state.config))
    fed = Event.objects.using(using).filter(feed=casino_feed(table_pk))
    table.position = fed.aggregate(last=Max("position"))["last"] or 0
    write_table(table, state, until, using)
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
    row.version = len(rows)
    row.phase = state.phase.value
    row.to_act = state.to_act
    last = rows[-1].recorded_at
    row.turn_started_at = None if state.complete else last
    row.ended_at = last if state.complete else None
    row.save(using=using)
