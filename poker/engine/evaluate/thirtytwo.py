"""32 Card Draw: the house ranking, by one lookup over all 201,376 hands.

The table maps each hand, keyed by OR-ing one bit per card (bit ``card - 20``:
the 32-card deck is cards 20..51, sevens to aces), to its value::

    split value << 2 | suit of the most significant card

The split value (:func:`rank_32_split`) is the suit-less house value; the two
low bits are the suit tie-break.  So ``rank_32(a) > rank_32(b)`` implies
``rank_32_split(a) >= rank_32_split(b)``, and dropping the two bits *is* the
split option.  A repeated card sets fewer than five bits and a card outside
the deck sets bit 32, so neither is in the table.

Build cost: every suit-less value depends only on the rank multiset (plus a
flush flag), so the build values the 784 multisets of the eight ranks, then
enumerates the suit choices per rank with ``itertools.product`` and sums their
bits at C speed, one batch per suit of the most significant card: about
35 ms (``python -m bench.evaluators``), for a table of ~17 MB.

It is built lazily, on the first evaluation, because every process that
imports the engine would otherwise pay for it, including those that never see
a 32 Card Draw hand.  The table is filled in place, so the hot path stays one
dict lookup with no "built yet?" test.  A service that wants its first
showdown fast calls :func:`load_table` (or ``load_tables``) at start-up.
"""

from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Iterator, Sequence
from itertools import combinations, combinations_with_replacement, product, repeat
from typing import Final

from poker.engine.cards import Card
from poker.engine.evaluate.shape import (
    CATEGORY_SHIFT,
    RANK_BITS,
    THIRTY_TWO_ORDER,
    THIRTY_TWO_RULES,
    Category,
    HandError,
    category_of,
    value,
)

_LOWEST_CARD: Final = 20
"""The seven of spades: the 32-card deck is cards 20..51."""
_OFF_DECK: Final = 1 << 32
"""The bit of a standard card outside the 32-card deck: no table key has it."""
_BITS: Final = tuple(
    1 << (card - _LOWEST_CARD) if card >= _LOWEST_CARD else _OFF_DECK for card in range(52)
)
"""Each standard card's bit in a table key, indexed by the card's int."""
SUIT_TIE_BITS: Final = 2
"""The low bits of a value that hold the suit tie-break."""
_LEAD_SHIFT: Final = CATEGORY_SHIFT - RANK_BITS
"""Where the first rank field of a value starts: the most significant card's rank."""

_TABLE: dict[int, int] = {}
_BUILD_LOCK: Final = threading.Lock()


def rank_32(hand: Sequence[Card]) -> int:
    """The 32 Card Draw value of five different 32-card cards; higher is better.

    House order: royal flush > straight flush > four of a kind > flush > full
    house > straight > three of a kind > two pair > one pair > high card; the
    ace is high or plays low in A-7-8-9-T, the lowest straight.  Equal ranks are
    decided by the suit (hearts > diamonds > clubs > spades) of the most
    significant card: the highest-suited card of the largest group (the higher
    pair of two pair), else the highest card (the ten of A-7-8-9-T).
    Raises :class:`HandError` for a repeated card or one outside the deck.
    """
    bits = _BITS
    try:
        a, b, c, d, e = hand
        return _TABLE[bits[a] | bits[b] | bits[c] | bits[d] | bits[e]]
    except (KeyError, IndexError, ValueError):
        return _first_use_or_error(hand)


def rank_32_split(hand: Sequence[Card]) -> int:
    """:func:`rank_32` without the suit tie-break: identical ranks tie (the "split" option)."""
    bits = _BITS
    try:
        a, b, c, d, e = hand
        return _TABLE[bits[a] | bits[b] | bits[c] | bits[d] | bits[e]] >> SUIT_TIE_BITS
    except (KeyError, IndexError, ValueError):
        return _first_use_or_error(hand) >> SUIT_TIE_BITS


def category_32(split_value: int) -> Category:
    """The house category written in a split value."""
    return category_of(split_value, THIRTY_TWO_ORDER)


def load_table() -> None:
    """Build the table now unless it is built (idempotent, thread-safe)."""
    if _TABLE:
        return
    with _BUILD_LOCK:
        if not _TABLE:
            _TABLE.update(build_table())  # one C-level merge: readers see all or nothing


def build_table() -> dict[int, int]:
    """A fresh table of all 201,376 hands (for :func:`load_table` and the benchmark)."""
    table: dict[int, int] = {}
    for ranks in _rank_multisets():
        split = value(ranks, False, THIRTY_TWO_RULES)
        lead = split >> _LEAD_SHIFT & 0xF
        counts = Counter(ranks)
        others = [_suit_choices(rank, n) for rank, n in counts.items() if rank != lead]
        for suit, lead_keys in _lead_choices(lead, counts[lead]).items():
            keys = map(sum, product(lead_keys, *others))
            table.update(zip(keys, repeat(split << SUIT_TIE_BITS | suit)))
        if len(counts) == 5:  # five ranks: each suit also makes a flush
            flush = value(ranks, True, THIRTY_TWO_RULES) << SUIT_TIE_BITS
            for suit in range(4):
                table[sum(_bit(rank, suit) for rank in ranks)] = flush | suit
    return table


def _first_use_or_error(hand: Sequence[Card]) -> int:
    """The value after building the table, or :class:`HandError` if the hand has none.

    The message names no card: hidden cards must not reach a log.
    """
    load_table()
    bits = _BITS
    try:
        a, b, c, d, e = hand
        return _TABLE[bits[a] | bits[b] | bits[c] | bits[d] | bits[e]]
    except (KeyError, IndexError, ValueError):
        raise HandError("not five different cards of the 32-card deck") from None


def _rank_multisets() -> Iterator[tuple[int, ...]]:
    """The 784 multisets of five ranks, sevens to aces, a 32-card deck can deal."""
    for ranks in combinations_with_replacement(range(7, 15), 5):
        if ranks[0] != ranks[4]:  # sorted: equal ends would be five of one rank
            yield ranks


def _bit(rank: int, suit: int) -> int:
    return _BITS[(rank - 2) * 4 + suit]


def _suit_choices(rank: int, n: int) -> list[int]:
    """The key parts of every way to hold ``n`` cards of ``rank``."""
    return [sum(_bit(rank, s) for s in suits) for suits in combinations(range(4), n)]


def _lead_choices(rank: int, n: int) -> dict[int, list[int]]:
    """As :func:`_suit_choices` for the most significant rank, by its best suit."""
    by_suit: dict[int, list[int]] = {}
    for suits in combinations(range(4), n):
        by_suit.setdefault(max(suits), []).append(sum(_bit(rank, s) for s in suits))
    return by_suit
