"""Frames for WebSocket clients, and their publication after each commit.

After a command commits, one message goes to its table's group with the
frames of its events, cut here, once (``kernel.feed``): every event becomes
one public frame, with every hidden card left out (``engine.view.redact``
for a spectator), and an event that hides cards from all but their owner
(the deal, a discard, a draw) also a private frame for that owner alone.
Each socket takes its viewer's frames from it.  The message holds the
private frames, so it travels only between servers (the channel layer).

The frames of a deal or a draw carry the openings of the owner's new
cards, and the public frame of a shown hand those of its cards
(docs/fair-deal.md), opened from the hands' full states the command has.
Frames carry the feed position, so a client sees every position once and
in order, and after a reconnect asks for what came after the last one it
saw (``replay``).  Frames name players by seat, as every view does
(``poker.present``).

A player's own stream (``ws/me/``) gets his private frames of a command in
one message to his own group (deals and draws only), and his seat frames;
the lobby gets its lines.

The channel layer may drop messages; the event store is the truth.  Only
committed events are published (``transaction.on_commit``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from accounts.frames import player_group
from kernel import feed
from kernel.eventstore import Recorded, load_feed, recorded
from kernel.layer import Messages, send_all
from kernel.models import Event
from poker import clocks, streams
from poker.engine.codec import name_of
from poker.engine.events import EVENT_TYPES as HAND_EVENT_TYPES
from poker.engine.events import (
    CardsDealt,
    CardsDrawn,
    Discarded,
    HandShown,
    HandStarted,
    from_json,
)
from poker.engine.events import Event as HandEvent
from poker.engine.evolve import evolve
from poker.engine.fairdeal import event_openings
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
from poker.models import Hand, Table, hand_id, hand_stream, table_stream
from poker.present import event_by_seat
from poker.selectors import player_name, table_summary
from poker.upcast import TABLES

HAND_FINISHED = name_of(TABLE_EVENT_TYPES, HandFinished)
HAND_BEGAN = name_of(TABLE_EVENT_TYPES, HandBegan)

OPENED = frozenset(name_of(HAND_EVENT_TYPES, kind) for kind in (CardsDealt, CardsDrawn, HandShown))
"""Stored names of the events whose frames may carry openings."""

UNDEALT = {"deck": [], "seed": 0}
"""A hand's deck and seed as its first event is cut: nothing (no frame
shows them)."""

Frame = feed.Frame

Openings = dict[tuple[int, int | None], list[dict[str, Any]]]
"""The openings of each frame that has some, keyed by the event's feed
position and the frame's owner (a user id; None: the public frame)."""


def table_group(table: int) -> str:
    """The group of everyone watching a table."""
    return f"table.{table}"


def player_ids(hands: dict[str, HandState]) -> dict[str, list[str]]:
    """Each hand's player ids by position (as dealt)."""
    return {stream: [p.name for p in state.players] for stream, state in hands.items()}


def openings(rows: Iterable[Recorded], hands: dict[str, HandState]) -> Openings:
    """The openings that go with the frames of ``rows``
    (``engine.fairdeal.event_openings``): to each owner of a deal or a draw
    those of his new cards, and with a shown hand's public frame those of
    its cards.  ``hands`` has each hand's state at its last version among
    ``rows`` or later; a hand missing there opens nothing."""
    out: Openings = {}
    for row in rows:
        state = hands.get(row.stream)
        if row.type not in OPENED or state is None:
            continue
        assert row.position is not None
        event = streams.decode_hand(row)
        owners = [(None, None)] if isinstance(event, HandShown) else _owned(event, state)
        for viewer, owner in owners:
            found = event_openings(state, row.version, event, viewer)
            if found:
                out[(row.position, owner)] = [o.to_json() for o in found]
    return out


def _owned(event: HandEvent, state: HandState) -> list[tuple[int | None, int | None]]:
    """(position, user id) of each owner of ``event``'s hidden cards."""
    return [(position, int(state.players[position].name)) for position in _owners(event)]


def hand_seats_of(
    table: int, rows: Iterable[Recorded], seats: dict[str, list[int]]
) -> dict[str, list[int]]:
    """Each hand stream of ``rows`` with its seats by position: as given,
    from a ``HandBegan`` among the rows, else from the hand's row."""

    out = dict(seats)
    for row in rows:
        if row.type == HAND_BEGAN and row.stream.startswith("table-"):
            out[hand_stream(hand_id(table, row.data["number"]))] = row.data["dealt_in"]
        elif row.stream.startswith("hand-") and row.stream not in out:
            out[row.stream] = hand_seats(row.stream)
    return out


def hand_seats(stream: str) -> list[int]:
    """A hand's seats by position, from its row."""

    return list(Hand.objects.values_list("seats", flat=True).get(pk=stream.removeprefix("hand-")))


def _owners(event: HandEvent) -> Sequence[int]:
    """Positions that see more of ``event`` than a spectator."""
    if isinstance(event, CardsDealt):
        return range(len(event.hands))
    if isinstance(event, CardsDrawn | Discarded) and event.cards:
        return (event.player,)
    return ()


