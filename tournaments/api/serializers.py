"""Input shapes of the tournament API (types only: the rules validate the
values and name the field they refuse)."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.utils.translation import gettext as _
from rest_framework import serializers

from kernel.api import AnyField, Query, StrictBoolean, StrictInteger, Text, choice
from kernel.api import chips as amount
from poker.api.serializers import CommandIn
from poker.engine.rules import AnteBy, Betting, Game, TieBreak
from poker.engine.table.config import MAX_SEATS, MAX_TOURNAMENT_TABLE, setting
from tournaments.definitions import PRESETS
from tournaments.models import Schedule, Tournament
from tournaments.rules.decide import MAX_ADDED_SECONDS, MAX_NAME, MAX_REASON
from tournaments.rules.definition import (
    CLOCK_SETTINGS,
    DECISION_SECONDS,
    MAX_DECISION_SECONDS,
    MAX_ENTRIES,
)
from tournaments.rules.flights import MAX_FLIGHTS, Carry
from tournaments.rules.payouts import BASIS
from tournaments.rules.structure import (
    MAX_BREAK_MINUTES,
    MAX_LEVEL_MINUTES,
    MAX_LEVELS,
    MIN_BIG_BLIND,
    MINUTE,
)
from tournaments.schedules import MAX_HORIZON_DAYS

MAX_COUNT = 10**6
"""The largest count (players, levels, seconds...) any field takes."""


def count(**options: Any) -> StrictInteger:
    """A whole-number field for counts, levels, seats and seconds: at most
    ``max_value``, the rules' own bound where they have one."""
    return StrictInteger(
        min_value=options.pop("min_value", 0),
        max_value=options.pop("max_value", MAX_COUNT),
        **options,
    )


class LevelIn(serializers.Serializer[dict[str, object]]):
    small_blind = amount(min_value=1)
    big_blind = amount(min_value=MIN_BIG_BLIND)
    ante = amount(min_value=0, default=0)
    minutes = count(min_value=1, max_value=MAX_LEVEL_MINUTES, default=20)


class BreakIn(serializers.Serializer[dict[str, object]]):
    after_level = count(min_value=1, max_value=MAX_LEVELS - 1)
    minutes = count(min_value=1, max_value=MAX_BREAK_MINUTES, default=10)


class StructureIn(serializers.Serializer[dict[str, object]]):
    """A preset by name, or the levels and breaks."""

    preset = serializers.ChoiceField(choices=sorted(PRESETS), required=False)
    minutes = count(min_value=1, max_value=MAX_LEVEL_MINUTES, required=False)
    """A preset's level length."""
    minute_seconds = StrictInteger(min_value=1, max_value=MINUTE, default=MINUTE)
    """Seconds in a minute of the clock (fewer: a scaled-down simulation)."""
    # A list's bounds (min_length, max_length) go to its ListSerializer
    # (DRF's ``many_init``); DRF's stubs do not declare them.
    levels = LevelIn(many=True, required=False, max_length=MAX_LEVELS)  # type: ignore[call-arg]
    breaks = BreakIn(many=True, required=False, max_length=MAX_LEVELS - 1)  # type: ignore[call-arg]
    """At most one after each level but the last."""

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if bool(attrs.get("preset")) == bool(attrs.get("levels")):
            raise serializers.ValidationError(_("Give either a preset or the levels."))
        return attrs


class RebuysIn(serializers.Serializer[dict[str, object]]):
    until_level = count(min_value=1, max_value=MAX_LEVELS)
    chips = amount(min_value=1)
    price = amount(min_value=0)
    max_rebuys = count(min_value=1, required=False, allow_null=True, default=None)
    threshold = amount(min_value=0, required=False, allow_null=True, default=None)
    add_on_chips = amount(min_value=0, default=0)
    add_on_price = amount(min_value=0, default=0)
    decision_seconds = count(min_value=1, max_value=MAX_DECISION_SECONDS, default=DECISION_SECONDS)


class SatelliteIn(serializers.Serializer[dict[str, object]]):
    """Seats into tournament ``target`` (worth its buy-in plus fee)."""

    target = count(min_value=1)
    seats = count(min_value=1, required=False, allow_null=True, default=None)


