"""Casino states from their streams: encode, decode, and the process's folds.

The same ``kernel.folds.Folds`` as the pot tables: each process keeps the
latest fold of every stream it touched and folds on only what was recorded
since the version it has; a process that never saw a stream (or dropped
its cache: a crash, a restart) folds it from the store, so a round resumes
exactly where its events left it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from kernel import upcast
from kernel.eventstore import NewEvent, Recorded
from kernel.folds import Folds
from poker.engine import casino
from poker.engine.casino import CasinoState
from poker.engine.casino.table import (
    CasinoTableEvent,
    CasinoTableState,
    evolve_table,
    table_event_from_json,
    table_event_to_json,
)


def encode_table(events: Sequence[CasinoTableEvent]) -> list[NewEvent]:
    return [_new(table_event_to_json(e)) for e in events]


def encode_round(events: Sequence[casino.CasinoEvent]) -> list[NewEvent]:
    return [_new(casino.to_json(e)) for e in events]


def _new(data: dict[str, Any]) -> NewEvent:
    return NewEvent(data.pop("type"), data)


def decode_table(row: Recorded) -> CasinoTableEvent:
    return table_event_from_json({"type": row.type, **row.data})


def decode_round(row: Recorded) -> casino.CasinoEvent:
    return casino.from_json({"type": row.type, **row.data})


tables: Folds[CasinoTableState] = Folds(decode_table, evolve_table)
rounds: Folds[CasinoState] = Folds(decode_round, casino.evolve)


def forget() -> None:
    """Drop every fold this process keeps (a test standing in for a crash)."""
    tables.forget()
    rounds.forget()


upcast.register("casino-", upcast.Upcaster({}))
"""Casino streams were first written under schema 3: nothing to bring up yet."""
