"""Input and output shapes of the cash-table API (validation only: the
services decide)."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from rest_framework import serializers

from kernel.api import (
    AnyField,
    FieldsCopied,
    Pattern,
    StrictBoolean,
    StrictInteger,
    Text,
    chips,
    choice,
    command_id,
)
from poker.engine.cards import CARD_PATTERN
from poker.engine.commands import Action
from poker.engine.rake import RakePreset, preset_settings
from poker.engine.settings import Setting
from poker.engine.state import HAND_SIZE
from poker.engine.table.config import MAX_SEATS, SETTINGS


def setting_field(setting: Setting, *, required: bool = False) -> AnyField:
    """The input field of a table setting, built from its declaration
    (``poker.engine.settings``) so the API takes what the engine does: a
    fixed default is the field's default; none (or a derived one, such as
    the seats) leaves the field optional, unless ``required``."""
    options: dict[str, Any] = {}
    if setting.nullable:
        options["allow_null"] = True
    if setting.has_default and not setting.bounds.derived and not required:
        options["default"] = setting.plain(setting.default)
    elif setting.bounds.derived and not required:
        options["required"] = False
    return _typed_field(setting, options)


def _typed_field(setting: Setting, options: dict[str, Any]) -> AnyField:
    low, high = setting.bounds.low, setting.bounds.high
    if setting.is_enum:
        return choice(setting.kind, **options)
    if setting.kind is str:
        return Text(max_length=high, **options)
    if setting.bounds.chips:
        return chips(min_value=low, **options)
    return StrictInteger(min_value=low, max_value=high, **options)


def settings_fields(*, exclude: tuple[str, ...], required: tuple[str, ...]) -> dict[str, AnyField]:
    """The input fields of every table setting but ``exclude``, in declaration order."""
    return {
        s.name: setting_field(s, required=s.name in required)
        for s in SETTINGS
        if s.name not in exclude
    }


RAKE_SETTINGS = ("rake_basis_points", "rake_cap", "rake_min_pot")
"""The settings a rake preset stands for."""


class TableIn(serializers.Serializer[dict[str, object]]):
    """A table to open: every setting of a cash table (tournament tables
    are opened by their tournament), the name required for the lobby.  A
    setting left out takes its default; the seats and buy-ins follow from
    the game and stakes (``max_buy_in`` null: no maximum).  The rake is
    none unless set: by its three settings, or by ``rake_preset``, which
    gives all three at the table's big blind (never both)."""

    def get_fields(self) -> dict[str, AnyField]:
        fields = settings_fields(exclude=("tournament", "tournament_table"), required=("name",))
        fields["rake_preset"] = choice(RakePreset, required=False)
        return fields

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        preset = attrs.pop("rake_preset", None)
        if preset is None:
            return attrs
        given = sorted(set(RAKE_SETTINGS) & set(self.initial_data))
        if given:
            raise serializers.ValidationError(
                {
                    "rake_preset": [
                        _("Give a rake preset or %(given)s, not both.")
                        % {"given": ", ".join(given)}
                    ]
                }
            )
        return {**attrs, **preset_settings(RakePreset(preset), attrs["big_blind"])}


class CommandIn(serializers.Serializer[dict[str, object]]):
    """Any command: an optional client-chosen id makes a retry safe."""

    command_id = command_id(required=False)


class SitIn(CommandIn):
    """Take a seat."""

    seat = StrictInteger(min_value=1, max_value=MAX_SEATS)
    buy_in = chips(min_value=1)
    wait_for_big_blind = StrictBoolean(default=False)


class TopUpIn(CommandIn):
    """Add chips."""

    amount = chips(min_value=1)


class SitInIn(CommandIn):
    """Come back to the game."""

    wait_for_big_blind = StrictBoolean(default=False)


class ActIn(FieldsCopied):
    """One action in a hand, at the version the client saw."""

    hand = Pattern(r"^[0-9]+-[0-9]+$", max_length=24)
    version = StrictInteger(min_value=0, max_value=2**31 - 1)
    command_id = command_id()
    action = choice(Action)
    amount = chips(min_value=0, required=False, allow_null=True)
    cards = serializers.ListField(
        child=Pattern(CARD_PATTERN), max_length=HAND_SIZE, required=False, default=list
    )