class StepIn(serializers.Serializer[dict[str, object]]):
    """A tournament of step ``step`` of step chain ``chain`` (awarding what
    the step awards; ``seats``: at most so many into the next step)."""

    chain = count(min_value=1)
    step = count(min_value=1)
    seats = count(min_value=1, required=False, allow_null=True, default=None)


class StepChainStepIn(serializers.Serializer[dict[str, object]]):
    """One step: its entry price, and the steps (this one or below) the
    places just outside its seats win a ticket into, first place first."""

    price = amount(min_value=1)
    consolation = serializers.ListField(child=count(min_value=1), max_length=10, default=list)


class StepChainIn(serializers.Serializer[dict[str, object]]):
    """A chain of step satellites into tournament ``target``, step 1 first;
    its step tickets expire at ``expires_at``."""

    name = Text(max_length=80)
    target = count(min_value=1)
    expires_at = serializers.DateTimeField()
    # The list's bounds, which DRF's stubs do not declare (see StructureIn).
    steps = StepChainStepIn(many=True, min_length=1, max_length=10)  # type: ignore[call-arg]


class BountyIn(serializers.Serializer[dict[str, object]]):
    """A knockout: ``amount`` more on every entry, the head on the player;
    ``progressive`` (a PKO) pays ``paid_now_percent`` of a head won at once
    and adds the rest to the winner's own head."""

    amount = amount(min_value=1)
    progressive = StrictBoolean(default=False)
    paid_now_percent = count(min_value=0, default=50)


class ClocksIn(serializers.Serializer[dict[str, object]]):
    """The clocks of the tournament's tables, in seconds (each left out or
    null: the table default; bounds as for a table's own settings)."""

    def get_fields(self) -> dict[str, AnyField]:
        return {name: _clock(name) for name in CLOCK_SETTINGS}


def _clock(name: str) -> StrictInteger:
    """A tournament's table clock, within the table setting's own bounds."""
    bounds = setting(name).bounds
    return count(
        min_value=bounds.low or 0,
        max_value=bounds.high,
        required=False,
        allow_null=True,
        default=None,
    )


class PayoutTierIn(serializers.Serializer[dict[str, object]]):
    min_entrants = count(min_value=2)
    shares = serializers.ListField(
        child=count(min_value=1, max_value=BASIS), min_length=1, max_length=1000
    )


class LobbyQuery(Query):
    """The lobby's filter: one status (none: every tournament)."""

    status = serializers.ChoiceField(choices=Tournament.Status.choices, required=False)


class TournamentIn(serializers.Serializer[dict[str, object]]):
    """A tournament to create."""

    name = Text(max_length=MAX_NAME)
    starts_at = serializers.DateTimeField(required=False, allow_null=True, default=None)
    """The scheduled start; none for a sit-and-go."""
    game = choice(Game)
    betting = choice(Betting)
    structure = StructureIn()
    starting_stack = amount(min_value=1)
    buy_in = amount(min_value=0)
    fee = amount(min_value=0, default=0)
    min_players = count(min_value=2, max_value=MAX_ENTRIES, default=2)
    max_players = count(min_value=2, max_value=MAX_ENTRIES, default=1000)
    table_size = count(
        min_value=2, max_value=MAX_SEATS, required=False, allow_null=True, default=None
    )
    late_registration_level = count(
        min_value=1, max_value=MAX_LEVELS, required=False, allow_null=True, default=None
    )
    re_entries = count(min_value=0, required=False, allow_null=True, default=0)
    """Re-entries allowed per player (null: no limit)."""
    rebuys = RebuysIn(required=False, allow_null=True, default=None)
    satellite = SatelliteIn(required=False, allow_null=True, default=None)
    step = StepIn(required=False, allow_null=True, default=None)
    """A step satellite's tournament (instead of ``satellite``)."""
    bounty = BountyIn(required=False, allow_null=True, default=None)
    """Null: no bounties."""
    guarantee = amount(min_value=0, default=0)
    """The least prize pool, held from the house (0: none)."""
    payouts = PayoutTierIn(  # type: ignore[call-arg]  # min_length: see StructureIn
        many=True, required=False, allow_null=True, default=None, min_length=1
    )
    sit_and_go = StrictBoolean(default=False)
    ante_by = choice(AnteBy, default="all")
    tie_break = choice(TieBreak, default="suit")
    clocks = ClocksIn(required=False)
    """Left out: the tables' default clocks."""

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if attrs.get("satellite") and attrs.get("step"):
            raise serializers.ValidationError({"step": ["a satellite or a step, not both"]})
        return attrs


