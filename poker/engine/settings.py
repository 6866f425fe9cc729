"""Settings declared once, on the dataclass that holds them.

A table's settings are read by the engine, stored as columns, accepted by
the API and listed in the lobby.  Each is declared once, as a field of
``Rules`` or ``TableConfig`` (its name, type and default) with its bounds
in the field's metadata (``bounded``); ``settings_of`` reads them back as
``Setting`` values, from which the engine checks a configuration and the
Django side builds its serializer and its row conversions, so no bound or
default is written twice.
"""

from __future__ import annotations

import types
import typing
from collections.abc import Mapping
from dataclasses import MISSING, dataclass, fields
from enum import Enum
from typing import Any

from poker.engine.errors import Malformed

KEY = "setting"
"""The key of a field's ``Bounds`` in its metadata."""


@dataclass(frozen=True, slots=True)
class Bounds:
    """What a setting's type alone does not say: its least and greatest
    values (for text, ``high`` is the most characters)."""

    low: int | None = None
    high: int | None = None
    chips: bool = False
    """An amount of chips: the API caps every amount (``kernel.api``)."""
    derived: bool = False
    """Left out, it follows from the other settings (the seats and buy-ins
    from the game and stakes, RULES.md 1), not from a fixed default."""


def bounded(
    low: int | None = None, high: int | None = None, *, chips: bool = False, derived: bool = False
) -> Mapping[str, Bounds]:
    """The metadata of a field declaring these bounds."""
    return {KEY: Bounds(low, high, chips, derived)}


@dataclass(frozen=True, slots=True)
class Setting:
    """One setting as declared: the API, the columns and the checks read
    this, never a copy of the numbers."""

    name: str
    kind: type[Any]
    """``int``, ``str`` or an enumeration (stored and sent as its value)."""
    default: Any
    """``MISSING`` when the setting has no fixed default."""
    nullable: bool
    bounds: Bounds

    @property
    def has_default(self) -> bool:
        """A fixed default applies when the setting is left out."""
        return self.default is not MISSING

    @property
    def is_enum(self) -> bool:
        """Stored and sent as the enumeration's value."""
        return issubclass(self.kind, Enum)

    def plain(self, value: object) -> object:
        """``value`` as stored and sent: an enumeration as its value."""
        return value.value if isinstance(value, Enum) else value

    def typed(self, value: object) -> object:
        """A stored or sent value back as the engine's (``ValueError`` for
        an unknown enumeration value)."""
        return self.kind(value) if self.is_enum and value is not None else value

    def check(self, value: object) -> None:
        """Refuse ``value`` with ``Malformed`` unless it is of the setting's
        type and within its bounds."""
        if value is None and self.nullable:
            return
        if not self._fits(value):
            raise Malformed(f"{self.name} must be {self.describe()}")

    def _fits(self, value: object) -> bool:
        low, high = self.bounds.low, self.bounds.high
        if self.kind is int:
            if type(value) is not int:
                return False
            return (low is None or value >= low) and (high is None or value <= high)
        if self.kind is str:
            return isinstance(value, str) and (high is None or len(value) <= high)
        return isinstance(value, self.kind)

    def describe(self) -> str:
        """What the setting takes, in words, for refusals."""
        low, high = self.bounds.low, self.bounds.high
        if self.kind is str:
            return "text" if high is None else f"text of at most {high} characters"
        if self.kind is not int:
            return "one of " + ", ".join(str(m.value) for m in self.kind)
        if high is None:
            return "a whole number" if low is None else f"a whole number of at least {low}"
        return f"a whole number from {low} to {high}"


def settings_of(cls: type[Any], skip: tuple[str, ...] = ()) -> tuple[Setting, ...]:
    """The settings ``cls`` declares, in field order, but ``skip``."""
    hints = typing.get_type_hints(cls)
    return tuple(
        _setting(f.name, hints[f.name], f.default, f.metadata.get(KEY, Bounds()))
        for f in fields(cls)
        if f.name not in skip
    )


def _setting(name: str, hint: Any, default: Any, bounds: Bounds) -> Setting:
    args = typing.get_args(hint)
    nullable = typing.get_origin(hint) in (typing.Union, types.UnionType) and type(None) in args
    kind = next(a for a in args if a is not type(None)) if nullable else hint
    return Setting(name, kind, default, nullable, bounds)


def check_all(value: object, settings: tuple[Setting, ...]) -> None:
    """Refuse ``value`` with ``Malformed`` unless each of its ``settings``
    fits its declaration."""
    for setting in settings:
        setting.check(getattr(value, setting.name))
