"""Casino round histories: a player's rounds, and one round as a viewer may
see it, with what proves its cards (docs/fair-deal.md).

A round's history has its events as the viewer saw them live
(``frames.round_events``: his box's cards, never another's, the dealer's
once turned up), the boxes' stakes and results and the dealer's hand as
the round ended (``casino.view``), each box's settlement as the ledger
moved it (``casino_table.round_finished``: what it staked, what came
back), and the deck commitment: the ``roots`` of the orders the round
fixed (the deck's, then each reshuffle's) with the ``openings`` of every
card the viewer got or saw turned up.  ``manage.py verify_hand`` checks
a saved copy (``poker.casino.verify``).  Reads only.
"""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet

from kernel.eventstore import recorded
from kernel.models import Event
from poker.casino import streams
from poker.casino.frames import round_events
from poker.casino.models import CasinoRound, casino_table_stream
from poker.casino.selectors import round_as_seen
from poker.engine.casino import GAME
from poker.engine.casino.table.events import CASINO_TABLE_EVENT_TYPES, RoundFinished
from poker.engine.codec import name_of

KIND = "casino_round"
"""A round's history says what it is, so that ``verify_hand`` knows a copy
of a casino round from a pot hand's (their ids look alike)."""

ROUND_FINISHED = name_of(CASINO_TABLE_EVENT_TYPES, RoundFinished)


def rounds_of(user_id: int) -> QuerySet[CasinoRound]:
    """The rounds the player had a box in, newest first."""
    rounds = CasinoRound.objects.filter(players__has=user_id).select_related("table")
    return rounds.order_by("-started_at", "-pk")


def round_summary(row: CasinoRound, viewer: Any) -> dict[str, Any]:
    """A round as a list shows it."""
    you = None if viewer is None else viewer.pk
    position = row.players.index(you) if you in row.players else None
    return {
        "id": row.pk,
        "table": row.table_id,
        "table_name": row.table.name,
        "number": row.number,
        "game": GAME,
        "phase": row.phase,
        "boxes": [b + 1 for b in row.boxes],
        "your_box": None if position is None else row.boxes[position] + 1,
        "started_at": row.started_at,
        "ended_at": row.ended_at,
    }


def round_detail(row: CasinoRound, viewer: Any) -> dict[str, Any]:
    """One round's history as ``viewer`` (a user, or None) may see it."""
    you = None if viewer is None else str(viewer.pk)
    events, openings = round_events(row, you)
    state = streams.rounds.state(row.stream, row.version)
    seen = round_as_seen(row, state, you)
    roots = [
        e["root"]
        for e in events
        if e["type"] in ("casino.round_started", "casino.discards_reshuffled")
    ]
    return round_summary(row, viewer) | {
        "kind": KIND,
        "version": row.version,
        "round": {k: seen[k] for k in ("boxes", "dealer", "jokers", "pay_table")},
        "settlement": _settlement(row, you),
        "commitment": roots[0],
        "roots": roots,
        "openings": openings,
        "events": events,
    }


def _settlement(row: CasinoRound, you: str | None) -> list[dict[str, Any]] | None:
    """Each box's settlement as the table recorded it (None: not settled
    yet): what it staked and what came back; what the round held for it,
    to its player alone."""
    finished = Event.objects.filter(
        stream=casino_table_stream(row.table_id), type=ROUND_FINISHED, data__number=row.number
    ).first()
    if finished is None:
        return None
    [event] = recorded([finished])
    return [
        {
            "box": paid["box"] + 1,
            "player": int(paid["player"]),
            "staked": paid["staked"],
            "won": paid["won"],
            "net": paid["won"] - paid["staked"],
            "held": paid["held"] if paid["player"] == you else None,
        }
        for paid in event.data["paid"]
    ]
