"""The append-only event log: the only code that writes events.

``append`` writes a command's events, to one or more streams, with the
versions the caller expects, plus the command's answer under its id.  It
runs inside the caller's transaction and adds no savepoint: a clash makes
the database raise ``IntegrityError``, the caller's transaction rolls back
whole, and ``classify`` tells a stale version from a retried command.

Rows are written under today's schema and read back in today's shape: a
row written under an older schema goes through its stream's upcaster
(``kernel.upcast``) on every read, so no caller sees an old name or field.
"""

from __future__ import annotations

import functools
import hashlib
import json
import uuid
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db import IntegrityError, connections
from django.utils import timezone

from kernel import statements, upcast
from kernel.models import Command, Event


@dataclass(frozen=True)
class NewEvent:
    """An event to append: its stored name and JSON data (today's schema)."""

    type: str
    data: dict[str, Any]


@dataclass(frozen=True)
class Recorded:
    """An event as stored, in today's shape (``upcast.SCHEMA``)."""

    stream: str
    version: int
    type: str
    data: dict[str, Any]
    recorded_at: datetime
    position: int | None = None


@dataclass(frozen=True)
class Feed:
    """Where appended events go in a table's feed: after ``position``."""

    table: int
    position: int


@dataclass(frozen=True)
class Batch:
    """Events for one stream, which must stand at ``expected_version``."""

    stream: str
    expected_version: int
    events: Sequence[NewEvent]


class StreamConflict(Exception):
    """Another writer appended first: the expected version is stale."""


class AlreadyDone(Exception):
    """The command id was carried out before; ``answer`` is what it replied."""

    def __init__(self, answer: dict[str, Any]) -> None:
        super().__init__("command already carried out")
        self.answer = answer


def digest(kind: str, target: int, body: Mapping[str, Any]) -> str:
    """What a command asks, as the sha256 (hex) of its canonical JSON: the
    kind of command, the table or tournament it targets and its body
    (without the command id; keys sorted, no spaces).  Stored with the
    command id, it tells a retry (the same digest) from another command
    sent under that id."""
    content = {"kind": kind, "target": target, "body": body}
    text = json.dumps(content, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(text.encode()).hexdigest()


@dataclass(frozen=True)
class Appending:
    """An append made ready, not yet run: its statements, and its events
    as they will be recorded (so the caller can send what follows from
    them in the same round trip)."""

    writes: list[statements.Statement]
    recorded: list[Recorded]
    using: str = "default"


def append(batches: Sequence[Batch], **options: Any) -> list[Recorded]:
    """Write ``batches`` (and the command's answer) in the caller's transaction.

    With ``feed`` the events also take the next positions of that table's
    feed, in order.  Raises ``IntegrityError`` when a version or position is
    taken or the command id was seen; the caller lets its transaction roll
    back and calls ``classify``.  ``at`` is the time to record (now unless
    the caller judged the command at a time of its own); ``content``, the
    command's ``digest``, is stored with its id.  (The options are
    ``appending``'s.)
    """
    ready = appending(batches, **options)
    statements.execute(ready.writes, ready.using)  # one round trip on PostgreSQL
    return ready.recorded


def appending(
    batches: Sequence[Batch],
    *,
    command_id: uuid.UUID | None = None,
    answer: dict[str, Any] | None = None,
    content: str | None = None,
    by: Any = None,
    feed: Feed | None = None,
    at: datetime | None = None,
    using: str = "default",
) -> Appending:
    """``append``'s statements and records, not run: the command path runs
    them in one statement with the read models' writes."""
    now = at or timezone.now()
    command = None
    writes = []
    if command_id is not None:
        first = batches[0].stream if batches else ""
        command = Command(
            id=command_id,
            stream=first,
            answer=answer or {},
            digest=content,
            by=by,
            recorded_at=now,
        )
        writes.append(statements.insert(Command, [command], using))
    rows = [
        Event(
            stream=batch.stream,
            version=batch.expected_version + k,
            type=event.type,
            data=event.data,
            schema=upcast.SCHEMA,
            recorded_at=now,
            command=command,
        )
        for batch in batches
        for k, event in enumerate(batch.events, start=1)
    ]
    if feed is not None:
        for k, row in enumerate(rows, start=feed.position + 1):
            row.feed, row.position = feed.table, k
    if rows:
        writes.append(statements.insert(Event, rows, using))
    recorded = [Recorded(r.stream, r.version, r.type, r.data, now, r.position) for r in rows]
    return Appending(writes, recorded, using)


def classify(
    error: IntegrityError, command_id: uuid.UUID | None, using: str = "default"
) -> Exception:
    """After a failed append rolled back: ``AlreadyDone`` for a retried
    command, else ``StreamConflict``."""
    if command_id is not None:
        done = Command.objects.using(using).filter(id=command_id).first()
        if done is not None:
            return AlreadyDone(done.answer)
    return StreamConflict(str(error))


FIELDS = ("stream", "version", "type", "data", "schema", "recorded_at", "position")
"""The columns a read needs."""


def recorded(rows: Iterable[Event], positions: bool = True) -> list[Recorded]:
    """Stored rows (of any schema) as today's events (with their feed
    positions unless ``positions`` is false)."""
    out = []
    for r in rows:
        kind, data = upcast.current(r.stream, r.type, r.data, r.schema)
        at = r.position if positions else None
        out.append(Recorded(r.stream, r.version, kind, data, r.recorded_at, at))
    return out


def load(stream: str, after: int = 0, using: str = "default") -> list[Recorded]:
    """The events of ``stream`` after version ``after``, in order.

    A command whose stream another process moved folds on from here (a
    table's players on two servers: most actions): its SQL is made once
    per process (``_load_sql``), not built by the ORM each time (that was
    most of the read's CPU), and each column goes through its field's
    converters, as a queryset's would (``statements.row_converter``)."""
    sql = _load_sql(using)
    convert = statements.row_converter(Event, LOADED, using)
    with connections[using].cursor() as cursor:
        cursor.execute(sql, [stream, after])
        rows = cursor.fetchall()
    out = []
    for values in rows:
        version, kind, data, schema, at = convert(values)
        kind, data = upcast.current(stream, kind, data, schema)
        out.append(Recorded(stream, version, kind, data, at))
    return out


LOADED = ("version", "type", "data", "schema", "recorded_at")
"""The columns ``load`` reads, in order (the stream is the one asked for)."""


@functools.cache
def _load_sql(using: str) -> str:
    """``load``'s statement for the database of alias ``using``."""
    meta = Event._meta
    quote = connections[using].ops.quote_name
    stream, version = (quote(statements.column(Event, name)) for name in ("stream", "version"))
    columns = ", ".join(quote(statements.column(Event, name)) for name in LOADED)
    return (
        f"SELECT {columns} FROM {quote(meta.db_table)}"
        f" WHERE {stream} = %s AND {version} > %s ORDER BY {version}"
    )


def load_feed(
    table: int, after: int = 0, limit: int = 1000, using: str = "default"
) -> list[Recorded]:
    """The events of a table's feed after ``position``, in order, at most ``limit``."""
    rows = Event.objects.using(using).filter(feed=table, position__gt=after).order_by("position")
    return recorded(rows[:limit].only(*FIELDS))


def streams(prefix: str, using: str = "default") -> list[str]:
    """Every stream whose name starts with ``prefix``, in name order."""
    names = Event.objects.using(using).filter(stream__startswith=prefix, version=1)
    return list(names.order_by("stream").values_list("stream", flat=True))
