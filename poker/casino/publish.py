"""A casino table's live stream: one message per command, after its commit.

After a command at a casino table commits, one message goes to the
table's group (``table_group``): every event it recorded, cut
(``frames.Cutter``) into its public frame and the private frame of each
player who sees more of it (``kernel.feed``, the one message of every live
stream).  A command that seats a player, frees a box, deals, or opens or
closes the table also sends the table's new lobby line to the lobby
(``poker.publish.LOBBY_GROUP``).

Frames carry the table's feed position (``casino_feed``): a client that
reconnects asks for what came after the last position it saw (``replay``,
from the store, cut the same way).  Live frames carry the clock running
once their command's events were in; replayed frames carry none (the
snapshot a socket starts from has the clock running now).

The channel layer may drop messages; the event store is the truth.  Only
committed events are published (``transaction.on_commit``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db import transaction

from kernel import feed
from kernel.eventstore import Recorded, load_feed
from kernel.layer import Messages, send_all
from poker.casino import streams
from poker.casino.frames import Cutter, Frame
from poker.casino.models import CasinoTable, casino_feed, casino_table_stream
from poker.casino.selectors import casino_table_summary, casino_work_clock
from poker.casino.work import CasinoWork
from poker.engine.casino.table import (
    CASINO_TABLE_EVENT_TYPES,
    CasinoTableState,
    PlayerLeft,
    PlayerSat,
    RoundDealt,
    RoundFinished,
    TableClosed,
    TableClosing,
    TableOpened,
)
from poker.engine.codec import name_of
from poker.publish import LOBBY_GROUP

LOBBY = "casino_lobby"
"""The ``type`` of a lobby frame about a casino table."""

LOBBY_EVENTS = frozenset(
    name_of(CASINO_TABLE_EVENT_TYPES, kind)
    for kind in (
        TableOpened,
        PlayerSat,
        PlayerLeft,
        RoundDealt,
        RoundFinished,
        TableClosing,
        TableClosed,
    )
)
"""Table events that change what the lobby shows of a casino table (its
boxes taken, its status)."""


def table_group(table: int) -> str:
    """The group of everyone watching a casino table."""
    return f"casino.{table}"


def after_commit(work: CasinoWork) -> None:
    """Publish ``work``'s events once its transaction commits (nothing if
    it rolls back): the clock is read now, as the command left it."""
    rows = list(work.recorded)
    if not rows:
        return
    table, before, clock = work.table.pk, work.table_start, casino_work_clock(work)
    transaction.on_commit(lambda: publish(table, rows, before, clock))


def lobby_after_commit(table: int) -> None:
    """The lobby line of a table just opened, once it commits."""
    transaction.on_commit(lambda: send_all(_lobby(table)))


def publish(
    table: int,
    rows: Sequence[Recorded],
    before: CasinoTableState | None,
    clock: dict[str, Any] | None,
) -> None:
    """Send a command's committed events: the table's one message, and its
    lobby line when it changed.  ``before``: the table's state before them."""
    cutter = Cutter(table, before)
    group = table_group(table)
    messages: Messages = [(group, feed.message(group, [cutter.cut(row, clock) for row in rows]))]
    if any(r.type in LOBBY_EVENTS for r in rows if r.stream == casino_table_stream(table)):
        messages += _lobby(table)
    send_all(messages)


def _lobby(table: int) -> list[tuple[str, dict[str, Any]]]:
    row = CasinoTable.objects.filter(pk=table).first()
    if row is None:
        return []
    return [(LOBBY_GROUP, lobby_line(row))]


def lobby_line(table: CasinoTable) -> dict[str, Any]:
    """A lobby frame: one casino table as the lobby lists it."""
    return {"type": LOBBY, "table": casino_table_summary(table)}


def replay(table: int, after: int, viewer: int | None) -> list[Frame]:
    """The frames of a casino table's feed after position ``after`` as
    ``viewer`` (a user id, or None) sees them, at most ``feed.REPLAY_LIMIT``."""
    rows = load_feed(casino_feed(table), after=after, limit=feed.REPLAY_LIMIT)
    stream = casino_table_stream(table)
    first = next((r.version for r in rows if r.stream == stream), 1)
    before = streams.tables.state(stream, first - 1) if first > 1 else None
    cutter = Cutter(table, before)
    return feed.visible([cutter.cut(row) for row in rows], viewer)
