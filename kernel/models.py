"""The kernel's rows."""

from __future__ import annotations

from django.db import models


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
