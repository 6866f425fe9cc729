"""Read models from domain states: ``Table``, ``Seat`` and ``Hand`` rows.

Every row is a function of the folded streams (and the times their events
were recorded), so the same functions serve each command, in its
transaction, and ``rebuild``, which replays the whole log.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from django.db import transaction
from django.db.models import Count, Max, Sum

from kernel import readmodels, statements
from kernel.eventstore import Recorded, load
from kernel.eventstore import streams as stream_names
from kernel.folds import Folds
from kernel.models import Event
from poker import streams
from poker.engine.state import HandState
from poker.engine.table import (
    HandBegan,
    HandFinished,
    SeatState,
    TableConfig,
    TableState,
    evolve_table,
)
from poker.engine.table.clock import turn_started
from poker.models import Hand, Seat, Table, hand_id, hand_stream

if TYPE_CHECKING:
    from poker.work import Work


def config_fields(config: TableConfig) -> dict[str, Any]:
    """The Table columns that come from its configuration: one per setting,
    named as the setting (``TableConfig.settings``)."""
    return config.settings()


def write(
    work: Work, recorded: list[Recorded], appending: Sequence[statements.Statement] = ()
) -> None:
    """Rewrite the rows a command's events changed, with the append's own
    ``appending`` statements (the command and its events), in one
    statement on PostgreSQL (two when a seat is emptied or changes
    players: its old row goes first)."""
    if not recorded:
        statements.execute(appending)
        return
    at = recorded[-1].recorded_at
    gone: list[statements.Statement] = []
    updates: list[statements.Statement] = []
    folded: list[tuple[Folds[Any], str, int, Any]] = []
    for hand in work.hands:
        if hand.events:
            version = hand.start + len(hand.events)
            updates.append(
                write_hand(
                    hand.row,
                    hand.state,
                    version,
                    started=at if hand.start == 0 else None,
                    at=at,
                    turn_started=at if hand.turn_moved else None,
                )
            )
            folded.append((streams.hands, hand.row.stream, version, hand.state))
    position = recorded[-1].position or work.table.position
    if work.table_events:
        ends = [e.number for e in work.table_events if isinstance(e, HandFinished)]
        ended = at if ends else None
        pots = _finished_pots(work, ends)
        updates += table_changes(work.table, work.table_state, position, ended, pots)
        before = seat_rows(work.table.pk, work.table_start)
        gone, seats = readmodels.changes(SEATS, before, seat_rows(work.table.pk, work.table_state))
        updates += seats
        folded.append(
            (streams.tables, work.table.stream, work.table_state.version, work.table_state)
        )
    else:  # an action inside a hand: the table moves only its feed position
        work.table.position = position
        updates.append(statements.update(Table, work.table.pk, position=work.table.position))
    statements.execute(gone)
    statements.execute([*appending, *updates])  # one round trip on PostgreSQL
    for fold in folded:  # after the statement: in autocommit, on_commit runs at once
        _remember_on_commit(*fold)


def _finished_pots(work: Work, numbers: list[int]) -> list[int]:
    """The pots of the hands this command finished (numbered), for the
    table row's running totals (the lobby's average pot).  The finished
    hand is the command's own; one it did not fold is read from its row."""
    pots = []
    for number in numbers:
        pot = next((h.state.pot for h in work.hands if h.row.number == number), None)
        if pot is None:
            row = Hand.objects.filter(pk=hand_id(work.table.pk, number))
            pot = row.values_list("pot", flat=True).first() or 0
        pots.append(pot)
    return pots


def _remember_on_commit(folds: Folds[Any], stream: str, version: int, state: Any) -> None:
    """Warm the cache with a new state once (and only if) it is committed."""
    transaction.on_commit(lambda: folds.remember(stream, version, state))


def write_table(
    table: Table,
    state: TableState,
    at: datetime,
    opened: datetime | None = None,
    finished: datetime | None = None,
) -> None:
    """The table row and its seat rows as ``state`` says; ``finished`` is
    when the last hand ended, if that is news.  (Saved through the ORM and
    the seat rows compared with those stored: a new table, a rebuild.  A
    command writes what its events changed: ``write``.)"""
    for name, value in table_values(table.pk, state, opened, finished).items():
        setattr(table, name, value)
    table.save()
    readmodels.rewrite(SEATS, seat_rows(table.pk, state), table_id=table.pk)


def table_changes(
    table: Table,
    state: TableState,
    position: int,
    finished: datetime | None = None,
    pots: Sequence[int] = (),
) -> list[statements.Statement]:
    """``write_table``'s changes to a table row read under its lock, with
    its feed at ``position`` and the ``pots`` of the hands just finished
    added to its running totals, made to the row and returned as one
    UPDATE of the columns that changed (none: nothing)."""
    values = table_values(table.pk, state, None, finished)
    values["position"] = position
    values["hands_ended"] = table.hands_ended + len(pots)
    values["pots_total"] = table.pots_total + sum(pots)
    return readmodels.update(table, values)


def table_values(
    table: int, state: TableState, opened: datetime | None, finished: datetime | None
) -> dict[str, Any]:
    """The table row's columns that follow from ``state`` (``opened``,
    ``finished``: when the table opened, its last hand ended, if news)."""
    values: dict[str, Any] = {
        **config_fields(state.config),
        "status": _status(state),
        "version": state.version,
        "button": state.button,
        "hand_number": state.hand_number,
        "current_hand_id": hand_id(table, state.hand_number) if state.hand_number else None,
        "players_seated": len(state.seats),
    }
    if opened is not None:
        values["created_at"] = opened
    if finished is not None:
        values["next_hand_at"] = finished + timedelta(seconds=state.config.pause_seconds)
    return values


