"""What a box's bet puts at stake: what the player's wallet holds for a
round (``round_cover``) and the most the house may lose on it
(``exposure``)."""

from __future__ import annotations

from poker.engine.casino.rules import CasinoRules
from poker.engine.casino.settle import largest_win

ROUND_COVER = 9
"""The most a box stakes in a round, in original bets: BONUS (1), two
exchanges (1 each), and BET at twice the ANTE of 3."""


def round_cover(original: int) -> int:
    """The most a box staking ``original`` may stake in one round."""
    return ROUND_COVER * original


def exposure(original: int, rules: CasinoRules) -> int:
    """The most the house can lose on one box staking ``original`` at a
    table with ``rules``: the game math's largest win of a round
    (``largest_win``)."""
    return largest_win(original, rules.jokers, rules.pay_table)
