"""Checks on command arguments: each returns the value or raises ``Malformed``."""

from __future__ import annotations

from tournaments.rules.checks import whole
from tournaments.rules.errors import Malformed

MAX_PLAYER_ID = 150


def player_id(value: object) -> str:
    """A player id: non-empty text."""
    if not isinstance(value, str) or not 0 < len(value) <= MAX_PLAYER_ID:
        raise Malformed(f"a player id is text of 1 to {MAX_PLAYER_ID} characters")
    return value


def moment(value: object) -> int:
    """A time: whole Unix seconds."""
    if not whole(value) or value < 0:  # type: ignore[operator]
        raise Malformed("a time is a whole number of seconds, not negative")
    assert isinstance(value, int)
    return value


def seed_of(value: object) -> int:
    """A seed for the seat draw: a whole number."""
    if not whole(value):
        raise Malformed("a seed is a whole number")
    assert isinstance(value, int)
    return value


def number(value: object, what: str, low: int = 1) -> int:
    """A table or seat number."""
    if not whole(value) or value < low:  # type: ignore[operator]
        raise Malformed(f"{what} is a whole number from {low}")
    assert isinstance(value, int)
    return value
