"""The event store, one suite run on every backend: SQLite and PostgreSQL."""

from __future__ import annotations

import uuid

import pytest
from django.db import IntegrityError, transaction

from kernel.eventstore import (
    AlreadyDone,
    Batch,
    Feed,
    NewEvent,
    StreamConflict,
    append,
    classify,
    load,
    load_feed,
    recorded,
)
from kernel.eventstore import streams as list_streams
from kernel.models import AppendOnly, Event

BACKENDS = [
    pytest.param("sqlite", marks=pytest.mark.django_db(databases=["sqlite"]), id="sqlite"),
    pytest.param(
        "postgres",
        marks=[pytest.mark.postgres, pytest.mark.django_db(databases=["postgres"])],
        id="postgres",
    ),
]

pytestmark = pytest.mark.parametrize("alias", BACKENDS)


def events(*types: str) -> list[NewEvent]:
    return [NewEvent(t, {"n": k}) for k, t in enumerate(types)]


def try_append(
    alias: str, batches: list[Batch], command_id: uuid.UUID | None = None, feed: Feed | None = None
) -> Exception:
    """Append in a transaction that is expected to fail; the classified error."""
    try:
        with transaction.atomic(using=alias):
            append(batches, command_id=command_id, answer={"ok": 2}, feed=feed, using=alias)
    except IntegrityError as error:
        return classify(error, command_id, using=alias)
    raise AssertionError("the append was expected to clash")


def test_appended_events_load_back_in_order(alias: str) -> None:
    with transaction.atomic(using=alias):
        append([Batch("s-1", 0, events("A", "B"))], using=alias)
        append([Batch("s-1", 2, events("C"))], using=alias)
    loaded = load("s-1", using=alias)
    assert [(e.version, e.type) for e in loaded] == [(1, "A"), (2, "B"), (3, "C")]
    assert [e.data for e in load("s-1", after=2, using=alias)] == [{"n": 0}]


def test_a_stream_loads_as_the_orm_reads_its_rows(alias: str) -> None:
    """``load``'s own SQL and converters give what a queryset gives."""
    with transaction.atomic(using=alias):
        append([Batch("s-1", 0, events("A", "B"))], using=alias)
        append([Batch("s-2", 0, events("C"))], using=alias)
    rows = Event.objects.using(alias).filter(stream="s-1").order_by("version")
    loaded = load("s-1", using=alias)
    assert loaded == recorded(rows, positions=False) and len(loaded) == 2
    assert loaded[0].recorded_at.tzinfo is not None and isinstance(loaded[0].data, dict)


def test_a_taken_version_is_a_conflict_and_writes_nothing(alias: str) -> None:
    with transaction.atomic(using=alias):
        append([Batch("s-1", 0, events("A"))], using=alias)
    error = try_append(alias, [Batch("s-1", 0, events("X", "Y"))])
    assert isinstance(error, StreamConflict)
    assert [e.type for e in load("s-1", using=alias)] == ["A"]


def test_a_retried_command_returns_the_first_answer_and_writes_nothing(alias: str) -> None:
    command = uuid.uuid4()
    with transaction.atomic(using=alias):
        append([Batch("s-1", 0, events("A"))], command_id=command, answer={"ok": 1}, using=alias)
    error = try_append(alias, [Batch("s-1", 1, events("B"))], command_id=command)
    assert isinstance(error, AlreadyDone)
    assert error.answer == {"ok": 1}
    assert [e.type for e in load("s-1", using=alias)] == ["A"]


def test_an_append_to_two_streams_is_all_or_nothing(alias: str) -> None:
    with transaction.atomic(using=alias):
        append([Batch("s-2", 0, events("A"))], using=alias)
    error = try_append(alias, [Batch("s-1", 0, events("X")), Batch("s-2", 0, events("Y"))])
    assert isinstance(error, StreamConflict)
    assert load("s-1", using=alias) == []
    assert [e.type for e in load("s-2", using=alias)] == ["A"]


def test_events_refuse_to_be_changed_or_removed(alias: str) -> None:
    with transaction.atomic(using=alias):
        append([Batch("s-1", 0, events("A"))], using=alias)
    row = Event.objects.using(alias).get(stream="s-1")
    row.type = "B"
    with pytest.raises(AppendOnly):
        row.save(using=alias)
    with pytest.raises(AppendOnly):
        row.delete()
    with pytest.raises(AppendOnly):
        Event.objects.using(alias).filter(stream="s-1").update(type="B")
    with pytest.raises(AppendOnly):
        Event.objects.using(alias).filter(stream="s-1").delete()
    assert Event.objects.using(alias).get(stream="s-1").type == "A"


def test_streams_are_listed_by_prefix(alias: str) -> None:
    with transaction.atomic(using=alias):
        append(
            [Batch("hand-1-1", 0, events("A", "B")), Batch("table-1", 0, events("T"))], using=alias
        )
        append([Batch("hand-1-2", 0, events("A"))], using=alias)
    assert list_streams("hand-", using=alias) == ["hand-1-1", "hand-1-2"]


def test_a_feed_orders_the_events_of_several_streams(alias: str) -> None:
    with transaction.atomic(using=alias):
        append(
            [Batch("table-7", 0, events("A")), Batch("hand-7-1", 0, events("B", "C"))],
            feed=Feed(7, 0),
            using=alias,
        )
        append([Batch("hand-7-1", 2, events("D"))], feed=Feed(7, 3), using=alias)
    fed = load_feed(7, using=alias)
    assert [(e.position, e.stream, e.type) for e in fed] == [
        (1, "table-7", "A"),
        (2, "hand-7-1", "B"),
        (3, "hand-7-1", "C"),
        (4, "hand-7-1", "D"),
    ]
    assert [e.type for e in load_feed(7, after=2, using=alias)] == ["C", "D"]


def test_a_taken_feed_position_is_a_conflict(alias: str) -> None:
    with transaction.atomic(using=alias):
        append([Batch("hand-7-1", 0, events("A"))], feed=Feed(7, 0), using=alias)
    error = try_append(alias, [Batch("hand-7-2", 0, events("X"))], feed=Feed(7, 0))
    assert isinstance(error, StreamConflict)
    assert load("hand-7-2", using=alias) == []
