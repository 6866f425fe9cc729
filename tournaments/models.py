"""Tournament read models: ``Tournament`` and its ``Entrant`` rows.

The truth is the tournament's stream in the event log the cash tables use
(``poker.models.Event``, stream ``tournament-<id>``).  These rows are
projections of it, rewritten in the same transaction as every append and
reproducible from the log (``tournaments.projections.rebuild``).
"""

from __future__ import annotations

from datetime import datetime

from django.conf import settings
from django.db import models
from django.utils import timezone

from tournaments.rules.steps import step_ticket


class StepChain(models.Model):
    """A chain of step satellites into ``target`` (``tournaments.rules.steps``):
    the rules' chain as JSON (``steps``: each step's entry price and
    consolation steps), and when its step tickets expire."""

    name = models.CharField(max_length=80)
    target = models.ForeignKey(
        "Tournament", on_delete=models.PROTECT, related_name="step_chains_into"
    )
    steps = models.JSONField()
    """``[{"price": 300, "consolation": [1]}, ...]``, step 1 first."""
    target_price = models.PositiveBigIntegerField()
    expires_at = models.DateTimeField()
    closed = models.BooleanField(default=False)
    """Expired and every step ticket still held cashed out."""
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["id"]

    def __str__(self) -> str:
        return f"step chain {self.pk} {self.name}"

    def expired(self, now: datetime) -> bool:
        """Its step tickets can no longer be played at ``now``."""
        return self.closed or self.expires_at <= now


class FlightEvent(models.Model):
    """A multi-flight event (``tournaments.rules.flights``): its starting
    flights and its Day 2 are tournaments of their own (``Tournament.flight``
    numbers them, 0 for Day 2); this row holds what they share, the rules'
    ``FlightRules`` (how far a flight plays down, re-entry, which bag goes
    through)."""

    name = models.CharField(max_length=80)
    advance_percent = models.PositiveSmallIntegerField()
    re_entry = models.BooleanField(default=True)
    carry = models.CharField(max_length=8, default="best")
    """``best`` or ``latest`` (``flights.Carry``)."""
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["id"]

    def __str__(self) -> str:
        return f"flight event {self.pk} {self.name}"


class Tournament(models.Model):
    """A tournament: its settings and where its stream stands (projection)."""

    class Status(models.TextChoices):
        SCHEDULED = "scheduled"
        REGISTERING = "registering"
        RUNNING = "running"
        FINISHED = "finished"
        CANCELLED = "cancelled"

    name = models.CharField(max_length=80)
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.SCHEDULED)
    game = models.CharField(max_length=24)
    betting = models.CharField(max_length=16)
    buy_in = models.PositiveBigIntegerField()
    fee = models.PositiveBigIntegerField(default=0)
    starting_stack = models.PositiveBigIntegerField()
    seats_per_table = models.PositiveSmallIntegerField()
    satellite_target = models.CharField(max_length=80, blank=True, default="")
    """The target a satellite awards seats into ("" for a regular tournament)."""
    sit_and_go = models.BooleanField(default=False)
    step_chain = models.ForeignKey(
        StepChain, null=True, blank=True, on_delete=models.PROTECT, related_name="tournaments"
    )
    step = models.PositiveSmallIntegerField(null=True, blank=True)
    """Which step of ``step_chain`` this tournament is (None: not a step)."""
    flight_event = models.ForeignKey(
        FlightEvent, null=True, blank=True, on_delete=models.PROTECT, related_name="tournaments"
    )
    flight = models.PositiveSmallIntegerField(null=True, blank=True)
    """Which of ``flight_event``'s tournaments this is: its starting flight
    1, 2, ... or 0 its Day 2 (None: not part of one)."""
    definition = models.JSONField()
    """The whole definition as the rules' codec writes it (``definition_to_json``)."""
    starts_at = models.DateTimeField(null=True, blank=True)
    """The scheduled start (None for a sit-and-go)."""
    started_at = models.DateTimeField(null=True, blank=True)
    version = models.PositiveIntegerField(default=0)
    """The tournament stream's version."""
    entries = models.PositiveIntegerField(default=0)
    players_left = models.PositiveIntegerField(default=0)
    prize_pool = models.PositiveBigIntegerField(default=0)
    level = models.PositiveSmallIntegerField(default=1)
    """The level in force (during a break: the one just played)."""
    on_break = models.BooleanField(default=False)
    clock_running = models.BooleanField(default=False)
    level_ends_at = models.DateTimeField(null=True, blank=True)
    """When the level or break in force ends (None: paused, the last level,
    not running): the level clock's deadline."""
    tables = models.PositiveSmallIntegerField(default=0)
    hand_for_hand = models.BooleanField(default=False)
    final_table = models.BooleanField(default=False)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["id"]
        indexes = [
            models.Index(fields=["status", "starts_at"], name="tournament_status_start"),
            models.Index(fields=["status", "level_ends_at"], name="tournament_status_level_end"),
        ]

    def __str__(self) -> str:
        return f"tournament {self.pk} {self.name}"

    @property
    def stream(self) -> str:
        """The name of this tournament's event stream."""
        return tournament_stream(self.pk)

    @property
    def tickets_into(self) -> str:
        """The tickets this tournament takes: its step's, or its own."""
        if self.step_chain_id is None or self.step is None:
            return str(self.pk)
        return step_ticket(self.step_chain_id, self.step)


