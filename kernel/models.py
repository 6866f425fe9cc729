"""The kernel's rows: every stream's events and commands, and its clocks."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import models
from django.utils import timezone


class Clock(models.Model):
    """A timer of a stream, as data: one row per (stream, kind).

    Set (or moved) by a command in its own transaction, at the version of
    ``stream`` it is for and the time it comes due; the drain fires it once
    that time has come, in the transaction that deletes it
    (``kernel.clocks``).  ``kind`` names the aggregate's clock (``poker.turn``,
    ``tournament.clock``, ...), optionally with a key after a colon when an
    aggregate runs several clocks of one kind (``tournament.rebuy:17``);
    ``args`` is what the aggregate's command needs besides the stream and
    version (the table id, a period)."""

    stream = models.CharField(max_length=60)
    kind = models.CharField(max_length=60)
    version = models.BigIntegerField()
    due = models.DateTimeField(db_index=True)
    args = models.JSONField(default=dict)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["stream", "kind"], name="kernel_clock_stream_kind")
        ]

    def __str__(self) -> str:
        return f"{self.kind} {self.stream}@{self.version} due {self.due.isoformat()}"


class AppendOnly(Exception):
    """An attempt to change or remove a recorded event."""


class EventQuerySet(models.QuerySet["Event"]):
    """Events cannot be changed or removed in bulk either."""

    def update(self, **kwargs: Any) -> int:
        raise AppendOnly("events are never updated")

    def delete(self) -> tuple[int, dict[str, int]]:
        raise AppendOnly("events are never deleted")


class Event(models.Model):
    """One fact of one stream (a table or a hand), at one version.

    The unique (stream, version) turns two writers racing for the same
    version into a conflict instead of a fork.  On PostgreSQL a trigger
    refuses UPDATE and DELETE as well (poker's migration 0002).
    """

    stream = models.CharField(max_length=40)
    version = models.PositiveIntegerField()
    type = models.CharField(max_length=40)
    """The event's stored name (``hand.cards_dealt``; a class name in schema 1)."""
    data = models.JSONField()
    schema = models.PositiveSmallIntegerField(default=3)
    """The shape ``type`` and ``data`` were written in (``kernel.upcast``):
    rows of an older schema are read through the upcasters."""
    recorded_at = models.DateTimeField(default=timezone.now)
    command = models.ForeignKey(
        "Command",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="events",
        db_index=False,  # no query looks events up by command (poker's migration 0018)
    )
    feed = models.BigIntegerField(null=True, blank=True)
    """The table whose feed this event is part of: its own stream and its hands'."""
    position = models.PositiveBigIntegerField(null=True, blank=True)
    """The event's place in its table's feed (1, 2, ...): one order for the
    table and all its hands, for clients catching up after a reconnect."""

    objects = EventQuerySet.as_manager()

    class Meta:
        db_table = "poker_event"
        constraints = [
            models.UniqueConstraint(fields=["stream", "version"], name="event_stream_version"),
            models.UniqueConstraint(fields=["feed", "position"], name="event_feed_position"),
        ]
        ordering = ["stream", "version"]

    def __str__(self) -> str:
        return f"{self.stream}@{self.version} {self.type}"

    def save(self, *args: Any, **kwargs: Any) -> None:
        if not self._state.adding:
            raise AppendOnly("events are never updated")
        super().save(*args, **kwargs)

    def delete(self, *args: Any, **kwargs: Any) -> tuple[int, dict[str, int]]:
        raise AppendOnly("events are never deleted")


class Command(models.Model):
    """A command that was carried out, by its client-chosen id.

    The primary key makes a retried command collide with its first run; the
    stored ``answer`` is what the first run replied, returned again.
    ``digest`` (``eventstore.digest``: its kind, target and body) tells a
    retry, answered again, from another command sent under the same id,
    refused; rows from before it was kept have none and are not checked.
    """

    id = models.UUIDField(primary_key=True)
    stream = models.CharField(max_length=40)
    answer = models.JSONField()
    digest = models.CharField(max_length=64, null=True, blank=True)
    recorded_at = models.DateTimeField(default=timezone.now)
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT
    )

    class Meta:
        db_table = "poker_command"

    def __str__(self) -> str:
        return f"command {self.id} on {self.stream}"