def _status(state: TableState) -> str:
    if state.closed:
        return Table.Status.CLOSED
    return Table.Status.CLOSING if state.closing else Table.Status.OPEN


def _seat_values(seat: SeatState) -> dict[str, Any]:
    """A seat row's columns (but its table and number) as ``seat`` says."""
    return {
        "player_id": int(seat.player),
        "stack": seat.stack,
        "sitting_out": seat.sitting_out,
        "waiting_for_big_blind": seat.waiting,
        "in_hand": seat.in_hand,
        "top_up_queued": seat.queued_top_up,
        "leave_queued": seat.leaving,
        "missed_blinds": sorted(b.value for b in seat.missed),
        "time_bank": seat.bank,
    }


SEATS = readmodels.Kind(Seat, ("table_id", "number"), identity=("player_id",))
"""A table's seat rows; a seat taken by another player (a tournament's
moves) is another row."""


def seat_rows(table: int, state: TableState) -> readmodels.Rows:
    """The seat rows of ``table`` as ``state`` says."""
    return {(table, number): _seat_values(seat) for number, seat in state.seats.items()}


def write_hand(
    row: Hand,
    state: HandState,
    version: int,
    *,
    started: datetime | None,
    at: datetime,
    turn_started: datetime | None,
) -> statements.Statement:
    """The hand row as ``state`` (at ``version``) says; ``started`` is the
    time of its first event when that is now, ``turn_started`` when the
    turn in progress began if that changed.  A new row is saved here; a
    row's changes come back as an UPDATE for the caller to run with its
    other writes (the hot path: one statement for all)."""
    changes: dict[str, Any] = {
        "version": version,
        "phase": state.phase.value,
        "to_act_seat": None if state.to_act is None else row.seats[state.to_act],
        "pot": state.pot,
    }
    if turn_started is not None:
        changes["turn_started_at"] = turn_started
    if started is not None:
        changes["started_at"] = started
        changes["deck_commitment"] = state.roots[0]
    if state.complete:
        changes["ended_at"] = at
        changes["result"] = hand_result(state, row.seats)
    if started is not None:
        return readmodels.saved(row, changes)
    for name, value in changes.items():
        setattr(row, name, value)
    return statements.update(Hand, row.pk, **changes)


def hand_result(state: HandState, seats: list[int]) -> dict[str, Any]:
    """The public outcome of a finished hand, by seat."""
    return {
        "stacks": {str(seats[i]): p.stack for i, p in enumerate(state.players)},
        "awards": [
            {
                "pot": award.pot,
                "amount": award.amount,
                "shares": [{"seat": seats[s.player], "amount": s.amount} for s in award.shares],
            }
            for award in state.awards
        ],
        "shown": {
            str(seats[i]): [str(c) for c in p.cards] for i, p in enumerate(state.players) if p.shown
        },
        "parole": state.parole_agreed,
        "rake": state.raked,
    }


# --------------------------------------------------------------------------
# Rebuilding everything from the log


def rebuild(using: str = "default") -> int:
    """Recompute every read model from the events; the number of streams."""
    count = 0
    with transaction.atomic(using=using):
        Table.objects.using(using).update(current_hand=None)
        Hand.objects.using(using).all().delete()
        for stream in stream_names("table-", using=using):
            count += 1 + _rebuild_table(int(stream.removeprefix("table-")), using)
    streams.hands.forget()
    streams.tables.forget()
    return count


def _rebuild_table(table_pk: int, using: str) -> int:
    rows = load(f"table-{table_pk}", using=using)
    state: TableState | None = None
    dealt: dict[int, list[int]] = {}
    finished = None
    for row in rows:
        event = streams.decode_table(row)
        if isinstance(event, HandBegan):
            dealt[event.number] = list(event.dealt_in)
        elif isinstance(event, HandFinished):
            finished = row.recorded_at
        state = evolve_table(state, event)
    assert state is not None
    table = Table.objects.using(using).filter(pk=table_pk).first() or Table(pk=table_pk)
    hands = [(number, seats) for number, seats in sorted(dealt.items())]
    table.current_hand = None
    fed = Event.objects.using(using).filter(feed=table_pk).aggregate(last=Max("position"))
    table.position = fed["last"] or 0
    table.next_hand_at = None
    at = rows[-1].recorded_at
    write_table(table, state, at, opened=rows[0].recorded_at, finished=finished)
    for number, seats in hands:
        _rebuild_hand(table, number, seats, using)
    ended = Hand.objects.using(using).filter(table=table, ended_at__isnull=False)
    totals = ended.aggregate(count=Count("pk"), pots=Sum("pot"))
    table.hands_ended, table.pots_total = totals["count"], totals["pots"] or 0
    table.save(using=using, update_fields=["hands_ended", "pots_total"])
    return len(hands)


def _rebuild_hand(table: Table, number: int, seats: list[int], using: str) -> None:
    rows = load(hand_stream(hand_id(table.pk, number)), using=using)
    states = streams.hand_states(rows)
    state = states[-1][0]
    hand = Hand(id=hand_id(table.pk, number), table=table, number=number, seats=seats)
    first, at = rows[0].recorded_at, rows[-1].recorded_at
    began = turn_started(states)
    saved = write_hand(hand, state, rows[-1].version, started=first, at=at, turn_started=began)
    statements.execute([saved], using)
