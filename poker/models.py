"""Cash-table storage: the read models.

The events (``kernel.models.Event``, ``Command``) are the truth.  ``Table``,
``Seat`` and ``Hand`` are projections of the events, rewritten in the same
transaction as every append and reproducible by ``manage.py
rebuild_projections``.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import models
from django.utils import timezone

from poker.engine.table.config import setting


def _default(name: str) -> Any:
    """The column default of setting ``name``: its declared default as
    stored, so a default is changed in one place (and a migration follows).
    ``tests/poker/test_table_settings.py`` checks the columns agree with the
    declarations in name, nullability and bounds too."""
    declared = setting(name)
    return declared.plain(declared.default)


class Table(models.Model):
    """A cash table: its settings and where its stream stands (projection)."""

    class Status(models.TextChoices):
        OPEN = "open"
        CLOSING = "closing"
        CLOSED = "closed"

    # The settings (``TableConfig``): one column each, named as the setting.
    # The widths and integer sizes are storage choices; defaults and the
    # name's length come from the declarations.
    name = models.CharField(max_length=setting("name").bounds.high)
    game = models.CharField(max_length=24)
    betting = models.CharField(max_length=16)
    small_blind = models.PositiveBigIntegerField()
    big_blind = models.PositiveBigIntegerField()
    ante = models.PositiveBigIntegerField(default=_default("ante"))
    ante_by = models.CharField(max_length=16, default=_default("ante_by"))
    tie_break = models.CharField(max_length=8, default=_default("tie_break"))
    seats = models.PositiveSmallIntegerField()
    min_buy_in = models.PositiveBigIntegerField()
    max_buy_in = models.PositiveBigIntegerField(null=True, blank=True)
    action_seconds = models.PositiveSmallIntegerField(default=_default("action_seconds"))
    draw_seconds = models.PositiveSmallIntegerField(default=_default("draw_seconds"))
    bet_seconds = models.PositiveSmallIntegerField(default=_default("bet_seconds"))
    parole_seconds = models.PositiveSmallIntegerField(default=_default("parole_seconds"))
    time_bank_seconds = models.PositiveSmallIntegerField(default=_default("time_bank_seconds"))
    time_bank_refill_hands = models.PositiveSmallIntegerField(
        default=_default("time_bank_refill_hands")
    )
    pause_seconds = models.PositiveSmallIntegerField(default=_default("pause_seconds"))
    rake_basis_points = models.PositiveSmallIntegerField(default=_default("rake_basis_points"))
    """The rake in hundredths of a percent (RULES.md 8; 0: none)."""
    rake_cap = models.PositiveBigIntegerField(null=True, blank=True, default=_default("rake_cap"))
    """The most chips the rake takes from one hand (None: no cap)."""
    rake_min_pot = models.PositiveBigIntegerField(default=_default("rake_min_pot"))
    """The smallest raked pot, in chips."""
    tournament = models.PositiveBigIntegerField(null=True, blank=True)
    """The tournament a tournament table belongs to (None: a cash table)."""
    tournament_table = models.PositiveSmallIntegerField(null=True, blank=True)
    """Its number in the tournament."""
    next_hand_at = models.DateTimeField(null=True, blank=True)
    """When the pause after the last hand ends (its end plus the pause)."""
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.OPEN)
    """Open, closing (when the running hand ends) or closed."""
    version = models.PositiveIntegerField(default=0)
    """The table stream's version."""
    position = models.PositiveBigIntegerField(default=0)
    """The last position in the table's feed (its stream and its hands')."""
    button = models.PositiveSmallIntegerField(null=True, blank=True)
    hand_number = models.PositiveIntegerField(default=0)
    current_hand = models.ForeignKey(
        "Hand", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    players_seated = models.PositiveSmallIntegerField(default=0)
    hands_ended = models.PositiveIntegerField(default=0)
    """Hands finished here; with ``pots_total``, the lobby's average pot
    (running totals, so the lobby never sums the hand rows)."""
    pots_total = models.PositiveBigIntegerField(default=0)
    """The finished hands' pots summed (rake included, as ``Hand.pot``)."""
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["id"]

    def __str__(self) -> str:
        return f"table {self.pk} {self.name}"

    @property
    def stream(self) -> str:
        """The name of this table's event stream."""
        return table_stream(self.pk)


class Seat(models.Model):
    """One occupied seat of a table (projection)."""

    table = models.ForeignKey(
        Table,
        on_delete=models.CASCADE,
        related_name="seat_set",
        db_index=False,  # ``seat_table_number`` leads with it (migration 0018)
    )
    number = models.PositiveSmallIntegerField()
    player = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT)
    stack = models.PositiveBigIntegerField()
    sitting_out = models.BooleanField(default=False)
    waiting_for_big_blind = models.BooleanField(default=False)
    in_hand = models.BooleanField(default=False)
    top_up_queued = models.PositiveBigIntegerField(default=0)
    leave_queued = models.BooleanField(default=False)
    missed_blinds = models.JSONField(default=list)
    time_bank = models.PositiveIntegerField(default=0)
    """Seconds left in the player's time bank."""

    class Meta:
        ordering = ["table", "number"]
        constraints = [
            models.UniqueConstraint(fields=["table", "number"], name="seat_table_number"),
            models.UniqueConstraint(fields=["table", "player"], name="seat_table_player"),
        ]

    def __str__(self) -> str:
        return f"seat {self.number} of table {self.table_id}"


