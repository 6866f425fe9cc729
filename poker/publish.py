"""Frames for WebSocket clients, and their publication after each commit.

Every event of a table's feed becomes one public frame, sent to the
table's group, with every hidden card left out (``engine.view.redact`` for
a spectator).  An event that hides cards from all but their owner (the
deal, a discard, a draw) also becomes a private frame for that owner alone,
sent to his own group; the frames of a deal or a draw carry the openings
of the owner's new cards, and the public frame of a shown hand those of
its cards (docs/fair-deal.md).  Frames carry the feed position, so a client sees
every position once and in order, and after a reconnect asks for what came
after the last one it saw (``replay``).

The channel layer may drop messages; the event store is the truth.  Only
committed events are published (``transaction.on_commit``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from accounts.frames import player_group
from config.layer import send_all
from poker import streams
from poker.engine.codec import name_of
from poker.engine.events import CardsDealt, CardsDrawn, Discarded
from poker.engine.events import Event as HandEvent
from poker.engine.evolve import evolve
from poker.engine.fairdeal import Opening, event_openings
from poker.engine.state import HandState
from poker.engine.table import (
    TABLE_EVENT_TYPES,
    CloseQueued,
    HandBegan,
    HandFinished,
    PlayerLeft,
    PlayerSeated,
    TableClosed,
    TableOpened,
    evolve_table,
)
from poker.engine.table.clock import turn, turn_started
from poker.engine.view import redact
from poker.eventstore import Recorded, load_feed, recorded
from poker.upcast import TABLES

HAND_FINISHED = name_of(TABLE_EVENT_TYPES, HandFinished)

REPLAY_LIMIT = 500
"""Frames sent on a reconnect; further behind, the client starts over from
the table's current view (its snapshot) and the frames after it."""


def table_group(table: int) -> str:
    """The group of everyone watching a table."""
    return f"table.{table}"


def _owners(event: HandEvent) -> Sequence[int]:
    """Positions that see more of ``event`` than a spectator."""
    if isinstance(event, CardsDealt):
        return range(len(event.hands))
    if isinstance(event, CardsDrawn | Discarded) and event.cards:
        return (event.player,)
    return ()


def _with_openings(frame: dict[str, Any], opened: list[Opening]) -> dict[str, Any]:
    """``frame`` with the openings of the cards it names (if any)."""
    if opened:
        frame["openings"] = [o.to_json() for o in opened]
    return frame


def frames(
    table: int,
    rows: Iterable[Recorded],
    hands: dict[str, HandState],
    clock: dict[str, Any] | None = None,
) -> list[tuple[str, dict[str, Any]]]:
    """(group, frame) for each recorded event, public frames first per event.

    ``hands`` gives the state of each hand stream among ``rows`` at their
    last version or later: its players' ids by position (as dealt) address
    the private frames, and its commitments open the cards a frame deals,
    draws or turns up (``engine.fairdeal.event_openings``: to their owner,
    or to all for a shown hand).  ``clock`` is the clock running once these
    events are in (its deadlines let clients draw a countdown).
    """
    out: list[tuple[str, dict[str, Any]]] = []
    for row in rows:
        head = {
            "table": table,
            "position": row.position,
            "stream": row.stream,
            "version": row.version,
            "clock": clock,
        }
        if row.stream.startswith("table-"):
            out.append(
                (
                    table_group(table),
                    {"type": "event", **head, "event": {"type": row.type, **row.data}},
                )
            )
            continue
        event = streams.decode_hand(row)
        state = hands[row.stream]
        owners = [int(state.players[position].name) for position in _owners(event)]
        public = {"type": "event", **head, "event": redact(event, None)}
        if owners:
            # Who gets a private frame for this event is no secret (who was
            # dealt, who drew); clients and consumers use it to wait for it.
            public["private_for"] = owners
        opened = event_openings(state, row.version, event, None)
        out.append((table_group(table), _with_openings(public, opened)))
        for position, owner in zip(_owners(event), owners, strict=True):
            frame = {"type": "private", **head, "event": redact(event, position)}
            opened = event_openings(state, row.version, event, position)
            out.append((player_group(owner), _with_openings(frame, opened)))
    return out


def hand_states(rows: Iterable[Recorded]) -> dict[str, HandState]:
    """The state of each hand stream among ``rows``, at its last version there."""
    last: dict[str, int] = {}
    for row in rows:
        if row.stream.startswith("hand-"):
            last[row.stream] = max(row.version, last.get(row.stream, 0))
    return {stream: streams.hands.state(stream, version) for stream, version in last.items()}


LOBBY_GROUP = "lobby"
"""Everyone looking at the list of tables."""

