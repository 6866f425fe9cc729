"""Small validation helpers shared by the value types (no rules here)."""

from __future__ import annotations

from collections.abc import Mapping

from tournaments.rules.errors import InvalidDefinition


def whole(value: object) -> bool:
    """An int and not a bool: chips, money and counts are whole numbers."""
    return type(value) is int


def require(
    condition: bool,
    field: str,
    message: str,
    *,
    key: str,
    values: Mapping[str, int] | None = None,
) -> None:
    """Raise ``InvalidDefinition(field, message, key=key, values=values)``
    unless ``condition``: ``message`` is the English reason, ``key`` its
    stable name (a literal: ``tournaments.refusals.DEFINITION_REASONS`` words it
    in the reader's language, and a test finds every key in the source)."""
    if not condition:
        raise InvalidDefinition(field, message, key=key, values=values)


def count(value: object, field: str, low: int, high: int | None = None) -> None:
    """``value`` is a whole number from ``low`` to ``high`` (no upper bound: None)."""
    ok = whole(value) and low <= value and (high is None or value <= high)  # type: ignore[operator]
    if high is None:
        require(
            ok,
            field,
            f"a whole number at least {low}",
            key="whole_number_at_least",
            values={"low": low},
        )
    else:
        require(
            ok,
            field,
            f"a whole number from {low} to {high}",
            key="whole_number_range",
            values={"low": low, "high": high},
        )
