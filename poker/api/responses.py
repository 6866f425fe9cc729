"""Output shapes of the cash-table API, for the OpenAPI schema.

The selectors build the bodies; these serializers only declare them
(``extend_schema``), and the schema tests hold the two together: the
conformance test walks a whole hand against the schema, and schemathesis
checks every answer it provokes.  Hand events are declared from the event
dataclasses themselves (``event_out``), less what ``engine.view.redact``
hides and with the players by seat as ``poker.present`` shows them, so a
new event or field shows in the schema without a copy.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from enum import Enum
from functools import cache
from typing import Any

from drf_spectacular.utils import PolymorphicProxySerializer
from rest_framework import serializers

from accounts.cards import OpeningOut, card_out, cards_out, roots_out
from kernel.api import AnyField, choice
from poker.engine.cards import Card
from poker.engine.commands import Action
from poker.engine.evaluate import Category
from poker.engine.events import EVENT_TYPES, Blind
from poker.engine.rake import Rake
from poker.engine.rules import Betting, Game
from poker.engine.settings import Setting
from poker.engine.state import Phase
from poker.engine.table.clock import ClockKind
from poker.engine.table.config import SETTINGS
from poker.engine.table.plan import DealtIn
from poker.models import Table

ACTIONS = [a.value for a in Action]
BLINDS = [b.value for b in Blind]
PHASES = [p.value for p in Phase]
CLOCK_KINDS = [k.value for k in ClockKind]
HAND_NAMES = [c.value for c in Category]
"""Choices two fields share, named once in the schema (``ENUM_NAME_OVERRIDES``)."""

HAND_ID = r"^[0-9]{1,18}-[0-9]{1,9}$"
"""A hand's id: ``<table id>-<number>``."""


def ints(**options: Any) -> serializers.ListField:
    return serializers.ListField(child=serializers.IntegerField(), **options)


# --------------------------------------------------------------------------
# Hand events, from their dataclasses


SIMPLE: dict[Any, type[AnyField]] = {
    int: serializers.IntegerField,
    bool: serializers.BooleanField,
    str: serializers.CharField,
}


def _field(hint: Any, **options: Any) -> AnyField:
    """The output field of an event field's type hint."""
    args = typing.get_args(hint)
    if typing.get_origin(hint) in (typing.Union, types.UnionType) and type(None) in args:
        (inner,) = (a for a in args if a is not type(None))
        return _field(inner, allow_null=True, **options)
    if hint is Card:
        return card_out(**options)
    if typing.get_origin(hint) is tuple:
        return serializers.ListField(child=_field(args[0]), **options)
    if isinstance(hint, type) and issubclass(hint, Enum):
        return choice(hint, **options)
    if isinstance(hint, type) and dataclasses.is_dataclass(hint):
        return record_out(hint)(**options)
    return SIMPLE[hint](**options)


def _fields_of(cls: type[Any]) -> dict[str, AnyField]:
    hints = typing.get_type_hints(cls)
    return {f.name: _field(hints[f.name]) for f in dataclasses.fields(cls)}


@cache
def record_out(cls: type[Any], prefix: str = "Hand") -> type[serializers.Serializer[Any]]:
    """A frozen dataclass as JSON (the codec's ``to_data``): a value inside
    an event (``Rules``, ``Entrant``, ``Share``), or in a definition; named
    ``prefix`` + its class in the schema."""
    return type(f"{prefix}{cls.__name__}", (serializers.Serializer,), _fields_of(cls))


HIDDEN: dict[str, tuple[str, ...]] = {"hand.started": ("deck", "seed")}
"""Fields ``redact`` takes out of an event for every viewer."""


class EntrantOut(serializers.Serializer[dict[str, object]]):
    """A player dealt in, by seat."""

    seat = serializers.IntegerField()
    player = serializers.IntegerField(help_text="His user id, as in the table's seats.")
    screen_name = serializers.CharField()
    stack = serializers.IntegerField()


class DealtOut(serializers.Serializer[dict[str, object]]):
    """One player's starting hand, by seat."""

    seat = serializers.IntegerField()
    cards = cards_out(allow_null=True, help_text="Null but the viewer's own.")
    count = serializers.IntegerField(help_text="How many cards he was dealt.")


class SeatShareOut(serializers.Serializer[dict[str, object]]):
    """Chips one seat takes from a pot."""

    seat = serializers.IntegerField()
    amount = serializers.IntegerField()


