"""Hand and table states from their event streams: encode, decode, and
the folds each process keeps warm (``kernel.folds``)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import datetime
from typing import Any

from kernel.eventstore import NewEvent, Recorded
from kernel.folds import Folds
from poker.engine import events as hand_events
from poker.engine import table as table_events
from poker.engine.evolve import evolve
from poker.engine.state import HandState
from poker.engine.table import TableState, evolve_table


def encode_hand(events: Sequence[hand_events.Event]) -> list[NewEvent]:
    """Engine events as rows to append."""
    out = []
    for event in events:
        data = hand_events.to_json(event)
        out.append(NewEvent(data.pop("type"), data))
    return out


def encode_table(events: Sequence[Any]) -> list[NewEvent]:
    """Table events as rows to append."""
    out = []
    for event in events:
        data = table_events.table_event_to_json(event)
        out.append(NewEvent(data.pop("type"), data))
    return out


def decode_hand(row: Recorded) -> hand_events.Event:
    """A stored hand event back as the engine's dataclass."""
    return hand_events.from_json({"type": row.type, **row.data})


def hand_states(rows: Iterable[Recorded]) -> list[tuple[HandState, datetime]]:
    """A hand's state after each of its stored events (oldest first), with
    the event's time: what ``clock.turn_started`` reads."""
    states: list[tuple[HandState, datetime]] = []
    for row in rows:
        before = states[-1][0] if states else None
        states.append((evolve(before, decode_hand(row)), row.recorded_at))
    return states


def decode_table(row: Recorded) -> Any:
    """A stored table event back as the table engine's dataclass."""
    return table_events.table_event_from_json({"type": row.type, **row.data})


hands: Folds[HandState] = Folds(decode_hand, evolve)
tables: Folds[TableState] = Folds(decode_table, evolve_table)
