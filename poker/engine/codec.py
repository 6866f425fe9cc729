"""JSON for the engines' events: frozen dataclasses, cards as their codes,
enums as their values, the event's stored name under ``"type"``.

Stored names are declared once beside each event union (``registry``):
lowercase ``<kind>.<fact>`` such as ``hand.cards_dealt``, never the Python
class name, so a class can be renamed without touching a stored stream.

Decoding follows the dataclasses' type hints, so an event round-trips
without loss and a malformed one is refused with ``Malformed``.
"""

from __future__ import annotations

import types
import typing
from collections.abc import Mapping
from dataclasses import fields
from enum import Enum
from functools import cache
from typing import Any, Union

from poker.engine.cards import Card, card
from poker.engine.errors import Malformed


def registry(union: Any, names: Mapping[str, type[Any]]) -> dict[str, type[Any]]:
    """The members of an event union by their stored ``names``, checked:
    every member has exactly one name, and nothing else is named."""
    members = typing.get_args(union)
    named = list(names.values())
    unnamed = [cls.__name__ for cls in members if cls not in named]
    strays = [cls.__name__ for cls in named if cls not in members]
    twice = sorted({cls.__name__ for cls in named if named.count(cls) > 1})
    if unnamed or strays or twice:
        raise TypeError(f"event names: unnamed {unnamed}, not members {strays}, twice {twice}")
    return dict(names)


def name_of(known: Mapping[str, type[Any]], cls: type[Any]) -> str:
    """The stored name of event class ``cls`` in ``known`` (a ``registry``)."""
    for name, member in known.items():
        if member is cls:
            return name
    raise KeyError(f"{cls.__name__} has no stored name")


def to_typed_json(event: Any, known: Mapping[str, type[Any]]) -> dict[str, Any]:
    """``event`` as JSON-ready data with its stored name in ``known`` under ``"type"``."""
    return {"type": name_of(known, type(event)), **to_data(event)}


def to_data(value: Any) -> dict[str, Any]:
    """A dataclass as JSON-ready data, without a type name."""
    data = _encode(value)
    assert isinstance(data, dict)
    return data


def from_typed_json(known: Mapping[str, type[Any]], data: dict[str, Any], kind: str) -> Any:
    """The event ``to_typed_json`` made, if its type is ``known``."""
    cls = known.get(str(data.get("type")))
    if cls is None:
        raise Malformed(f"unknown {kind} type {data.get('type')!r}")
    body = {k: v for k, v in data.items() if k != "type"}
    try:
        return _decode(cls, body)
    except (KeyError, TypeError, ValueError) as exc:
        raise Malformed(f"bad {cls.__name__}: {exc}") from exc


def _encode(value: object) -> object:
    if isinstance(value, Card):
        return str(value)
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, tuple):
        return [_encode(v) for v in value]
    if hasattr(value, "__dataclass_fields__"):
        return {f.name: _encode(getattr(value, f.name)) for f in fields(value)}  # type: ignore[arg-type]
    return value


@cache
def _hints(cls: type[Any]) -> dict[str, Any]:
    return typing.get_type_hints(cls)


def _decode(hint: Any, value: Any) -> Any:
    origin = typing.get_origin(hint)
    if hint is Card:
        return card(value)
    if origin is tuple:
        (item, _) = typing.get_args(hint)
        return tuple(_decode(item, v) for v in value)
    if origin in (Union, types.UnionType):
        return None if value is None else _decode(typing.get_args(hint)[0], value)
    if isinstance(hint, type) and issubclass(hint, Enum):
        return hint(value)
    if isinstance(hint, type) and hasattr(hint, "__dataclass_fields__"):
        if not isinstance(value, dict):
            raise TypeError(f"{hint.__name__} wants an object")
        known = _hints(hint)
        return hint(**{k: _decode(known[k], v) for k, v in value.items() if k in known})
    if hint in (int, bool, str) and type(value) is not hint:
        raise TypeError(f"{value!r} is not {hint.__name__}")
    return value