def cut_rows(
    table: int,
    rows: Iterable[Recorded],
    names: dict[str, list[str]],
    clock: dict[str, Any] | None,
    seats: dict[str, list[int]],
    opened: Openings,
) -> list[feed.Cut]:
    """The frames of each event, in feed order.

    ``names`` gives each hand stream's player ids by position (as dealt),
    to address private frames; a hand started among ``rows`` adds its own.
    ``seats`` gives each hand stream's seats by position: frames name
    players by seat (``present.event_by_seat``).  ``clock`` is the clock
    running once these events are in (its deadlines let clients draw a
    countdown).  ``opened`` gives the openings each frame carries
    (``openings``).  A hand's deck and seed never reach a frame.
    """
    out: list[feed.Cut] = []
    for row in rows:
        if row.stream.startswith("table-"):
            event = {"type": row.type, **row.data}
            out.append(feed.cut(feed.event_frame("event", table, row, clock, event)))
            continue
        hand = from_json({"type": row.type, **row.data, **UNDEALT})
        if isinstance(hand, HandStarted):
            names[row.stream] = [e.name for e in hand.players]
        by_seat = seats[row.stream]
        public = feed.event_frame("event", table, row, clock, _seen(hand, None, by_seat))
        _attach(public, opened.get((public["position"], None)))
        private = []
        for position in _owners(hand):
            owner = int(names[row.stream][position])
            frame = feed.event_frame("private", table, row, clock, _seen(hand, position, by_seat))
            _attach(frame, opened.get((frame["position"], owner)))
            private.append((owner, frame))
        out.append(feed.cut(public, private))
    return out


def _attach(frame: feed.EventFrame, opened: list[dict[str, Any]] | None) -> None:
    """Give ``frame`` the openings of the cards it names, if any."""
    if opened:
        frame["openings"] = opened


def _seen(event: HandEvent, viewer: int | None, seats: list[int]) -> dict[str, Any]:
    """``event`` as the player in position ``viewer`` (None: a spectator)
    may see it, its players by seat."""
    seen: dict[str, Any] = event_by_seat(redact(event, viewer), seats, player_name)
    return seen


PRIVATES = "privates"
"""The ``type`` of a player's message of his private frames of a command."""


def private_frames(cuts: Iterable[feed.Cut]) -> Messages:
    """One message to each owner's own group (his ``ws/me/``) with his
    private frames of the command, in feed order, with their openings."""
    mine: dict[int, list[Frame]] = {}
    for c in cuts:
        for owner, frame in c["private"]:
            mine.setdefault(owner, []).append(frame)
    return [
        (player_group(owner), {"type": PRIVATES, "frames": frames})
        for owner, frames in mine.items()
    ]


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
    *,
    table: int,
    rows: Sequence[Recorded],
    hands: dict[str, HandState],
    seated: dict[int, str] | None = None,
    clock: dict[str, Any] | None = None,
    seats: dict[str, list[int]] | None = None,
    summary: dict[str, Any] | None = None,
) -> None:
    """Send a command's committed events ``rows`` at ``table``: the table's
    one message of their frames, cut here (``kernel.feed``), each owner's
    private frames and the seat frames to the players' own streams, and
    the table's new lobby line when it changed.  A player's action inside
    a hand sends the table's message alone (a draw adds one to the
    drawer's own stream).

    ``hands``: the states the command left its hands in; ``seated``: seats
    to players before and after the events; ``clock``: the clock running
    once they are in; ``seats``: hand streams' seats by position, where the
    command has them (else read); ``summary``: the table's lobby summary as
    the command wrote it (else read)."""
    seats = hand_seats_of(table, rows, seats or {})
    opened = openings(rows, hands)
    cuts = cut_rows(table, rows, player_ids(hands), clock, seats, opened)
    group = table_group(table)
    messages: Messages = [(group, feed.message(group, cuts))]
    messages += private_frames(cuts)
    messages += seat_frames(table, rows, seated or {})
    if any(r.stream.startswith("table-") and r.type in LOBBY_EVENTS for r in rows):
        line = lobby_line(table) if summary is None else {"type": "lobby", "table": summary}
        if line is not None:
            messages.append((LOBBY_GROUP, line))
    send_all(messages)


def lobby_line(table: int) -> dict[str, Any] | None:
    """A lobby frame: one table as the lobby lists it."""

    row = Table.objects.filter(pk=table).first()
    return None if row is None else {"type": "lobby", "table": table_summary(row)}


def replay(table: int, after: int, viewer: int | None) -> list[Frame]:
    """The frames of a table's feed after position ``after`` as ``viewer``
    (a user id or None) sees them on the table stream: public frames, plus
    his private ones, each with the clock running now."""
    rows = load_feed(table, after=after, limit=feed.REPLAY_LIMIT)

    hands = hand_states(rows)
    names = player_ids(hands)
    seats = {stream: hand_seats(stream) for stream in hands}
    opened = openings(rows, hands)
    frame_clocks = feed_clocks(table, rows)
    cuts = [
        c
        for row in rows
        for c in cut_rows(table, [row], names, frame_clocks[row.position], seats, opened)
    ]
    return feed.visible(cuts, viewer)


def feed_clocks(table: int, rows: Sequence[Recorded]) -> dict[int | None, dict[str, Any] | None]:
    """The clock each row's frames carried when they went out live: the
    clock once its command's events were in (a command's events share their
    time), folded along the feed from the states before ``rows``."""

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
