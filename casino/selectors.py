"""The read side of the casino tables: the list of tables and a table as one
viewer may see it.

Everything a viewer sees of a round comes through the engine's
``casino.view``: his own box's cards, never another's, and the dealer's
only once he has turned them up.  The chips a round holds for a box
(``held``, and the box's stack in the round, which follow from the
player's wallet) are shown to that player alone.  The live stream, the
lobby and the histories build on these functions.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.db.models import QuerySet

from accounts.selectors import player_name
from casino import streams
from casino.edge import casino_math_of, published_figures, staff_figures
from casino.models import CasinoRound, CasinoTable, round_id
from casino.work import CasinoWork
from poker.engine import casino
from poker.engine.casino import GAME, CasinoRules, CasinoState, PayTable
from poker.engine.casino.table import CasinoTableState


def casino_table_list() -> QuerySet[CasinoTable]:
    """Every casino table that is not closed, oldest first."""
    tables = CasinoTable.objects.exclude(status=CasinoTable.Status.CLOSED)
    return tables.prefetch_related("box_set").order_by("id")


def casino_table_summary(table: CasinoTable, taken: list[int] | None = None) -> dict[str, Any]:
    """A table as the list and the lobby show it: its settings and how full
    it is (``boxes_taken``: from its box rows unless given)."""
    if taken is None:
        taken = [box.number for box in table.box_set.all()]
    return {
        "id": table.pk,
        "name": table.name,
        "game": GAME,
        "jokers": table.jokers,
        "pay_table": table.pay_table,
        "min_bet": table.min_bet,
        "max_bet": table.max_bet,
        "boxes": table.boxes,
        "bet_seconds": table.bet_seconds,
        "decision_seconds": table.decision_seconds,
        "status": table.status,
        "version": table.version,
        "round_number": table.round_number,
        "players_seated": table.players_seated,
        "boxes_taken": sorted(n + 1 for n in taken),
    }


def casino_lobby() -> list[dict[str, Any]]:
    """The casino tables as the lobby lists them."""
    return [casino_table_summary(t) for t in casino_table_list()]


def casino_table_view(table: CasinoTable, viewer: Any) -> dict[str, Any]:
    """The table as ``viewer`` (a user, or None) may see it now."""
    state = streams.tables.state(table.stream, table.version)
    latest = None
    if state.round_number:
        row = CasinoRound.objects.get(pk=round_id(table.pk, state.round_number))
        latest = (row, streams.rounds.state(row.stream, row.version))
    return _view(table, state, latest, viewer, current=True)


def casino_work_view(work: CasinoWork, viewer: Any) -> dict[str, Any]:
    """The table as a command just left it, for the command's answer."""
    latest = None
    if work.round is not None:
        latest = (work.round.row, work.round.state)
    elif work.table_state.round_number:
        pk = round_id(work.table.pk, work.table_state.round_number)
        row = CasinoRound.objects.get(pk=pk)
        latest = (row, streams.rounds.state(row.stream, row.version))
    return _view(work.table, work.table_state, latest, viewer, current=True)


def casino_work_clock(work: CasinoWork) -> dict[str, Any] | None:
    """The clock running once a command's events are in (its live frames')."""
    latest = None if work.round is None else (work.round.row, work.round.state)
    return _clock(work.table, work.table_state, latest)


def casino_view_at(receipt: dict[str, Any], viewer: Any) -> dict[str, Any]:
    """The answer a command gave, from the versions it recorded (a retry
    with its id gets this again, whatever happened since)."""
    table = CasinoTable.objects.get(pk=receipt["casino_table"])
    state = streams.tables.state(table.stream, receipt["table_version"])
    latest = None
    if receipt["round"] is not None:
        row = CasinoRound.objects.get(pk=receipt["round"])
        latest = (row, streams.rounds.state(row.stream, receipt["round_version"]))
    now = table.version == state.version and (
        latest is None or latest[0].version == latest[1].version
    )
    return _view(table, state, latest, viewer, current=now)


