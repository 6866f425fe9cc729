"""Input and output shapes of the cash-table API (validation only: the
services decide)."""

from __future__ import annotations

from rest_framework import serializers

from config.api import StrictInteger, chips
from poker.engine.commands import Action
from poker.engine.rules import AnteBy, Betting, Game, TieBreak


class TableIn(serializers.Serializer[dict[str, object]]):
    """A table to open."""

    name = serializers.CharField(max_length=80)
    game = serializers.ChoiceField(choices=[g.value for g in Game])
    betting = serializers.ChoiceField(choices=[b.value for b in Betting])
    small_blind = chips(min_value=1)
    big_blind = chips(min_value=1)
    ante = chips(min_value=0, default=0)
    ante_by = serializers.ChoiceField(choices=[a.value for a in AnteBy], default="all")
    tie_break = serializers.ChoiceField(choices=[t.value for t in TieBreak], default="suit")
    seats = StrictInteger(min_value=2, max_value=10, required=False)
    min_buy_in = chips(min_value=1, required=False)
    max_buy_in = chips(min_value=1, required=False, allow_null=True)
    """Absent: the RULES.md default; null: no maximum."""
    action_seconds = StrictInteger(min_value=1, max_value=600, default=30)
    draw_seconds = StrictInteger(min_value=1, max_value=600, default=30)
    bet_seconds = StrictInteger(min_value=1, max_value=600, default=10)
    """32 Card Draw: the bet window at the start of the action clock."""
    parole_seconds = StrictInteger(min_value=1, max_value=600, default=15)
    time_bank_seconds = StrictInteger(min_value=0, max_value=3600, default=30)
    time_bank_refill_hands = StrictInteger(min_value=0, max_value=3600, default=10)
    pause_seconds = StrictInteger(min_value=0, max_value=3600, default=5)


class CommandIn(serializers.Serializer[dict[str, object]]):
    """Any command: an optional client-chosen id makes a retry safe."""

    command_id = serializers.UUIDField(required=False)


class SitIn(CommandIn):
    """Take a seat."""

    seat = StrictInteger(min_value=1, max_value=10)
    buy_in = chips(min_value=1)
    wait_for_big_blind = serializers.BooleanField(default=False)


class TopUpIn(CommandIn):
    """Add chips."""

    amount = chips(min_value=1)


class SitInIn(CommandIn):
    """Come back to the game."""

    wait_for_big_blind = serializers.BooleanField(default=False)


class ActIn(serializers.Serializer[dict[str, object]]):
    """One action in a hand, at the version the client saw."""

    hand = serializers.RegexField(r"^[0-9]+-[0-9]+$", max_length=24)
    version = StrictInteger(min_value=0, max_value=2**31 - 1)
    command_id = serializers.UUIDField()
    action = serializers.ChoiceField(choices=[a.value for a in Action])
    amount = chips(min_value=0, required=False, allow_null=True)
    cards = serializers.ListField(
        child=serializers.CharField(max_length=3), max_length=5, required=False, default=list
    )
