"""Seat arithmetic on a ring of seats numbered 1 to ``n`` clockwise."""

from __future__ import annotations

from collections.abc import Collection, Iterator


def clockwise(start: int, n: int) -> Iterator[int]:
    """Every seat once, clockwise from the one after ``start``, ending with ``start``."""
    for k in range(1, n + 1):
        yield (start - 1 + k) % n + 1


def counterclockwise(start: int, n: int) -> Iterator[int]:
    """Every seat once, counter-clockwise from the one before ``start``,
    ending with ``start``."""
    for k in range(1, n + 1):
        yield (start - 1 - k) % n + 1


def first_after(seats: Collection[int], start: int, n: int) -> int | None:
    """The first of ``seats`` clockwise after ``start`` (``start`` itself last)."""
    return next((s for s in clockwise(start, n) if s in seats), None)


def last_before(seats: Collection[int], start: int, n: int) -> int | None:
    """The first of ``seats`` counter-clockwise before ``start`` (``start`` itself last)."""
    return next((s for s in counterclockwise(start, n) if s in seats), None)


def _offset(seat: int, origin: int, n: int) -> int:
    return (seat - origin) % n


def strictly_between(seat: int, a: int, b: int, n: int) -> bool:
    """``seat`` lies clockwise after ``a`` and before ``b`` (empty when a == b)."""
    return a != b and 0 < _offset(seat, a, n) < _offset(b, a, n)


def after_up_to(seat: int, a: int, b: int, n: int) -> bool:
    """``seat`` lies in the clockwise arc (a, b]: after ``a``, up to ``b``
    included (empty when a == b)."""
    return a != b and 0 < _offset(seat, a, n) <= _offset(b, a, n)


def from_up_to(seat: int, a: int, b: int, n: int) -> bool:
    """``seat`` lies in the clockwise arc [a, b], both ends included."""
    return seat == a or after_up_to(seat, a, b, n)
