"""Small validation helpers shared by the value types (no rules here)."""

from __future__ import annotations

from tournaments.rules.errors import InvalidDefinition


def whole(value: object) -> bool:
    """An int and not a bool: chips, money and counts are whole numbers."""
    return type(value) is int


def require(condition: bool, field: str, message: str) -> None:
    """Raise ``InvalidDefinition(field, message)`` unless ``condition``."""
    if not condition:
        raise InvalidDefinition(field, message)


def count(value: object, field: str, low: int, high: int | None = None) -> None:
    """``value`` is a whole number from ``low`` to ``high`` (no upper bound: None)."""
    bounds = f"at least {low}" if high is None else f"from {low} to {high}"
    ok = whole(value) and low <= value and (high is None or value <= high)  # type: ignore[operator]
    require(ok, field, f"a whole number {bounds}")