class Hand(models.Model):
    """One hand at a table: where its stream stands and its public summary
    (projection).  The deck order stays in the stream, secret for good; only
    its commitment is here."""

    id = models.CharField(primary_key=True, max_length=24)
    """``<table id>-<number>``: fixed by the events, so a rebuild keeps it."""
    table = models.ForeignKey(
        Table,
        on_delete=models.PROTECT,
        related_name="hands",
        db_index=False,  # ``hand_table_number`` leads with it (migration 0018)
    )
    number = models.PositiveIntegerField()
    version = models.PositiveIntegerField(default=0)
    phase = models.CharField(max_length=12)
    seats = models.JSONField()
    """Seat numbers dealt in, in the engine's player order."""
    to_act_seat = models.PositiveSmallIntegerField(null=True, blank=True)
    pot = models.PositiveBigIntegerField(default=0)
    deck_commitment = models.CharField(max_length=64)
    """The deck's commitment published at the deal (``HandStarted.root``):
    the Merkle root of its salted positions (docs/fair-deal.md), or for
    hands dealt before issue 13 the SHA-256 of the seed and deck order."""
    started_at = models.DateTimeField()
    turn_started_at = models.DateTimeField(null=True, blank=True)
    """When the turn in progress began (``engine.table.clock.turn``): the
    clock of the player to act started then."""
    ended_at = models.DateTimeField(null=True, blank=True)
    result = models.JSONField(null=True, blank=True)

    class Meta:
        ordering = ["table", "number"]
        constraints = [
            models.UniqueConstraint(fields=["table", "number"], name="hand_table_number")
        ]
        # The reports (``reports``) find the hands of a period by their start,
        # and the raked hands by their end (``reports.rake``).
        indexes = [
            models.Index(fields=["started_at"], name="hand_started"),
            models.Index(fields=["ended_at"], name="hand_ended"),
        ]

    def __str__(self) -> str:
        return f"hand {self.number} of table {self.table_id}"

    @property
    def stream(self) -> str:
        """The name of this hand's event stream."""
        return hand_stream(self.pk)


def table_stream(table_id: int) -> str:
    """Stream name of a table."""
    return f"table-{table_id}"


def hand_id(table_id: int, number: int) -> str:
    """A hand's id: its table and its number there."""
    return f"{table_id}-{number}"


def hand_stream(hand_pk: str) -> str:
    """Stream name of a hand."""
    return f"hand-{hand_pk}"


from poker.casino.models import CasinoBox, CasinoMath, CasinoRound, CasinoTable  # noqa: E402,F401 - the app's models
