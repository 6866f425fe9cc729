"""Casino-table read models (projections of the ``casino-table-<id>`` and
``casino-round-<id>-<n>`` streams, rewritten with every append and rebuilt
by ``manage.py rebuild_projections``).  The events themselves are the
event store's rows like every other stream's.

Their database tables are named ``poker_casino...`` (``db_table``): the
names every database holds them under, whenever it was made
(``casino/migrations/0001_initial.py``)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from kernel.lookups import ArrayHas


class CasinoTable(models.Model):
    """A house-banked table: its settings and where its stream stands."""

    class Status(models.TextChoices):
        OPEN = "open"
        CLOSING = "closing"
        CLOSED = "closed"

    name = models.CharField(max_length=64)
    jokers = models.PositiveSmallIntegerField()
    pay_table = models.JSONField()
    """"N to 1" on BET by hand name (``PayTable.to_json``)."""
    min_bet = models.PositiveBigIntegerField()
    max_bet = models.PositiveBigIntegerField()
    boxes = models.PositiveSmallIntegerField()
    bet_seconds = models.PositiveSmallIntegerField()
    decision_seconds = models.PositiveSmallIntegerField()
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.OPEN)
    version = models.PositiveIntegerField(default=0)
    """The table stream's version."""
    position = models.PositiveBigIntegerField(default=0)
    """The last position of the table's feed (its stream and its rounds',
    in the order they were written: ``casino_feed``)."""
    round_number = models.PositiveIntegerField(default=0)
    """The last round dealt."""
    round_running = models.BooleanField(default=False)
    bet_until = models.DateTimeField(null=True, blank=True)
    """When the betting window of the next round closes (None: no bet yet)."""
    exposure = models.PositiveBigIntegerField(default=0)
    """The most the house could lose on the table's open boxes: the
    bankroll must cover every table's together (``casino.house``)."""
    players_seated = models.PositiveSmallIntegerField(default=0)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        db_table = "poker_casinotable"
        verbose_name = _("casino table")
        verbose_name_plural = _("casino tables")
        ordering = ["id"]

    def __str__(self) -> str:
        return f"casino table {self.pk} {self.name}"

    @property
    def stream(self) -> str:
        return casino_table_stream(self.pk)


class CasinoBox(models.Model):
    """One occupied box of a casino table (projection)."""

    table = models.ForeignKey(CasinoTable, on_delete=models.CASCADE, related_name="box_set")
    number = models.PositiveSmallIntegerField()
    """0-based, as the engine counts; the API shows it plus one."""
    player = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT)
    bet = models.PositiveBigIntegerField(default=0)
    held = models.PositiveBigIntegerField(default=0)
    sitting_out = models.BooleanField(default=False)
    leaving = models.BooleanField(default=False)

    class Meta:
        db_table = "poker_casinobox"
        verbose_name = _("casino box")
        verbose_name_plural = _("casino boxes")
        ordering = ["table", "number"]
        constraints = [
            models.UniqueConstraint(fields=["table", "number"], name="casino_box_table_number"),
            models.UniqueConstraint(fields=["table", "player"], name="casino_box_table_player"),
        ]

    def __str__(self) -> str:
        return f"box {self.number} of casino table {self.table_id}"


class CasinoRound(models.Model):
    """One round at a casino table: where its stream stands (projection)."""

    id = models.CharField(primary_key=True, max_length=24)
    """``<table id>-<number>``."""
    table = models.ForeignKey(CasinoTable, on_delete=models.PROTECT, related_name="rounds")
    number = models.PositiveIntegerField()
    boxes = models.JSONField()
    """The table's box numbers dealt in, in the round's order."""
    players = models.JSONField(default=list)
    """Their players' ids, in the same order (a player's rounds: ``players__has``)."""
    players.register_lookup(ArrayHas)
    version = models.PositiveIntegerField(default=0)
    phase = models.CharField(max_length=16)
    to_act = models.PositiveSmallIntegerField(null=True, blank=True)
    """The round's box to act (an index into ``boxes``)."""
    started_at = models.DateTimeField()
    turn_started_at = models.DateTimeField(null=True, blank=True)
    """When the turn of the box to act began: its decision clock started then."""
    ended_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        db_table = "poker_casinoround"
        verbose_name = _("casino round")
        verbose_name_plural = _("casino rounds")
        ordering = ["table", "number"]
        constraints = [
            models.UniqueConstraint(fields=["table", "number"], name="casino_round_table_number")
        ]

    def __str__(self) -> str:
        return f"round {self.number} of casino table {self.table_id}"

    @property
    def stream(self) -> str:
        return casino_round_stream(self.pk)


class CasinoMath(models.Model):
    """A configuration's house edge against the best response
    (``poker.engine.casino.edge.EdgeFigures``), computed once by ``manage.py
    casino_math --store`` (the default configuration's ship with the code)
    and read by the guard that opens tables.  Shares of the original bet B;
    positive: the house wins."""

    digest = models.CharField(max_length=64, unique=True)
    """``settings_digest`` of the configuration."""
    jokers = models.PositiveSmallIntegerField()
    pay_table = models.JSONField()
    qualifier = models.PositiveIntegerField()
    """The dealer's least qualifying hand (a ``rank_joker_high`` value)."""
    not_qualified = models.CharField(max_length=16)
    """The ANTE's odds when the dealer does not qualify ("2/3")."""
    model_edge = models.FloatField()
    simulated_edge = models.FloatField()
    simulated_low = models.FloatField()
    simulated_high = models.FloatField()
    rounds = models.PositiveBigIntegerField()
    dealer_samples = models.PositiveIntegerField()
    seed = models.BigIntegerField()
    largest_payout = models.PositiveIntegerField()
    """The most one box can win in a round beyond its stakes, in B."""
    strategy_card = models.JSONField()
    """The best response in a few plain lines."""
    computed_at = models.DateTimeField(default=timezone.now)

    class Meta:
        db_table = "poker_casinomath"
        ordering = ["id"]
        verbose_name = _("casino math")
        verbose_name_plural = _("casino math")

    def __str__(self) -> str:
        return f"casino math {self.digest[:12]} ({self.jokers} jokers)"


def casino_feed(table_id: int) -> int:
    """The feed of a casino table: its stream's and its rounds' events in
    the order they were written (``Event.feed``, ``position``), for the live
    stream's catch-up.  Numbered below zero, so that it never meets the
    feed of a pot table, which is the table's own (positive) id."""
    return -table_id


def casino_table_stream(table_id: int) -> str:
    return f"casino-table-{table_id}"


def round_id(table_id: int, number: int) -> str:
    return f"{table_id}-{number}"


def casino_round_stream(round_pk: str) -> str:
    return f"casino-round-{round_pk}"
