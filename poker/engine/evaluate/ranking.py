"""The rankings by name: what the hand engine picks once per hand.

The hand engine looks up ``RANK_FUNCTIONS[ranking]`` once and then compares
values with ``>`` whatever the game, because every ranking returns an int where
higher is better.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from enum import StrEnum, unique
from types import MappingProxyType
from typing import Final

from poker.engine.cards import Card
from poker.engine.evaluate import high, low
from poker.engine.evaluate.high import rank_high
from poker.engine.evaluate.joker import rank_joker_high
from poker.engine.evaluate.low import low_category, rank_27, rank_a5
from poker.engine.evaluate.shape import HIGH_ORDER, Category, category_of
from poker.engine.evaluate.thirtytwo import category_32, load_table, rank_32, rank_32_split

RankFunction = Callable[[Sequence[Card]], int]
"""Five cards in, a value out; higher is better."""


@unique
class Ranking(StrEnum):
    """The hand rankings of the games; the values are stable for storage."""

    THIRTY_TWO = "32-card"
    """32 Card Draw house order; the suit of the most significant card breaks ties."""
    THIRTY_TWO_SPLIT = "32-card-split"
    """32 Card Draw house order with the table option "split": identical ranks tie."""
    HIGH = "high"
    """Standard 52-card high poker (Five Card Draw)."""
    DEUCE_TO_SEVEN = "2-7"
    """Deuce-to-seven lowball: aces high, straights and flushes count against."""
    ACE_TO_FIVE = "a-5"
    """Ace-to-five lowball: aces low, straights and flushes ignored."""
    JOKER_HIGH = "joker-high"
    """Casino Draw Poker: 52 cards plus wild jokers, five of a kind on top."""


RANK_FUNCTIONS: Final[Mapping[Ranking, RankFunction]] = MappingProxyType(
    {
        Ranking.THIRTY_TWO: rank_32,
        Ranking.THIRTY_TWO_SPLIT: rank_32_split,
        Ranking.HIGH: rank_high,
        Ranking.DEUCE_TO_SEVEN: rank_27,
        Ranking.ACE_TO_FIVE: rank_a5,
        Ranking.JOKER_HIGH: rank_joker_high,
    }
)
"""Each ranking's evaluator (read-only, so no caller can swap one out)."""


def rank(hand: Sequence[Card], ranking: Ranking) -> int:
    """The value of ``hand`` under ``ranking``; higher is better in every ranking."""
    return RANK_FUNCTIONS[ranking](hand)


def category(hand: Sequence[Card], ranking: Ranking) -> Category:
    """The named category of ``hand`` under ``ranking``, for display and pay tables.

    The lowball rankings report the plain high-hand category behind the low:
    2-7 counts straights and flushes (A-2-3-4-5 is a high card), A-5 only pairs.
    """
    return _CATEGORIES[ranking](hand)


_CATEGORIES: Final[Mapping[Ranking, Callable[[Sequence[Card]], Category]]] = MappingProxyType(
    {
        Ranking.THIRTY_TWO: lambda hand: category_32(rank_32_split(hand)),
        Ranking.THIRTY_TWO_SPLIT: lambda hand: category_32(rank_32_split(hand)),
        Ranking.HIGH: lambda hand: category_of(rank_high(hand), HIGH_ORDER),
        Ranking.DEUCE_TO_SEVEN: lambda hand: low_category(rank_27(hand)),
        Ranking.ACE_TO_FIVE: lambda hand: low_category(rank_a5(hand)),
        Ranking.JOKER_HIGH: lambda hand: category_of(rank_joker_high(hand), HIGH_ORDER),
    }
)
"""How to read each ranking's category back from its value."""


def load_tables(*rankings: Ranking) -> None:
    """Fill the lookup tables of ``rankings`` (all if none) now rather than on first use.

    A service may call it at start-up so that its first showdown is not the
    one that pays for the build.
    """
    for ranking in rankings or tuple(Ranking):
        _LOADERS[ranking]()


_LOADERS: Final[Mapping[Ranking, Callable[[], None]]] = MappingProxyType(
    {
        Ranking.THIRTY_TWO: load_table,
        Ranking.THIRTY_TWO_SPLIT: load_table,
        Ranking.HIGH: high.TABLES.load,
        Ranking.DEUCE_TO_SEVEN: low.DEUCE_TO_SEVEN_TABLES.load,
        Ranking.ACE_TO_FIVE: low.ACE_TO_FIVE_TABLES.load,
        Ranking.JOKER_HIGH: high.TABLES.load,
    }
)
"""What each ranking looks its values up in."""
