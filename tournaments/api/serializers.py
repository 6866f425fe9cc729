"""Input shapes of the tournament API (types only: the rules validate the
values and name the field they refuse)."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from rest_framework import serializers

from config.api import Query, StrictBoolean, StrictInteger, Text, choice
from config.api import chips as amount
from poker.api.serializers import CommandIn
from poker.engine.rules import AnteBy, Betting, Game, TieBreak
from tournaments.definitions import PRESETS
from tournaments.models import Tournament
from tournaments.rules.definition import DECISION_SECONDS
from tournaments.rules.structure import MINUTE

MAX_COUNT = 10**6
"""The largest count (players, levels, seconds...) any field takes."""


def count(**options: Any) -> StrictInteger:
    """A whole-number field for counts, levels, seats and seconds."""
    return StrictInteger(min_value=options.pop("min_value", 0), max_value=MAX_COUNT, **options)


class LevelIn(serializers.Serializer[dict[str, object]]):
    small_blind = amount(min_value=1)
    big_blind = amount(min_value=1)
    ante = amount(min_value=0, default=0)
    minutes = count(min_value=1, default=20)


class BreakIn(serializers.Serializer[dict[str, object]]):
    after_level = count(min_value=1)
    minutes = count(min_value=1, default=10)


class StructureIn(serializers.Serializer[dict[str, object]]):
    """A preset by name, or the levels and breaks."""

    preset = serializers.ChoiceField(choices=sorted(PRESETS), required=False)
    minutes = count(min_value=1, required=False)
    """A preset's level length."""
    minute_seconds = StrictInteger(min_value=1, max_value=MINUTE, default=MINUTE)
    """Seconds in a minute of the clock (fewer: a scaled-down simulation)."""
    levels = LevelIn(many=True, required=False)
    breaks = BreakIn(many=True, required=False)

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if bool(attrs.get("preset")) == bool(attrs.get("levels")):
            raise serializers.ValidationError(_("Give either a preset or the levels."))
        return attrs


class RebuysIn(serializers.Serializer[dict[str, object]]):
    until_level = count(min_value=1)
    chips = amount(min_value=1)
    price = amount(min_value=0)
    max_rebuys = count(min_value=1, required=False, allow_null=True, default=None)
    threshold = amount(min_value=0, required=False, allow_null=True, default=None)
    add_on_chips = amount(min_value=0, default=0)
    add_on_price = amount(min_value=0, default=0)
    decision_seconds = count(min_value=1, default=DECISION_SECONDS)


class SatelliteIn(serializers.Serializer[dict[str, object]]):
    """Seats into tournament ``target`` (worth its buy-in plus fee)."""

    target = count(min_value=1)
    seats = count(min_value=1, required=False, allow_null=True, default=None)


class ClocksIn(serializers.Serializer[dict[str, object]]):
    """The clocks of the tournament's tables, in seconds (each left out or
    null: the table default; bounds as for a table's own settings)."""

    action_seconds = count(min_value=1, required=False, allow_null=True, default=None)
    draw_seconds = count(min_value=1, required=False, allow_null=True, default=None)
    time_bank_seconds = count(min_value=0, required=False, allow_null=True, default=None)
    time_bank_refill_hands = count(min_value=0, required=False, allow_null=True, default=None)


class PayoutTierIn(serializers.Serializer[dict[str, object]]):
    min_entrants = count(min_value=2)
    shares = serializers.ListField(child=count(min_value=1), min_length=1, max_length=1000)


class LobbyQuery(Query):
    """The lobby's filter: one status (none: every tournament)."""

    status = serializers.ChoiceField(choices=Tournament.Status.choices, required=False)


class TournamentIn(serializers.Serializer[dict[str, object]]):
    """A tournament to create."""

    name = Text(max_length=80)
    starts_at = serializers.DateTimeField(required=False, allow_null=True, default=None)
    """The scheduled start; none for a sit-and-go."""
    game = choice(Game)
    betting = choice(Betting)
    structure = StructureIn()
    starting_stack = amount(min_value=1)
    buy_in = amount(min_value=0)
    fee = amount(min_value=0, default=0)
    min_players = count(min_value=2, default=2)
    max_players = count(min_value=2, default=1000)
    table_size = count(min_value=2, required=False, allow_null=True, default=None)
    late_registration_level = count(min_value=1, required=False, allow_null=True, default=None)
    re_entries = count(min_value=0, required=False, allow_null=True, default=0)
    """Re-entries allowed per player (null: no limit)."""
    rebuys = RebuysIn(required=False, allow_null=True, default=None)
    satellite = SatelliteIn(required=False, allow_null=True, default=None)
    payouts = PayoutTierIn(many=True, required=False, allow_null=True, default=None)
    sit_and_go = StrictBoolean(default=False)
    ante_by = choice(AnteBy, default="all")
    tie_break = choice(TieBreak, default="suit")
    clocks = ClocksIn(required=False)
    """Left out: the tables' default clocks."""


class EntryIn(CommandIn):
    """``ticket``: null pays with a ticket if you hold one, true with a
    ticket only, false with cash only."""

    ticket = StrictBoolean(required=False, allow_null=True, default=None)


class AddTimeIn(CommandIn):
    seconds = count(min_value=1)


class MoveIn(CommandIn):
    player = count(min_value=1)
    table = count(min_value=1)
    seat = count(min_value=1)


class PlayerIn(CommandIn):
    player = count(min_value=1)


class CancelIn(CommandIn):
    reason = Text(max_length=200, required=False, allow_blank=True, default="")