def casino_receipt(work: CasinoWork) -> dict[str, Any]:
    """What a command's answer showed, as versions: enough to show it again."""
    current = work.round
    pk: str | None = None
    version: int | None = None
    if current is not None:
        pk, version = current.row.pk, current.start + len(current.events)
    elif work.table_state.round_number:
        pk = round_id(work.table.pk, work.table_state.round_number)
        version = CasinoRound.objects.get(pk=pk).version
    return {
        "casino_table": work.table.pk,
        "table_version": work.table_state.version,
        "round": pk,
        "round_version": version,
    }


def _view(
    table: CasinoTable,
    state: CasinoTableState,
    latest: tuple[CasinoRound, CasinoState] | None,
    viewer: Any,
    *,
    current: bool,
) -> dict[str, Any]:
    you = str(viewer.pk) if viewer is not None else None
    your_box = None if you is None else state.box_of(you)
    boxes = [
        {
            "box": n + 1,
            "player": int(s.player),
            "name": player_name(s.player),
            "bet": s.bet,
            "held": s.held if s.player == you else None,
            "sitting_out": s.sitting_out,
            "leaving": s.leaving,
        }
        for n, s in sorted(state.seats.items())
    ]
    summary = casino_table_summary(table, list(state.seats)) | {
        "version": state.version,
        "round_number": state.round_number,
        "players_seated": len(state.seats),
    }
    return {
        "table": summary,
        "boxes": boxes,
        "your_box": None if your_box is None else your_box + 1,
        "round": None if latest is None else round_as_seen(latest[0], latest[1], you),
        "clock": _clock(table, state, latest) if current else None,
        "house_math": _house_math(state, viewer),
    }


def _house_math(state: CasinoTableState, viewer: Any) -> dict[str, Any] | None:
    """The stored figures the guard read, for staff only."""
    if not getattr(viewer, "is_staff", False):
        return None
    row = casino_math_of(state.config.rules)
    return None if row is None else staff_figures(row)


def casino_table_strategy(table: CasinoTable) -> dict[str, Any]:
    """What a player can learn of the table's configuration: its pay table,
    its published house edge and the strategy card (stored figures)."""
    rules = CasinoRules(table.jokers, PayTable.from_json(table.pay_table))
    return {
        "table": table.pk,
        "name": table.name,
        "jokers": table.jokers,
        "pay_table": rules.pay_table.to_json(),
        **published_figures(casino_math_of(rules)),
    }


def round_as_seen(row: CasinoRound, state: CasinoState, you: str | None) -> dict[str, Any]:
    """The round as the player ``you`` (an id, or None) may see it
    (``casino.view``), its boxes named by the table's box numbers and their
    players' screen names."""
    position = next((i for i, b in enumerate(state.boxes) if b.name == you), None)
    seen = casino.view(state, position)
    for i, box in enumerate(seen["boxes"]):
        player = box.pop("name")
        box["box"] = row.boxes[i] + 1
        box["player"] = int(player)
        box["name"] = player_name(player)
        if i != position:
            box["stack"] = None
    to_act = seen["to_act"]
    return seen | {
        "id": row.pk,
        "number": row.number,
        "to_act": None if to_act is None else row.boxes[to_act] + 1,
        "your_box": None if position is None else row.boxes[position] + 1,
    }


def _clock(
    table: CasinoTable, state: CasinoTableState, latest: tuple[CasinoRound, CasinoState] | None
) -> dict[str, Any] | None:
    """The clock running now: the betting window, or the decision clock of
    the box to act."""
    if not state.round_running:
        if table.bet_until is None or not state.bets:
            return None
        return {"kind": "bet-window", "box": None, "expires": table.bet_until.isoformat()}
    if latest is None or latest[1].to_act is None or latest[0].turn_started_at is None:
        return None
    row, round_state = latest
    assert round_state.to_act is not None and row.turn_started_at is not None
    expires = row.turn_started_at + timedelta(seconds=state.config.decision_seconds)
    box = row.boxes[round_state.to_act] + 1
    return {"kind": "decision", "box": box, "expires": expires.isoformat()}


def casino_table_names(ids: set[int]) -> dict[int, str]:
    """The names of the casino tables ``ids`` (for the ledger's references)."""
    return dict(CasinoTable.objects.filter(pk__in=ids).values_list("pk", "name"))
