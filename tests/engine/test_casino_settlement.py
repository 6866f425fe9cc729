"""Settlement of a box against the dealer, checked against cases worked out
by hand from RULES.md 5: ANTE = B x (1 + exchanges), BET = 2 x ANTE; a box
beating a qualifying dealer gets its ANTE back unpaid and its BET paid by
the table; against a dealer who does not qualify the ANTE wins 2:3 rounded
down and the BET comes back; a higher dealer takes both; equal hands push."""

from __future__ import annotations

import pytest

from poker.engine.cards import cards
from poker.engine.casino import DEFAULT_PAY_TABLE, PayTable, Result, settle
from poker.engine.evaluate import rank_joker_high

QUEENS = "Qs Qc 9d 6c 2s"
TENS = "Ts Tc 9d 6c 2s"


def _value(hand: str) -> int:
    return rank_joker_high(cards(hand))


# (box hand, dealer hand, B, exchanges, result, what comes back, the box's net)
CASES = [
    # no exchange: ANTE 10, BET 20; a flush beats queens: 10 back, 20 back, 20 won
    ("2h 5h 7h 9h Kh", QUEENS, 10, 0, Result.WIN, 50, 20),
    # one exchange: ANTE 20, BET 40; a pair of kings beats queens 1:1
    ("Kh Kd 8c 5h 3d", QUEENS, 10, 1, Result.WIN, 100, 40),
    # two exchanges: ANTE 30, BET 60; a full house pays 2:1 on the BET only
    ("Kh Kd Ks 4c 4d", QUEENS, 10, 2, Result.WIN, 30 + 60 + 120, 120),
    # five of a kind (jokers) pays 20:1: 30 + 60 + 1200
    ("Kh Kd Ks X1 X2", QUEENS, 10, 2, Result.WIN, 1290, 1200),
    # a royal flush pays 10:1 on a BET of 20
    ("Ah Kh Qh Jh Th", QUEENS, 10, 0, Result.WIN, 10 + 20 + 200, 200),
    # the dealer's tens do not qualify: ANTE 30 wins 20, BET 60 comes back
    ("2h 2d 4c 7s Kd", TENS, 10, 2, Result.NOT_QUALIFIED, 30 + 20 + 60, 20),
    # ANTE 20 wins 2:3 rounded down: 13, not 13.33
    ("2h 2d 4c 7s Kd", TENS, 10, 1, Result.NOT_QUALIFIED, 20 + 13 + 40, 13),
    # ANTE 10 wins 6 (6.67 rounded down), whatever the box holds
    ("Ah Kh Qh Jh Th", TENS, 10, 0, Result.NOT_QUALIFIED, 10 + 6 + 20, 6),
    # a higher dealer takes ANTE 30 and BET 60
    ("9h 9d 4c 7s 2d", QUEENS, 10, 2, Result.LOSE, 0, -90),
    # queens with T-7-4 against queens with 9-6-2: the box's kickers win
    ("Qh Qd Th 7d 4c", QUEENS, 10, 0, Result.WIN, 10 + 20 + 20, 20),
    # equal to the last card: a push, every stake back
    ("Qh Qd 9h 6d 2c", QUEENS, 10, 1, Result.PUSH, 60, 0),
    # a hand made with a joker equals the same hand without: a push
    ("Qh X1 9h 6d 2c", QUEENS, 10, 0, Result.PUSH, 30, 0),
]


@pytest.mark.parametrize(("box", "dealer", "original", "exchanges", "result", "won", "net"), CASES)
def test_settlement_matches_the_hand_computed_case(
    box: str, dealer: str, original: int, exchanges: int, result: Result, won: int, net: int
) -> None:
    ante = original * (1 + exchanges)
    bet = 2 * ante
    done = settle(_value(box), ante, bet, _value(dealer), DEFAULT_PAY_TABLE)
    assert (done.result, done.won, done.won - ante - bet) == (result, won, net)


def test_a_winning_ante_is_returned_whatever_the_pay_table() -> None:
    table = PayTable(pair=3)
    done = settle(_value("Kh Kd 8c 5h 3d"), 30, 60, _value(QUEENS), table)
    assert (done.result, done.won) == (Result.WIN, 30 + 60 + 180)
