"""The table settings of a hand (``Rules``) and what each game fixes (``Variant``).

RULES.md sections 1-4 are encoded here as data; the hand logic reads them
and never tests a game by name.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum, unique

from poker.engine.cards import Card, deck_32, deck_52
from poker.engine.evaluate import Ranking
from poker.engine.settings import bounded


@unique
class Game(StrEnum):
    """The pot games the engine deals."""

    THIRTY_TWO_CARD_DRAW = "32-card-draw"
    """The main game: 32 cards, small/big/over blinds, Parole, suit tie-break."""
    FIVE_CARD_DRAW = "five-card-draw"
    """52 cards, high hands, one draw of up to five cards."""
    FIVE_CARD_TRIPLE_DRAW = "five-card-triple-draw"
    """Five Card Draw's high hands with three draws of up to five cards."""
    DEUCE_TO_SEVEN_SINGLE_DRAW = "2-7-single-draw"
    """Deuce-to-seven lowball with one draw."""
    DEUCE_TO_SEVEN_TRIPLE_DRAW = "2-7-triple-draw"
    """Deuce-to-seven lowball with three draws."""
    ACE_TO_FIVE_SINGLE_DRAW = "a-5-single-draw"
    """Ace-to-five lowball with one draw, optional ante."""
    ACE_TO_FIVE_TRIPLE_DRAW = "a-5-triple-draw"
    """Ace-to-five lowball with three draws, optional ante."""


@unique
class Betting(StrEnum):
    """Betting structures (RULES.md section 1)."""

    FIXED_LIMIT = "fixed-limit"
    """Fixed bet sizes, at most four bets a round."""
    POT_LIMIT = "pot-limit"
    """A raise may at most double the pot after the raiser's call."""
    NO_LIMIT = "no-limit"
    """The whole stack may be bet."""


@unique
class TieBreak(StrEnum):
    """How 32 Card Draw settles hands of the same category and ranks."""

    SUIT = "suit"
    """The suit of the most significant card decides (the default)."""
    SPLIT = "split"
    """Identical ranks split the pot."""


@unique
class AnteBy(StrEnum):
    """Who posts the ante."""

    ALL = "all"
    """Every player dealt in posts the ante."""
    BIG_BLIND = "big-blind"
    """The big blind alone posts one ante for the whole table."""


@dataclass(frozen=True, slots=True)
class Variant:
    """What a game fixes, as opposed to what a table configures."""

    game: Game
    deck: tuple[Card, ...]
    min_players: int
    max_players: int
    draws: int
    max_discard: int
    ranking: Ranking
    over_blind_from: int | None
    """Players dealt in from which an over blind is posted (None: never)."""
    parole: bool
    later_rounds_after_largest_blind: bool
    """True: betting after the draw starts left of the largest blind
    (32 Card Draw); False: left of the button."""
    showdown_prefers_pat: bool
    """True: with no bet in the last round, the first player left of the
    button who did not discard shows first (32 Card Draw)."""
    first_big_bet_round: int
    """Fixed limit: the first betting round (from 0) played with the big bet."""

    @property
    def card_set(self) -> frozenset[Card]:
        """The deck as a set, to check a deal's deck against."""
        return _CARD_SETS[self.deck]

    @property
    def betting_rounds(self) -> int:
        """One betting round before each draw and one after the last."""
        return self.draws + 1


_CARD_SETS: dict[tuple[Card, ...], frozenset[Card]] = {
    deck: frozenset(deck) for deck in (deck_32(), deck_52())
}


def _variant(game: Game, **fields: object) -> Variant:
    """A 52-card single-draw game unless ``fields`` say otherwise: every game
    but 32 Card Draw starts from RULES.md section 3."""
    defaults: dict[str, object] = {
        "deck": deck_52(),
        "min_players": 2,
        "max_players": 6,
        "draws": 1,
        "max_discard": 5,
        "over_blind_from": None,
        "parole": False,
        "later_rounds_after_largest_blind": False,
        "showdown_prefers_pat": False,
        "first_big_bet_round": 1,
    }
    defaults.update(fields)
    return Variant(game=game, **defaults)  # type: ignore[arg-type]


def _triple_draw(game: Game, ranking: Ranking) -> Variant:
    """Three draws and four betting rounds, the big bet from the third
    (RULES.md sections 1 and 4); the rest as the single draw."""
    return _variant(game, ranking=ranking, draws=3, first_big_bet_round=2)


VARIANTS: dict[Game, Variant] = {
    Game.THIRTY_TWO_CARD_DRAW: _variant(
        Game.THIRTY_TWO_CARD_DRAW,
        deck=deck_32(),
        max_players=5,
        max_discard=4,
        ranking=Ranking.THIRTY_TWO,
        over_blind_from=4,
        parole=True,
        later_rounds_after_largest_blind=True,
        showdown_prefers_pat=True,
    ),
    Game.FIVE_CARD_DRAW: _variant(Game.FIVE_CARD_DRAW, ranking=Ranking.HIGH),
    Game.FIVE_CARD_TRIPLE_DRAW: _triple_draw(Game.FIVE_CARD_TRIPLE_DRAW, Ranking.HIGH),
    Game.DEUCE_TO_SEVEN_SINGLE_DRAW: _variant(
        Game.DEUCE_TO_SEVEN_SINGLE_DRAW, ranking=Ranking.DEUCE_TO_SEVEN
    ),
    Game.DEUCE_TO_SEVEN_TRIPLE_DRAW: _triple_draw(
        Game.DEUCE_TO_SEVEN_TRIPLE_DRAW, Ranking.DEUCE_TO_SEVEN
    ),
    Game.ACE_TO_FIVE_SINGLE_DRAW: _variant(
        Game.ACE_TO_FIVE_SINGLE_DRAW, ranking=Ranking.ACE_TO_FIVE
    ),
    Game.ACE_TO_FIVE_TRIPLE_DRAW: _triple_draw(Game.ACE_TO_FIVE_TRIPLE_DRAW, Ranking.ACE_TO_FIVE),
}


@dataclass(frozen=True, slots=True)
class Rules:
    """A table's settings for one hand (bounds in each field's metadata:
    ``poker.engine.settings``; the big blind at least the small is checked
    with the table's settings)."""

    game: Game
    betting: Betting
    small_blind: int = field(metadata=bounded(1, chips=True))
    big_blind: int = field(metadata=bounded(1, chips=True))
    ante: int = field(default=0, metadata=bounded(0, chips=True))
    ante_by: AnteBy = AnteBy.ALL
    tie_break: TieBreak = TieBreak.SUIT

    @property
    def variant(self) -> Variant:
        """The fixed part of the game."""
        return VARIANTS[self.game]

    @property
    def ranking(self) -> Ranking:
        """The hand ranking the showdown uses, tie-break option applied."""
        ranking = self.variant.ranking
        if ranking is Ranking.THIRTY_TWO and self.tie_break is TieBreak.SPLIT:
            return Ranking.THIRTY_TWO_SPLIT
        return ranking

    def over_blind(self, players: int) -> int:
        """The over blind for a hand with ``players`` dealt in (0: none)."""
        start = self.variant.over_blind_from
        return 2 * self.big_blind if start is not None and players >= start else 0
