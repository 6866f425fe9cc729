"""JSON for the engines' events: frozen dataclasses, cards as their codes,
enums as their values, the event's stored name under ``"type"``.

Stored names are declared once beside each event union (``registry``):
lowercase ``<kind>.<fact>`` such as ``hand.cards_dealt``, never the Python
class name, so a class can be renamed without touching a stored stream.

Decoding follows the dataclasses' type hints, so an event round-trips
without loss and a malformed one is refused with ``Malformed``.
"""

from __future__ import annotations

import functools
import types
import typing
from collections.abc import Callable, Mapping
from dataclasses import fields
from enum import Enum
from functools import cache
from typing import Any, Union

from poker.engine.cards import Card, card
from poker.engine.errors import Malformed


class Registry(dict[str, type[Any]]):
    """Event classes by stored name (a ``registry``), which also knows each
    class's name (``names``): every event encoded looks its name up."""

    def __init__(self, names: Mapping[str, type[Any]]) -> None:
        super().__init__(names)
        self.names = {cls: name for name, cls in names.items()}


def registry(union: Any, names: Mapping[str, type[Any]]) -> Registry:
    """The members of an event union by their stored ``names``, checked:
    every member has exactly one name, and nothing else is named."""
    members = typing.get_args(union)
    named = list(names.values())
    unnamed = [cls.__name__ for cls in members if cls not in named]
    strays = [cls.__name__ for cls in named if cls not in members]
    twice = sorted({cls.__name__ for cls in named if named.count(cls) > 1})
    if unnamed or strays or twice:
        raise TypeError(f"event names: unnamed {unnamed}, not members {strays}, twice {twice}")
    return Registry(names)


def name_of(known: Mapping[str, type[Any]], cls: type[Any]) -> str:
    """The stored name of event class ``cls`` in ``known`` (a ``registry``)."""
    if isinstance(known, Registry):
        if cls in known.names:
            return known.names[cls]
    else:
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
    if type(value) in _PLAIN:  # most fields: checked first, as the rest cost more
        return value
    if isinstance(value, Card):
        return str(value)
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, tuple):
        return [_encode(v) for v in value]
    if hasattr(value, "__dataclass_fields__"):
        cls: Any = type(value)
        return {name: _encode(getattr(value, name)) for name in _field_names(cls)}
    return value


_PLAIN = frozenset({int, str, bool, type(None)})
"""Types that are JSON as they are (not ``Card``: an ``int`` of another type)."""


@cache
def _field_names(cls: Any) -> tuple[str, ...]:
    """A dataclass's field names, in order (``fields`` builds them anew per call)."""
    return tuple(f.name for f in fields(cls))


@cache
def _hints(cls: type[Any]) -> dict[str, Any]:
    return typing.get_type_hints(cls)


def _decode(hint: Any, value: Any) -> Any:
    return _decoder(hint)(value)


Decoder = Callable[[Any], Any]


@cache
def _decoder(hint: Any) -> Decoder:
    """The function that decodes a value of type ``hint``, worked out once
    per type from its hints (an event is decoded often: every frame, every
    fold from the store), so that decoding only converts."""
    origin = typing.get_origin(hint)
    if hint is Card:
        return card
    if origin is tuple:
        (item, _) = typing.get_args(hint)
        each = _decoder(item)
        return lambda value: tuple(each(v) for v in value)
    if origin in (Union, types.UnionType):
        inner = _decoder(typing.get_args(hint)[0])
        return lambda value: None if value is None else inner(value)
    if isinstance(hint, type) and issubclass(hint, Enum):
        return hint
    if isinstance(hint, type) and hasattr(hint, "__dataclass_fields__"):
        return _dataclass_decoder(hint)
    if hint in (int, bool, str):
        return functools.partial(_checked, hint)
    return _as_is


def _dataclass_decoder(cls: Any) -> Decoder:
    known = {name: _decoder(hint) for name, hint in _hints(cls).items()}

    def decode(value: Any) -> Any:
        if not isinstance(value, dict):
            raise TypeError(f"{cls.__name__} wants an object")
        return cls(**{k: known[k](v) for k, v in value.items() if k in known})

    return decode


def _checked(kind: type[Any], value: Any) -> Any:
    if type(value) is not kind:
        raise TypeError(f"{value!r} is not {kind.__name__}")
    return value


def _as_is(value: Any) -> Any:
    return value
