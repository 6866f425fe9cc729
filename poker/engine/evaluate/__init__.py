"""Hand evaluators: five cards in, an int out, higher is better in every game.

One module per seam: ``shape`` says what five ranks are worth (the rules,
written once, slowly); ``keys`` turns 52-card hands into dict keys with
additions only; ``high``, ``low``, ``thirtytwo`` and ``joker`` are the games'
lookups; ``ranking`` names them for the hand engine.
"""

from poker.engine.evaluate.high import rank_high
from poker.engine.evaluate.joker import rank_joker_high
from poker.engine.evaluate.low import rank_27, rank_a5
from poker.engine.evaluate.ranking import (
    RANK_FUNCTIONS,
    RankFunction,
    Ranking,
    category,
    load_tables,
    rank,
)
from poker.engine.evaluate.shape import Category, HandError
from poker.engine.evaluate.thirtytwo import rank_32, rank_32_split

__all__ = [
    "RANK_FUNCTIONS",
    "Category",
    "HandError",
    "RankFunction",
    "Ranking",
    "category",
    "load_tables",
    "rank",
    "rank_27",
    "rank_32",
    "rank_32_split",
    "rank_a5",
    "rank_high",
    "rank_joker_high",
]
