"""Stored events carry stable names, not Python class names: each event
class of each union has exactly one, no two events share one, and an event
round-trips through JSON by it."""

from __future__ import annotations

import re
import typing
from dataclasses import dataclass
from typing import Any, Union

import pytest

from poker.engine import events as hand
from poker.engine.casino import events as casino
from poker.engine.casino import table as casino_table
from poker.engine.codec import from_typed_json, name_of, registry, to_typed_json
from poker.engine.errors import Malformed
from poker.engine.table import events as table
from tournaments.rules import events as tournament

UNIONS = [
    ("hand", hand.Event, hand.EVENT_TYPES),
    ("table", table.TableEvent, table.TABLE_EVENT_TYPES),
    ("tournament", tournament.TournamentEvent, tournament.TOURNAMENT_EVENT_TYPES),
    ("casino", casino.CasinoEvent, casino.CASINO_EVENT_TYPES),
    ("casino_table", casino_table.CasinoTableEvent, casino_table.CASINO_TABLE_EVENT_TYPES),
]


@pytest.mark.parametrize(("kind", "union", "names"), UNIONS, ids=[u[0] for u in UNIONS])
def test_every_event_class_of_a_union_has_exactly_one_name(
    kind: str, union: Any, names: dict[str, type[Any]]
) -> None:
    members = typing.get_args(union)
    assert sorted(c.__name__ for c in names.values()) == sorted(c.__name__ for c in members)
    assert len(set(names.values())) == len(names)


@pytest.mark.parametrize(("kind", "union", "names"), UNIONS, ids=[u[0] for u in UNIONS])
def test_names_are_lowercase_kind_dot_fact_and_never_a_class_name(
    kind: str, union: Any, names: dict[str, type[Any]]
) -> None:
    assert all(re.fullmatch(rf"{kind}\.[a-z][a-z_]*", n) for n in names), sorted(names)
    assert not {c.__name__ for c in typing.get_args(union)} & set(names)


def test_names_are_unique_across_every_union() -> None:
    every = [n for _, _, names in UNIONS for n in names]
    assert len(every) == len(set(every))


def test_an_event_round_trips_by_its_name() -> None:
    seated = table.PlayerSeated(seat=2, player="7", buy_in=100)
    data = table.table_event_to_json(seated)
    assert data["type"] == "table.player_seated"
    assert table.table_event_from_json(data) == seated
    folded = hand.Folded(player=1, timed_out=True)
    assert hand.to_json(folded) == {"type": "hand.folded", "player": 1, "timed_out": True}
    assert hand.from_json(hand.to_json(folded)) == folded


def test_a_class_name_is_not_a_stored_name() -> None:
    with pytest.raises(Malformed):
        hand.from_json({"type": "Folded", "player": 1})


@dataclass(frozen=True)
class _A:
    n: int


@dataclass(frozen=True)
class _B:
    n: int


_AB = Union[_A, _B]  # noqa: UP007 - typing.get_args lists the members


def test_a_registry_refuses_an_unnamed_stray_or_twice_named_class() -> None:
    with pytest.raises(TypeError, match="unnamed"):
        registry(_AB, {"x.a": _A})
    with pytest.raises(TypeError, match="not members"):
        registry(_A, {"x.a": _A, "x.b": _B})
    with pytest.raises(TypeError, match="twice"):
        registry(_AB, {"x.a": _A, "x.b": _B, "x.c": _A})
    known = registry(_AB, {"x.a": _A, "x.b": _B})
    assert name_of(known, _B) == "x.b"
    assert from_typed_json(known, to_typed_json(_B(3), known), "x") == _B(3)
