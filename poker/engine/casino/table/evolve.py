"""The fold of a casino table's events: ``evolve_table``, ``evolve_all``
and ``replay_table``.

Events are facts: ``evolve_table`` applies one without judging it (only an
event that cannot apply at all, such as a stream that does not start with
``TableOpened``, is ``Malformed``).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from typing import Any

from poker.engine.casino.table.events import (
    BetPlaced,
    BetWithdrawn,
    CasinoTableEvent,
    LeaveQueued,
    PlayerLeft,
    PlayerSat,
    PlayerSatIn,
    PlayerSatOut,
    RoundDealt,
    RoundFinished,
    TableClosed,
    TableClosing,
    TableOpened,
)
from poker.engine.casino.table.state import CasinoSeat, CasinoTableState
from poker.engine.errors import Malformed


def evolve_table(state: CasinoTableState | None, event: CasinoTableEvent) -> CasinoTableState:
    """The state after ``event`` (``state`` None: the opening event)."""
    if state is None:
        if not isinstance(event, TableOpened):
            raise Malformed("a casino table stream starts with casino_table.opened")
        return CasinoTableState(event.config, version=1)
    seats = dict(state.seats)
    changes: dict[str, Any] = {}
    if isinstance(event, PlayerSat):
        seats[event.box] = CasinoSeat(event.player)
    elif isinstance(event, BetPlaced):
        seats[event.box] = replace(seats[event.box], bet=event.amount, held=event.held)
    elif isinstance(event, BetWithdrawn):
        seats[event.box] = replace(seats[event.box], bet=0, held=0)
    elif isinstance(event, PlayerSatOut | PlayerSatIn):
        out = isinstance(event, PlayerSatOut)
        seats[event.box] = replace(seats[event.box], sitting_out=out)
    elif isinstance(event, LeaveQueued):
        seats[event.box] = replace(seats[event.box], leaving=True)
    elif isinstance(event, PlayerLeft):
        del seats[event.box]
    elif isinstance(event, RoundDealt):
        changes = {"round_number": event.number, "round_boxes": event.boxes}
    elif isinstance(event, RoundFinished):
        for paid in event.paid:
            seats[paid.box] = replace(seats[paid.box], bet=0, held=0)
        changes = {"round_boxes": ()}
    elif isinstance(event, TableClosing):
        changes = {"closing": True}
    elif isinstance(event, TableClosed):
        changes = {"closed": True, "closing": False}
    else:
        raise Malformed(f"unknown casino table event {event!r}")
    return replace(state, seats=seats, version=state.version + 1, **changes)


def evolve_all(state: CasinoTableState, events: Iterable[CasinoTableEvent]) -> CasinoTableState:
    """The state after each of ``events`` in turn."""
    for event in events:
        state = evolve_table(state, event)
    return state


def replay_table(events: Iterable[CasinoTableEvent]) -> CasinoTableState:
    """The state a whole stream folds to."""
    state: CasinoTableState | None = None
    for event in events:
        state = evolve_table(state, event)
    if state is None:
        raise Malformed("an empty casino table stream")
    return state
