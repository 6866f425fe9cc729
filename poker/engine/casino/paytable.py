"""The hands of Casino Draw Poker by their pay-table names, and the pay table.

The pay table is a frozen dataclass with one field per line, so it is a
table setting like any other (``settings_of(PayTable)`` gives each line's
name, default and bounds), stores inside ``casino.round_started`` through the
events' codec, and a partial table keeps the default for every line it leaves
out (RULES.md 5).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from enum import StrEnum, unique
from typing import Any, Final

from poker.engine.errors import Malformed
from poker.engine.evaluate import Category
from poker.engine.evaluate.shape import CATEGORY_SHIFT, HIGH_ORDER
from poker.engine.settings import bounded, check_all, settings_of


@unique
class Hand(StrEnum):
    """A five-card hand's kind, by the name the pay table and scripts use."""

    HIGH_CARD = "high-card"
    """No pair: never paid (a box only wins against a qualifying dealer)."""
    PAIR = "pair"
    """One pair (with jokers: a joker and the card it pairs)."""
    TWO_PAIR = "two-pair"
    """Two pairs and an odd card."""
    THREE_OF_A_KIND = "three-of-a-kind"
    """Three cards of one rank."""
    STRAIGHT = "straight"
    """Five ranks in sequence; A-2-3-4-5 is the lowest."""
    FLUSH = "flush"
    """Five cards of one suit."""
    FULL_HOUSE = "full-house"
    """Three of a kind and a pair."""
    FOUR_OF_A_KIND = "four-of-a-kind"
    """Four cards of one rank."""
    STRAIGHT_FLUSH = "straight-flush"
    """A straight in one suit."""
    ROYAL_FLUSH = "royal-flush"
    """Ten to ace in one suit."""
    FIVE_OF_A_KIND = "five-of-a-kind"
    """Five of one rank, only with jokers ("Poker"): the top hand."""


HANDS_BY_CODE: Final = tuple(
    Hand.PAIR if c is Category.ONE_PAIR else Hand(c.value) for c in HIGH_ORDER
)
"""The hand of each category code of a joker-high value, lowest first."""


def hand_of(value: int) -> Hand:
    """The hand a ``rank_joker_high`` value is."""
    return HANDS_BY_CODE[value >> CATEGORY_SHIFT]


def _line(default: int) -> Any:
    """A pay-table line: "N to 1", at least 1 (a winning BET wins)."""
    return field(default=default, metadata=bounded(1, 1000))


@dataclass(frozen=True, slots=True)
class PayTable:
    """What BET wins, "N to 1", by the box's hand (RULES.md 5 defaults)."""

    pair: int = _line(1)
    two_pair: int = _line(1)
    three_of_a_kind: int = _line(1)
    straight: int = _line(1)
    flush: int = _line(1)
    full_house: int = _line(2)
    four_of_a_kind: int = _line(3)
    straight_flush: int = _line(5)
    royal_flush: int = _line(10)
    five_of_a_kind: int = _line(20)

    def pays(self, hand: Hand) -> int:
        """The line of ``hand`` (``Hand.HIGH_CARD`` has none: 0)."""
        if hand is Hand.HIGH_CARD:
            return 0
        value: int = getattr(self, _FIELD[hand])
        return value

    def by_code(self) -> tuple[int, ...]:
        """The line of each category code, lowest first (for hot loops)."""
        return tuple(self.pays(h) for h in HANDS_BY_CODE)

    def to_json(self) -> dict[str, int]:
        """The table by hand names: ``{"pair": 1, ..., "five-of-a-kind": 20}``."""
        return {name.replace("_", "-"): n for name, n in asdict(self).items()}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> PayTable:
        """A table from hand names to "N to 1"; lines left out keep the
        default.  ``Malformed`` for an unknown hand or a bad number."""
        unknown = sorted(set(data) - set(_FIELD_BY_NAME))
        if unknown:
            raise Malformed(f"the pay table has no line {unknown[0]!r}")
        table = cls(**{_FIELD_BY_NAME[name]: n for name, n in data.items()})
        check_all(table, settings_of(cls))
        return table


_FIELD: Final = {h: h.value.replace("-", "_") for h in Hand if h is not Hand.HIGH_CARD}
_FIELD_BY_NAME: Final = {h.value: name for h, name in _FIELD.items()}

DEFAULT_PAY_TABLE: Final = PayTable()
"""RULES.md 5: pair to flush 1:1, full house 2:1, four of a kind 3:1,
straight flush 5:1, royal flush 10:1, five of a kind 20:1."""