class TemplateIn(TournamentIn):
    """A schedule's template: a tournament to create, without its name
    (the schedule's) and start (each occurrence's)."""

    name = None  # type: ignore[assignment]
    starts_at = None  # type: ignore[assignment]


class ScheduleIn(serializers.Serializer[dict[str, object]]):
    """A recurring tournament: ``every`` day, or ``weekly`` on ``weekdays``
    (1 Monday ... 7 Sunday), at ``time`` in ``time_zone`` (by default the
    room's), created ``horizon_days`` ahead."""

    name = Text(max_length=MAX_NAME)
    template = TemplateIn()
    every = serializers.ChoiceField(choices=Schedule.Every.choices)
    weekdays = serializers.ListField(
        child=count(min_value=1, max_value=7), max_length=7, required=False, default=list
    )
    time = serializers.TimeField(format="%H:%M", input_formats=["%H:%M"])
    time_zone = Text(max_length=64, required=False, default=settings.TIME_ZONE)
    horizon_days = count(min_value=1, max_value=MAX_HORIZON_DAYS, default=7)


class FlightEventIn(TournamentIn):
    """A multi-flight event: the definition every flight plays (each its own
    tournament, with its own late registration), each flight's start in
    the order they play, Day 2's start (after them: it also waits for the
    last flight to stop), how far a flight plays down and what goes through."""

    starts_at = None  # type: ignore[assignment]
    satellite = None  # type: ignore[assignment]
    step = None  # type: ignore[assignment]
    bounty = None  # type: ignore[assignment]
    guarantee = None  # type: ignore[assignment]
    sit_and_go = None  # type: ignore[assignment]
    flights = serializers.ListField(
        child=serializers.DateTimeField(), min_length=2, max_length=MAX_FLIGHTS,
        help_text="Each starting flight's start (Day 1A first).",
    )  # fmt: skip
    day_two_starts_at = serializers.DateTimeField()
    advance_percent = count(min_value=1, max_value=100)
    """A flight plays down to this share of its entries (rounded up)."""
    re_entry = StrictBoolean(default=True)
    """A player who bagged chips may enter a later flight."""
    carry = serializers.ChoiceField(choices=[c.value for c in Carry], default="best")
    """Which of a player's bags goes through: his best, or his latest."""


class EntryIn(CommandIn):
    """``ticket``: null pays with a ticket if you hold one, true with a
    ticket only, false with cash only."""

    ticket = StrictBoolean(required=False, allow_null=True, default=None)


class AddTimeIn(CommandIn):
    seconds = count(min_value=1, max_value=MAX_ADDED_SECONDS)


class MoveIn(CommandIn):
    player = count(min_value=1)
    table = count(min_value=1, max_value=MAX_TOURNAMENT_TABLE)
    seat = count(min_value=1, max_value=MAX_SEATS)


class PlayerIn(CommandIn):
    player = count(min_value=1)


class DealIn(CommandIn):
    """A deal at the final table: ``icm``, ``chip_chop`` or ``custom`` (with
    ``amounts``: every player left by id, adding up to what is dealt);
    ``left_to_play`` is kept out of it for the winner."""

    kind = serializers.ChoiceField(choices=["icm", "chip_chop", "custom"])
    left_to_play = amount(min_value=0, default=0)
    amounts = serializers.DictField(
        child=amount(min_value=0), required=False, allow_null=True, default=None
    )


class CancelIn(CommandIn):
    reason = Text(max_length=MAX_REASON, required=False, allow_blank=True, default="")
