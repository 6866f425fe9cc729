"""Qualification and settlement of a box against the dealer (RULES.md 5).

Works on ``rank_joker_high`` values: equal values are equal hands after
the highest differing card (a hand made with jokers is worth exactly the
same hand without them), so the comparison is plain ``<``, ``>`` and ``==``.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum, unique

from poker.engine.casino.paytable import Hand, PayTable, hand_of
from poker.engine.casino.rules import QUALIFYING


@unique
class Result(StrEnum):
    """How a box's round ended."""

    FOLD = "fold"
    """He folded: the ANTE is lost, nothing compared."""
    NOT_QUALIFIED = "not-qualified"
    """The dealer had less than a pair of jacks: ANTE won 2:3, BET returned."""
    WIN = "win"
    """His hand beat a qualifying dealer: ANTE returned unpaid, BET won by
    the pay table."""
    LOSE = "lose"
    """A qualifying dealer's hand was higher: ANTE and BET lost."""
    PUSH = "push"
    """Equal to a qualifying dealer's hand: every stake returned."""


@dataclass(frozen=True, slots=True)
class Settlement:
    """What became of a box's stakes: ``won`` is all that comes back to him
    (stakes returned plus winnings; 0 when he lost everything)."""

    result: Result
    won: int


FOLDED = Settlement(Result.FOLD, 0)
"""A folded box's settlement: he forfeits the ANTE."""


def qualifies(dealer: int) -> bool:
    """The dealer's hand (a joker-high value) is a pair of jacks or better."""
    return dealer >= QUALIFYING


def largest_win(original: int, jokers: int, pay_table: PayTable) -> int:
    """The most a box staking ``original`` can win in one round beyond its
    stakes: a BET of 6 B (two exchanges) at the best line that can be dealt,
    five of a kind only with a joker in the deck.  The ANTE's 2:3 against a
    dealer who does not qualify (2 B of a 3 B ANTE) is less than any line
    pays on the BET."""
    lines = (h for h in Hand if h is not Hand.HIGH_CARD)
    top = max(pay_table.pays(h) for h in lines if jokers or h is not Hand.FIVE_OF_A_KIND)
    return 6 * original * top


def settle(value: int, ante: int, bet: int, dealer: int, pay_table: PayTable) -> Settlement:
    """The settlement of a box that played: his hand's ``value``, his ANTE
    and BET stakes, the dealer's final hand's value.

    The 2:3 on ANTE against a dealer who does not qualify is rounded down to
    the chip; a box that beats a qualifying dealer gets its ANTE back unpaid
    and its BET paid by the table (RULES.md 5).
    """
    if dealer < QUALIFYING:
        return Settlement(Result.NOT_QUALIFIED, ante + ante * 2 // 3 + bet)
    if value > dealer:
        return Settlement(Result.WIN, ante + bet * (1 + pay_table.pays(hand_of(value))))
    if value < dealer:
        return Settlement(Result.LOSE, 0)
    return Settlement(Result.PUSH, ante + bet)