REDACTED: dict[str, dict[str, Any]] = {
    "hand.started": {
        "players": lambda: EntrantOut(many=True),
        "button": lambda: serializers.IntegerField(help_text="The button's seat."),
    },
    "hand.cards_dealt": {"hands": lambda: DealtOut(many=True)},
    "hand.showdown_started": {"order": lambda: ints(help_text="Seats, in showing order.")},
    "hand.pot_awarded": {"shares": lambda: SeatShareOut(many=True)},
    **{
        name: {
            "cards": lambda: cards_out(allow_null=True, help_text="Null when hidden."),
            "count": lambda: serializers.IntegerField(
                required=False, help_text="How many cards, when they are hidden."
            ),
        }
        for name in ("hand.discarded", "hand.cards_drawn", "hand.muck_reshuffled")
    },
}
"""Fields ``redact`` and ``present`` change: what the viewer may not see
goes null, with the count of cards left; players are listed by seat."""


@cache
def event_out(name: str) -> type[serializers.Serializer[Any]]:
    """One hand event as a viewer gets it: its stored name under ``type``."""
    cls = EVENT_TYPES[name]
    fields: dict[str, Any] = {"type": serializers.ChoiceField(choices=[name])}
    fields.update(_fields_of(cls))
    if "player" in fields:  # a position in the engine, a seat for clients
        del fields["player"]
        fields["seat"] = serializers.IntegerField(help_text="The player's seat.")
    for hidden in HIDDEN.get(name, ()):
        del fields[hidden]
    fields.update({key: make() for key, make in REDACTED.get(name, {}).items()})
    fields["__doc__"] = cls.__doc__
    return type(f"{cls.__name__}Event", (serializers.Serializer,), fields)


def events_out() -> PolymorphicProxySerializer:
    """A hand's events, each by its ``type``."""
    return PolymorphicProxySerializer(
        component_name="HandEvent",
        serializers={name: event_out(name) for name in EVENT_TYPES},
        resource_type_field_name="type",
        many=True,
    )


# --------------------------------------------------------------------------
# Tables


def setting_out(setting: Setting) -> AnyField:
    """The output field of a table setting (its value as stored and sent)."""
    options: dict[str, Any] = {"allow_null": setting.nullable}
    if setting.is_enum:
        return choice(setting.kind, **options)
    if setting.kind is str:
        return serializers.CharField(**options)
    return serializers.IntegerField(**options)


class TableOut(serializers.Serializer[dict[str, object]]):
    """A lobby line: a table's settings and where it stands."""

    id = serializers.IntegerField()
    status = serializers.ChoiceField(choices=Table.Status.choices)
    players_seated = serializers.IntegerField()
    hand_number = serializers.IntegerField()
    average_pot = serializers.IntegerField(
        allow_null=True,
        help_text="The finished hands' average pot, rounded down (null: none yet).",
    )

    def get_fields(self) -> dict[str, AnyField]:
        fields = super().get_fields()
        return {**fields, **{s.name: setting_out(s) for s in SETTINGS}}


class TableNowOut(TableOut):
    version = serializers.IntegerField()
    button = serializers.IntegerField(allow_null=True, help_text="The button's seat.")


class SeatOut(serializers.Serializer[dict[str, object]]):
    seat = serializers.IntegerField()
    player = serializers.IntegerField()
    screen_name = serializers.CharField()
    stack = serializers.IntegerField()
    sitting_out = serializers.BooleanField()
    waiting_for_big_blind = serializers.BooleanField()
    in_hand = serializers.BooleanField()
    top_up_queued = serializers.IntegerField()
    leaving = serializers.BooleanField()
    missed_blinds = serializers.ListField(child=choice(Blind))
    time_bank = serializers.IntegerField()
    dealt_in = choice(
        DealtIn,
        allow_null=True,
        help_text="When the rules will deal him in, as the table stands "
        "(null: not for now: sitting out, leaving, no chips, no hand in sight).",
    )


class YouOut(serializers.Serializer[dict[str, object]]):
    seat = serializers.IntegerField(allow_null=True, help_text="Your seat, if you sit here.")


class ClockOut(serializers.Serializer[dict[str, object]]):
    """The clock running at the table (ISO 8601 times, UTC)."""

    kind = choice(ClockKind)
    seat = serializers.IntegerField(allow_null=True, help_text="Who must act (null: nobody).")
    started = serializers.DateTimeField()
    deadline = serializers.DateTimeField()
    expires = serializers.DateTimeField()
    bet_until = serializers.DateTimeField(allow_null=True)


class PotOut(serializers.Serializer[dict[str, object]]):
    amount = serializers.IntegerField()
    eligible = ints(help_text="The seats that may win it.")


