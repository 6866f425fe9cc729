"""Table settings are declared once (``TableConfig``, ``Rules``): the API's
input fields, the ``Table`` columns and the row conversions follow the
declarations.  The serializer built from them takes and refuses exactly
what the hand-written one did, a configuration survives its row, and the
OpenAPI schema of ``POST /api/tables/`` is what it was."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from django.db import models
from drf_spectacular.generators import SchemaGenerator
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rest_framework import serializers

from kernel.api import MAX_CHIPS, StrictInteger, Text, chips
from kernel.api_errors import ApiError
from poker import projections, services
from poker.api.serializers import TableIn
from poker.engine.rules import AnteBy, Betting, Game, TieBreak
from poker.engine.table import TableConfig
from poker.engine.table.config import SETTINGS
from poker.models import Table
from tests.engine.config_strategies import configs

CASH_TABLES = Path(__file__).parents[2] / "docs" / "cash-tables.md"
SNAPSHOT = Path(__file__).with_name("table_in_schema.json")
"""The schema components of ``POST /api/tables/`` before the settings were
derived from their declarations."""
SMALL_COLUMN = 32_767
CLOCKS = ("_seconds", "_hands")
POSITIVE = (models.PositiveSmallIntegerField, models.PositiveBigIntegerField)


class LegacyTableIn(serializers.Serializer[dict[str, object]]):
    """The hand-written ``TableIn`` the derived one replaced, kept as the
    oracle of what the API takes and refuses."""

    name = Text(max_length=80)  # since issue 13, text only: a number is no name
    game = serializers.ChoiceField(choices=[g.value for g in Game])
    betting = serializers.ChoiceField(choices=[b.value for b in Betting])
    small_blind = chips(min_value=1)
    big_blind = chips(min_value=1)
    ante = chips(min_value=0, default=0)
    ante_by = serializers.ChoiceField(choices=[a.value for a in AnteBy], default="all")
    tie_break = serializers.ChoiceField(choices=[t.value for t in TieBreak], default="suit")
    seats = StrictInteger(min_value=2, max_value=6, required=False)  # issue 26: the biggest game
    min_buy_in = chips(min_value=1, required=False)
    max_buy_in = chips(min_value=1, required=False, allow_null=True)
    action_seconds = StrictInteger(min_value=1, max_value=600, default=30)
    draw_seconds = StrictInteger(min_value=1, max_value=600, default=30)
    bet_seconds = StrictInteger(min_value=1, max_value=600, default=10)
    parole_seconds = StrictInteger(min_value=1, max_value=600, default=15)
    time_bank_seconds = StrictInteger(min_value=0, max_value=3600, default=30)
    time_bank_refill_hands = StrictInteger(min_value=0, max_value=3600, default=10)
    pause_seconds = StrictInteger(min_value=0, max_value=3600, default=5)
    # Issue 15 (the rake), written out as the others were.
    rake_basis_points = StrictInteger(min_value=0, max_value=10_000, default=0)
    rake_cap = chips(min_value=0, allow_null=True, default=None)
    rake_min_pot = chips(min_value=0, default=0)


BASE = {"name": "Main", "game": "32-card-draw", "betting": "no-limit",
        "small_blind": 1, "big_blind": 2}  # fmt: skip
NUMBERS = [-1, 0, 1, 2, 3, 5, 6, 9, 10, 11, 30, 599, 600, 601, 3599, 3600, 3601,
           MAX_CHIPS, MAX_CHIPS + 1, 2**63]  # fmt: skip
ODD = [None, True, 1.5, "5", "", "x", "x" * 80, "x" * 81, [], {}]
WORDS = [v for enum in (Game, Betting, AnteBy, TieBreak) for v in (m.value for m in enum)]
VALUES = NUMBERS + ODD + WORDS + ["nope"]
ABSENT = object()
FIELDS = [*LegacyTableIn().fields, "tournament", "tournament_table", "colour"]


def verdict(serializer_class: type[Any], body: dict[str, Any]) -> tuple[bool, Any]:
    """Whether ``body`` is taken, and what it becomes or why it is refused."""
    serializer = serializer_class(data=body)
    if serializer.is_valid():
        return True, dict(serializer.validated_data)
    return False, {k: [(str(e), e.code) for e in v] for k, v in serializer.errors.items()}


@pytest.mark.parametrize("field", FIELDS)
def test_each_setting_takes_and_refuses_what_it_did(field: str) -> None:
    for value in [ABSENT, *VALUES]:
        body = {k: v for k, v in BASE.items() if k != field}
        if value is not ABSENT:
            body[field] = value
        assert verdict(TableIn, body) == verdict(LegacyTableIn, body), (field, value)


@given(st.dictionaries(st.sampled_from(FIELDS), st.sampled_from(VALUES), max_size=8))
@settings(max_examples=300, deadline=None)
def test_any_body_is_taken_or_refused_as_it_was(changes: dict[str, Any]) -> None:
    body = {**BASE, **changes}
    assert verdict(TableIn, body) == verdict(LegacyTableIn, body)


def test_the_api_takes_every_setting_but_a_tournaments() -> None:
    names = [s.name for s in SETTINGS if not s.name.startswith("tournament")]
    assert list(TableIn().fields) == [*names, "rake_preset"]  # issue 15: the three rake_*


def test_the_table_schema_is_what_it_was() -> None:
    components = SchemaGenerator().get_schema(request=None, public=True)["components"]
    before = json.loads(SNAPSHOT.read_text())
    now = {name: components["schemas"][name] for name in before}
    del now["TableIn"]["description"], before["TableIn"]["description"]
    assert json.loads(json.dumps(now)) == before


def test_the_docs_give_each_clock_its_declared_default() -> None:
    section = CASH_TABLES.read_text().split("\n## Clocks\n", 1)[1].split("\n## ", 1)[0]
    rows = re.findall(r"^\| `(\w+)` \| (\d+) \|", section, re.MULTILINE)
    documented = {name: int(default) for name, default in rows}
    declared = {s.name: s.default for s in SETTINGS if s.name.endswith(CLOCKS)}
    assert documented == declared


# --------------------------------------------------------------------------
# Columns


def column(name: str) -> models.Field[Any, Any]:
    field = Table._meta.get_field(name)
    assert isinstance(field, models.Field)
    return field


@pytest.mark.parametrize("setting", SETTINGS, ids=lambda s: s.name)
def test_each_setting_has_a_column_that_holds_what_it_allows(setting: Any) -> None:
    field = column(setting.name)
    assert field.null is setting.nullable
    if setting.has_default:
        assert field.get_default() == setting.plain(setting.default)
    else:
        assert not field.has_default()
    if setting.kind is int:
        assert isinstance(field, POSITIVE)
        assert setting.bounds.low is not None and setting.bounds.low >= 0
        small = isinstance(field, models.PositiveSmallIntegerField)
        assert not small or (setting.bounds.high or SMALL_COLUMN + 1) <= SMALL_COLUMN
    elif setting.kind is str:
        assert isinstance(field, models.CharField) and field.max_length == setting.bounds.high
    else:
        assert isinstance(field, models.CharField)
        assert field.max_length >= max(len(m.value) for m in setting.kind)


# --------------------------------------------------------------------------
# Rows


def _config_of(row: Table) -> TableConfig:
    """The configuration a Table row stores, read back."""
    return TableConfig.from_settings({s.name: getattr(row, s.name) for s in SETTINGS})


@given(configs())
@settings(max_examples=200, deadline=None)
def test_a_config_survives_its_row(config: TableConfig) -> None:
    row = Table(**projections.config_fields(config))
    assert _config_of(row) == config


@pytest.mark.django_db
@given(configs())
@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
def test_a_config_survives_its_stored_row(config: TableConfig) -> None:
    pk = Table.objects.create(**projections.config_fields(config)).pk
    assert _config_of(Table.objects.get(pk=pk)) == config


@pytest.mark.django_db
def test_the_cash_service_opens_no_tournament_table(staff: Any) -> None:
    with pytest.raises(ApiError) as raised:
        services.table_create(by=staff, **BASE, tournament=1)
    assert raised.value.code == "invalid"
    assert not Table.objects.exists()