TAKING = (Tournament.Status.SCHEDULED, Tournament.Status.REGISTERING)
"""A tournament still taking entries: before its start."""


class Entrant(models.Model):
    """One player in a tournament, with his current entry (projection)."""

    class Status(models.TextChoices):
        IN = "in"
        """Registered, or playing (with no chips while he may still rebuy)."""
        OUT = "out"
        DISQUALIFIED = "disqualified"

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entrants")
    player = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT)
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.IN)
    entries = models.PositiveSmallIntegerField(default=1)
    stack = models.PositiveBigIntegerField(default=0)
    table = models.PositiveSmallIntegerField(null=True, blank=True)
    seat = models.PositiveSmallIntegerField(null=True, blank=True)
    rebuys = models.PositiveSmallIntegerField(default=0)
    added_on = models.BooleanField(default=False)
    paid = models.PositiveBigIntegerField(default=0)
    """Money paid in (entries, rebuys, add-ons) less refunds."""
    place = models.PositiveIntegerField(null=True, blank=True)
    """Finishing place once play is over (tied players share the best)."""
    prize = models.PositiveBigIntegerField(default=0)
    """Cash won."""
    ticket = models.BooleanField(default=False)
    """Won a seat in the satellite's target."""
    consolation = models.CharField(max_length=80, blank=True, default="")
    """The step a consolation ticket was won into ("" none)."""
    bounty = models.PositiveBigIntegerField(default=0)
    """The head on him (a bounty tournament)."""
    bounty_won = models.PositiveBigIntegerField(default=0)
    """Bounty money paid to him."""

    class Meta:
        ordering = ["tournament", "place", "player"]
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "player"], name="entrant_tournament_player"
            )
        ]

    def __str__(self) -> str:
        return f"player {self.player_id} in tournament {self.tournament_id}"


def tournament_stream(tournament_id: int) -> str:
    """Stream name of a tournament."""
    return f"tournament-{tournament_id}"


class Schedule(models.Model):
    """A recurring tournament (``tournaments.schedules``): every day, or on
    some days of the week, at ``time`` in ``time_zone``, a tournament of
    ``template`` is created ``horizon_days`` ahead, so a room's schedule
    runs without a director typing each one."""

    class Every(models.TextChoices):
        DAY = "daily"
        """Every day."""
        WEEK = "weekly"
        """On ``weekdays`` only."""

    name = models.CharField(max_length=80)
    """The name of each tournament it creates."""
    template = models.JSONField()
    """The tournament create API's body (``TournamentIn``) without its name
    and start, as validated: each occurrence is built from it by the same
    code and rules as a tournament a director creates."""
    every = models.CharField(max_length=8, choices=Every.choices)
    weekdays = models.JSONField(default=list)
    """ISO weekdays (1 Monday ... 7 Sunday) of a weekly schedule."""
    time = models.TimeField()
    """The start's time of day, in ``time_zone``."""
    time_zone = models.CharField(max_length=64)
    """An IANA time zone name (by default the room's: ``TIME_ZONE``)."""
    horizon_days = models.PositiveSmallIntegerField(default=7)
    """How far ahead its tournaments are created."""
    paused = models.BooleanField(default=False)
    problem = models.CharField(max_length=300, blank=True, default="")
    """Why its last occurrence could not be created ("" when it could):
    shown to the directors, tried again at every run."""
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["id"]

    def __str__(self) -> str:
        return f"schedule {self.pk} {self.name}"


class Occurrence(models.Model):
    """The tournament a schedule created for one local day: the key that
    makes the creation happen once, whoever runs it and however often."""

    schedule = models.ForeignKey(Schedule, on_delete=models.CASCADE, related_name="occurrences")
    day = models.DateField()
    """The day in the schedule's time zone."""
    tournament = models.OneToOneField(
        Tournament, on_delete=models.PROTECT, related_name="occurrence"
    )

    class Meta:
        ordering = ["schedule", "day"]
        constraints = [
            models.UniqueConstraint(fields=["schedule", "day"], name="occurrence_schedule_day")
        ]

    def __str__(self) -> str:
        return f"schedule {self.schedule_id} on {self.day}"
