"""Cards and decks.

A card is a small ``int`` (so it hashes, compares and indexes at C speed in
the evaluators) that prints as its two-character code: rank ``2-9 T J Q K A``
then suit ``h d c s``.  Standard cards are ``0..51``: ``(rank - 2) * 4 + suit``,
the suit numbered spades 0, clubs 1, diamonds 2, hearts 3 (the 32 Card Draw
tie-break order), so a larger card is a higher rank, then a higher suit.  Jokers are ``52``
upwards and print as ``X1``, ``X2``, ...

Decks here are only the *sets* of cards a game uses, in a canonical order.
Shuffling needs randomness, so it lives outside the pure core: see
:func:`shuffled`, which the service calls and whose result enters the engine
as data.
"""

from __future__ import annotations

import hashlib
import random
import secrets
from collections.abc import Iterable, Sequence
from enum import IntEnum, unique
from typing import Final


@unique
class Suit(IntEnum):
    """Suits, numbered in the 32 Card Draw tie-break order, lowest first."""

    SPADES = 0
    """Lowest suit in the 32 Card Draw tie-break."""
    CLUBS = 1
    """Beats spades."""
    DIAMONDS = 2
    """Beats clubs and spades."""
    HEARTS = 3
    """Highest suit in the 32 Card Draw tie-break."""


SUIT_CHARS: Final = "scdh"
RANK_CHARS: Final = "23456789TJQKA"
JOKER_BASE: Final = 52
CARD_PATTERN: Final = r"^(?:[2-9TJQKA][scdh]|X[1-9][0-9]{0,2})$"
"""A card code as a regular expression (for schemas and input checks):
a rank and a suit, or a joker ``X1``, ``X2``, ..."""


class CardError(ValueError):
    """A card code that names no card."""


class Card(int):
    """One card; see the module docstring for the encoding."""

    __slots__ = ()

    @property
    def is_joker(self) -> bool:
        """True for a joker (a wild card of the casino game)."""
        return self >= JOKER_BASE

    @property
    def rank(self) -> int:
        """Rank 2..14 (ace high); 0 for a joker."""
        return 0 if self >= JOKER_BASE else self // 4 + 2

    @property
    def suit(self) -> Suit:
        """The suit; a joker has none and raises ``ValueError``."""
        if self >= JOKER_BASE:
            raise ValueError("a joker has no suit")
        return Suit(self % 4)

    def __str__(self) -> str:
        if self >= JOKER_BASE:
            return f"X{self - JOKER_BASE + 1}"
        return RANK_CHARS[self // 4] + SUIT_CHARS[self % 4]

    def __repr__(self) -> str:
        return f"Card({str(self)!r})"


_STANDARD: Final = tuple(Card(i) for i in range(52))
_BY_CODE: Final = {str(c): c for c in _STANDARD}


def card(code: str) -> Card:
    """The card named by ``code`` (``"Ah"``, ``"7s"``, ``"X1"``)."""
    found = _BY_CODE.get(code)
    if found is not None:
        return found
    if len(code) >= 2 and code[0] == "X" and code[1:].isdigit() and int(code[1:]) >= 1:
        return Card(JOKER_BASE + int(code[1:]) - 1)
    raise CardError(f"{code!r} is not a card")


def cards(codes: Iterable[str] | str) -> tuple[Card, ...]:
    """Cards from codes: a list of codes, or one string like ``"Ah Kd 7s"``."""
    if isinstance(codes, str):
        codes = codes.split()
    return tuple(card(c) for c in codes)


def codes(hand: Iterable[Card]) -> list[str]:
    """The codes of ``hand``, for JSON and display."""
    return [str(c) for c in hand]


def make_card(rank: int, suit: Suit) -> Card:
    """The standard card of ``rank`` (2..14) and ``suit``."""
    return _STANDARD[(rank - 2) * 4 + suit]


def deck_52() -> tuple[Card, ...]:
    """The standard 52-card deck, in card order."""
    return _STANDARD


def deck_32() -> tuple[Card, ...]:
    """The stripped deck of 32 Card Draw: sevens up to aces."""
    return tuple(c for c in _STANDARD if c.rank >= 7)


def deck_with_jokers(jokers: int) -> tuple[Card, ...]:
    """The 52-card deck plus ``jokers`` jokers (casino draw poker)."""
    return _STANDARD + tuple(Card(JOKER_BASE + i) for i in range(jokers))


SEED_BITS = 128
"""The width of every secret seed (a hand's, a casino round's): the salts
of the deck commitment are keyed by it (docs/fair-deal.md)."""


def secret_seed() -> int:
    """A hand's or a round's secret seed, ``SEED_BITS`` wide, from the OS's
    secure source (impure, as ``shuffled``: the service draws it)."""
    return secrets.randbits(SEED_BITS)


def shuffled(deck: Sequence[Card]) -> tuple[Card, ...]:
    """A uniformly shuffled copy of ``deck`` from the OS's secure source.

    The only impure function of the engine package: the service calls it
    once per hand and hands the result to the engine as data.
    """
    order = list(deck)
    for i in range(len(order) - 1, 0, -1):
        j = secrets.randbelow(i + 1)
        order[i], order[j] = order[j], order[i]
    return tuple(order)


def simulation_random(seed: int) -> random.Random:
    """A Mersenne Twister seeded with ``seed``: fast and reproducible, for
    simulations of many rounds (``casino.simulate``).  Its output can be
    predicted from a few hundred draws, so it never deals a real hand:
    real decks come from :func:`shuffled`."""
    return random.Random(seed)


def seeded_shuffle(deck: Sequence[Card], seed: int, stream: int) -> tuple[Card, ...]:
    """A shuffle of ``deck`` fixed by ``(seed, stream)``: pure and replayable.

    Reshuffles of discards need fresh order inside the pure engine; the
    secret ``seed`` chosen by :func:`secrets` at the start of the hand makes
    them unpredictable to players, and SHA-256 in counter mode makes them
    unbiased.  ``stream`` separates the reshuffles of one hand.
    """
    order = list(deck)
    pool = _HashStream(seed, stream)
    for i in range(len(order) - 1, 0, -1):
        j = pool.below(i + 1)
        order[i], order[j] = order[j], order[i]
    return tuple(order)


class _HashStream:
    """Uniform integers from SHA-256(seed, stream, counter)."""

    def __init__(self, seed: int, stream: int) -> None:
        self._prefix = f"{seed}:{stream}:".encode()
        self._counter = 0

    def below(self, n: int) -> int:
        limit = (1 << 64) - (1 << 64) % n  # reject the biased tail
        while True:
            digest = hashlib.sha256(self._prefix + str(self._counter).encode()).digest()
            self._counter += 1
            value = int.from_bytes(digest[:8], "big")
            if value < limit:
                return value % n