LOBBY_EVENTS = frozenset(
    name_of(TABLE_EVENT_TYPES, kind)
    for kind in (TableOpened, PlayerSeated, PlayerLeft, CloseQueued, TableClosed, HandBegan)
)
"""Table events that change what the lobby shows of a table."""


def seat_frames(
    table: int, rows: Iterable[Recorded], seated: dict[int, str]
) -> list[tuple[str, dict[str, Any]]]:
    """A ``seat`` frame to a player's own group for each table event about
    his seat (his seats across tables); ``seated`` maps seats to players
    before and after the events.  Not part of the feed order: the table
    stream has the same events."""
    out: list[tuple[str, dict[str, Any]]] = []
    for row in rows:
        if not row.stream.startswith("table-") or "seat" not in row.data:
            continue
        player = row.data.get("player") or seated.get(row.data["seat"])
        if player is not None:
            event = {"type": row.type, **row.data}
            frame = {"type": "seat", "table": table, "position": row.position, "event": event}
            out.append((player_group(int(player)), frame))
    return out


def publish(
    table: int,
    rows: Sequence[Recorded],
    hands: dict[str, HandState],
    seated: dict[int, str] | None = None,
    clock: dict[str, Any] | None = None,
) -> None:
    """Send the frames of committed events to their groups, the seat frames
    to their players, and the table's new lobby line when it changed;
    ``hands``: the states the command left its hands in (see ``frames``)."""
    messages = frames(table, rows, hands, clock) + seat_frames(table, rows, seated or {})
    if any(r.stream.startswith("table-") and r.type in LOBBY_EVENTS for r in rows):
        line = lobby_line(table)
        if line is not None:
            messages.append((LOBBY_GROUP, line))
    send_all(messages)


def lobby_line(table: int) -> dict[str, Any] | None:
    """A lobby frame: one table as the lobby lists it."""
    from poker.models import Table
    from poker.selectors import table_summary

    row = Table.objects.filter(pk=table).first()
    return None if row is None else {"type": "lobby", "table": table_summary(row)}


def replay(table: int, after: int, viewer: int | None) -> list[dict[str, Any]]:
    """The frames of a table's feed after position ``after`` as ``viewer``
    (a user id or None) sees them on the table stream: public frames, plus
    his private ones, each with the clock running now."""
    rows = load_feed(table, after=after, limit=REPLAY_LIMIT)
    hands = hand_states(rows)
    wanted = {table_group(table)} | ({player_group(viewer)} if viewer is not None else set())
    clocks = feed_clocks(table, rows)
    return [
        frame
        for row in rows
        for group, frame in frames(table, [row], hands, clocks[row.position])
        if group in wanted
    ]


def feed_clocks(table: int, rows: Sequence[Recorded]) -> dict[int | None, dict[str, Any] | None]:
    """The clock each row's frames carried when they went out live: the
    clock once its command's events were in (a command's events share their
    time), folded along the feed from the states before ``rows``."""
    from poker import clocks
    from poker.models import Event, hand_id, hand_stream, table_stream

    if not rows:
        return {}
    earlier = Event.objects.filter(feed=table, position__lt=rows[0].position).order_by("-position")
    own = table_stream(table)
    version = earlier.filter(stream=own).values_list("version", flat=True).first()
    state = streams.tables.state(own, version) if version else None
    finished = earlier.filter(stream=own, type__in=TABLES.stored_names(HAND_FINISHED))
    done = finished.values_list("recorded_at", flat=True).first()
    hands: dict[str, tuple[HandState, Any]] = {}
    """Each hand's state and when its turn in progress began."""

    def hand_at(stream: str) -> tuple[HandState, Any]:
        if stream not in hands:
            stored = earlier.filter(stream=stream).order_by("version")
            folded = streams.hand_states(recorded(stored))
            hands[stream] = (folded[-1][0], turn_started(folded))
        return hands[stream]

    out: dict[int | None, dict[str, Any] | None] = {}
    start = 0
    for i, row in enumerate(rows):
        if row.stream == own:
            state = evolve_table(state, streams.decode_table(row))
            done = row.recorded_at if row.type == HAND_FINISHED else done
        else:
            before, began = hand_at(row.stream) if row.version > 1 else (None, None)
            after = evolve(before, streams.decode_hand(row))
            if before is None or turn(after) != turn(before):
                began = row.recorded_at
            hands[row.stream] = (after, began)
        if i + 1 < len(rows) and rows[i + 1].recorded_at == row.recorded_at:
            continue  # the same command: its clock comes after its last event
        assert state is not None
        hand = None
        if state.hand_number:
            hand = hand_at(hand_stream(hand_id(table, state.hand_number)))
        clock = clocks.as_json(clocks.clock_between(state, hand, done))
        out.update((same.position, clock) for same in rows[start : i + 1])
        start = i + 1
    return out
