"""Per-card keys that let a 52-card hand be looked up with additions only.

Each standard card gets one small int: its rank key shifted left, plus a
one-hot bit for its suit in the low four bits.  For five cards ``a..e``:

- ``(a + b + c + d + e) >> SUIT_BITS`` is the sum of the rank keys, which is
  different for every multiset of five ranks (no rank more than four times), so
  it keys a dict of values with no sorting and no loop;
- ``a & b & c & d & e & SUIT_MASK`` is non-zero exactly when all five share a
  suit, which picks the flush table instead of the plain one.

The five suit bits add up to at most 40, so six bits keep them off the rank sum.

The tables cost a few tens of milliseconds each to fill, so they are filled on
first use (:class:`LazyTables`) rather than at import: a process pays only for
the games it plays, and the hot path is still one dict lookup.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from itertools import combinations_with_replacement
from typing import Final

from poker.engine.cards import Card
from poker.engine.evaluate.shape import HandError

RANK_KEYS: Final = (0, 1, 5, 22, 94, 312, 992, 2422, 5624, 12522, 19998, 43258, 79415)
"""Rank keys for 2..A, found greedily: each is the smallest that keeps every sum of
five keys (no key used more than four times) unique.  Smaller than the usual
seven-card set, so every sum stays a one-digit CPython int."""

SUIT_BITS: Final = 6
"""Width of the suit field under the rank key: five one-hot suit bits sum to at most 40."""
SUIT_MASK: Final = 0b1111
"""The one-hot suit bits of a single key."""

CARD_KEYS: Final = tuple(RANK_KEYS[card >> 2] << SUIT_BITS | 1 << (card & 3) for card in range(52))
"""The key of each standard card, indexed by the card's int."""

RANKS: Final = range(2, 15)
"""The ranks of the 52-card deck, deuce to ace."""

Valuation = Callable[[tuple[int, ...], bool], int]
"""A game's value of five ranks (2..14), given whether they are all one suit."""


def rank_multisets() -> Iterator[tuple[int, ...]]:
    """Every multiset of five ranks a 52-card deck can deal (at most four of a rank)."""
    for ranks in combinations_with_replacement(RANKS, 5):
        if ranks[0] != ranks[4]:  # sorted, so only five of one rank has equal ends
            yield ranks


def rank_sum(ranks: tuple[int, ...]) -> int:
    """The sum of the rank keys of ``ranks``: what a hand's keys add up to, shifted."""
    return sum(RANK_KEYS[r - 2] for r in ranks)


def build_tables(valuation: Valuation) -> tuple[dict[int, int], dict[int, int]]:
    """The plain and the flush table of a game, keyed by rank sum.

    Raises ``RuntimeError`` if two multisets share a key, which would make the
    lookup answer for the wrong hand.
    """
    plain: dict[int, int] = {}
    flush: dict[int, int] = {}
    count = 0
    for ranks in rank_multisets():
        count += 1
        key = rank_sum(ranks)
        plain[key] = valuation(ranks, False)
        if len(set(ranks)) == 5:
            flush[key] = valuation(ranks, True)
    if len(plain) != count:
        raise RuntimeError("rank keys collide")
    return plain, flush


@dataclass(frozen=True, eq=False)
class LazyTables:
    """A game's plain and flush tables: empty until first use, then filled in place.

    The evaluators bind the two dicts once and look them up directly; a miss
    (``KeyError``) sends them to :meth:`first_use`, which fills the tables and
    looks again.  Filling in place keeps the hot path free of any "built yet?" test.
    """

    valuation: Valuation
    """The game's value of five ranks; called once per rank multiset."""
    plain: dict[int, int] = field(default_factory=dict)
    """Values of hands not all of one suit, by rank sum."""
    flush: dict[int, int] = field(default_factory=dict)
    """Values of hands all of one suit, by rank sum; filled last."""
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False, compare=False)

    def load(self) -> None:
        """Fill the tables unless they are full (idempotent, thread-safe)."""
        if self.flush:
            return
        with self._lock:
            if not self.flush:
                plain, flush = build_tables(self.valuation)
                self.plain.update(plain)  # each update is one C-level merge
                self.flush.update(flush)  # last: a non-empty flush table means both are full

    def first_use(self, hand: Sequence[Card]) -> int:
        """The value of ``hand`` once the tables are full, or :class:`HandError`.

        The message names no card: hidden cards must not reach a log.
        """
        self.load()
        try:
            return lookup(hand, self.plain, self.flush)
        except (KeyError, IndexError, ValueError):
            raise HandError("not five standard cards") from None


def lookup(hand: Sequence[Card], plain: dict[int, int], flush: dict[int, int]) -> int:
    """The table value of five standard cards: what the evaluators inline."""
    a, b, c, d, e = (CARD_KEYS[card] for card in hand)
    table = flush if a & b & c & d & e & SUIT_MASK else plain
    return table[(a + b + c + d + e) >> SUIT_BITS]