class HandPlayerOut(serializers.Serializer[dict[str, object]]):
    seat = serializers.IntegerField()
    player = serializers.IntegerField(help_text="His user id, as in the table's seats.")
    screen_name = serializers.CharField()
    stack = serializers.IntegerField()
    bet = serializers.IntegerField()
    total = serializers.IntegerField()
    dead = serializers.IntegerField()
    folded = serializers.BooleanField()
    all_in = serializers.BooleanField()
    card_count = serializers.IntegerField()
    cards = cards_out(allow_null=True, help_text="Null unless yours or shown.")
    shown = serializers.BooleanField()
    hand_name = choice(
        Category,
        allow_null=True,
        help_text="The shown hand's category under the game's ranking (null unless shown).",
    )
    mucked = serializers.BooleanField()
    last_discard_count = serializers.IntegerField()
    no_raise = serializers.BooleanField()


class LegalOut(serializers.Serializer[dict[str, object]]):
    """What you may do now (amounts are round totals)."""

    actions = serializers.ListField(child=choice(Action))
    call = serializers.IntegerField(required=False)
    min_bet_to = serializers.IntegerField(required=False)
    max_bet_to = serializers.IntegerField(required=False)
    min_raise_to = serializers.IntegerField(required=False)
    max_raise_to = serializers.IntegerField(required=False)
    max_discard = serializers.IntegerField(required=False)


class HandNowOut(serializers.Serializer[dict[str, object]]):
    """The hand being played, as the viewer may see it."""

    id = serializers.RegexField(HAND_ID)
    number = serializers.IntegerField()
    version = serializers.IntegerField()
    game = choice(Game)
    betting = choice(Betting)
    blinds = ints()
    blind_level = serializers.IntegerField()
    ante = serializers.IntegerField()
    phase = choice(Phase)
    round = serializers.IntegerField()
    draw = serializers.IntegerField()
    button = serializers.IntegerField(
        help_text="The button's seat (with a dead button: the seat before it)."
    )
    to_act = serializers.IntegerField(allow_null=True, help_text="The seat to act.")
    to_act_seat = serializers.IntegerField(allow_null=True, help_text="As to_act (older clients).")
    current_bet = serializers.IntegerField()
    pot = serializers.IntegerField()
    pots = PotOut(many=True)
    players = HandPlayerOut(many=True)
    legal = LegalOut(allow_null=True)
    parole_by = serializers.IntegerField(allow_null=True, help_text="A seat.")
    showdown_order = ints(help_text="Seats.")
    awards = event_out("hand.pot_awarded")(many=True)
    rake = record_out(Rake)(allow_null=True, help_text="The table's rake (null: none).")
    raked = serializers.IntegerField(help_text="Chips the house took from the pots so far.")
    seats = ints(help_text="The seats dealt in.")
    your_seat = serializers.IntegerField(allow_null=True, help_text="Yours, if dealt in.")
    commitment = serializers.CharField()
    roots = roots_out()
    openings = OpeningOut(many=True, help_text="Of the cards you got or saw shown.")


class TableViewOut(serializers.Serializer[dict[str, object]]):
    """A table as the asking viewer may see it (and every command's answer)."""

    table = TableNowOut()
    seats = SeatOut(many=True)
    you = YouOut()
    clock = ClockOut(allow_null=True)
    hand = HandNowOut(allow_null=True)


# --------------------------------------------------------------------------
# Hand histories


class AwardOut(serializers.Serializer[dict[str, object]]):
    pot = serializers.IntegerField()
    amount = serializers.IntegerField()
    shares = SeatShareOut(many=True)


class HandResultOut(serializers.Serializer[dict[str, object]]):
    """A finished hand's public outcome, by seat."""

    stacks = serializers.DictField(child=serializers.IntegerField(), help_text="By seat.")
    awards = AwardOut(many=True)
    shown = serializers.DictField(child=cards_out(), help_text="By seat.")
    parole = serializers.BooleanField()
    rake = serializers.IntegerField(
        required=False, help_text="Chips the house took from the pots (RULES.md 8)."
    )


class HandSummaryOut(serializers.Serializer[dict[str, object]]):
    id = serializers.RegexField(HAND_ID)
    number = serializers.IntegerField()
    phase = choice(Phase)
    seats = ints()
    pot = serializers.IntegerField()
    started_at = serializers.DateTimeField()
    ended_at = serializers.DateTimeField(allow_null=True)
    commitment = serializers.CharField()
    result = HandResultOut(allow_null=True)


class HandDetailOut(HandSummaryOut):
    """A hand's history as the viewer may see it: every event, redacted."""

    # The summary's running pot, left out: the events tell it here (None
    # drops an inherited DRF field).
    pot = None  # type: ignore[assignment]
    table = serializers.IntegerField()
    table_name = serializers.CharField(help_text="The table's name, for a title.")
    version = serializers.IntegerField()
    your_seat = serializers.IntegerField(allow_null=True, help_text="Yours, if dealt in.")
    roots = roots_out()
    openings = OpeningOut(many=True, help_text="Of the cards you got or saw shown.")
    events = events_out()
