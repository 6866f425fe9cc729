"""The best response to a casino table's settings, by expected value.

For a table's exact settings (jokers, pay table, the dealer's qualifier
and what the ANTE wins when he does not qualify) this computes a player
strategy that maximises the expected value of each decision (RULES.md 5),
and that value (the model's house edge is its negative):

- play or fold: the final hand plays when what playing returns per chip of
  ANTE, against the dealer's final hand, beats the fold's -1.  Every payout
  is a multiple of the ANTE (BET = 2 x ANTE), so the choice does not depend
  on the stake: one decision per final hand serves 1, 2 and 3 B of ANTE;
- the second exchange: standing (ANTE 2 B) against each of the five single
  cards changed (ANTE 3 B), each averaged exactly over the replacement
  cards;
- the first exchange: standing (ANTE B, no second exchange) against all 31
  ways to change 1 to 5 cards (ANTE 2 B, then the best second exchange),
  each averaged exactly over every draw from the 47 to 49 unseen cards,
  for every starting hand.

The averages over draws are sums over supersets of the kept cards: every
final hand's value is added into a table for each of its 32 subsets
(``superset_sums``), and the sum over draws that avoid the discarded cards
is an inclusion-exclusion over the discards (``draw_sums``).  Every hand is
an index in the combinatorial number system (``colex``), so the whole work
is a few dozen numpy passes over the C(52 + jokers, 5) hands.

Its approximations, each with its bound (``Solution.bounds``):

- the dealer's final hand is sampled (``DealerSample``: his own exchange
  rule, ``dealer_discards``), not enumerated; the probabilities carry the
  sample's binomial error;
- the dealer's cards are drawn from the deck less the player's final five
  cards: the jokers among them exactly (a joker lets the dealer qualify
  with any jack-high hand: the card removal that moves his odds most), the
  others chosen at random rather than by rank, and the player's discards
  (0 to 6 cards) left in;
- the second exchange's replacement is averaged over the deck less the
  final hand, so the first exchange's discards (at most 5 of 49 cards) are
  counted as if they could come back.

None of them touches the simulation: the strategy is then played through
the engine's own dealer and settlement (``simulate``), which measures what
it is really worth.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cache
from typing import Final

import numpy as np
import numpy.typing as npt

from poker.engine.cards import JOKER_BASE, Card, simulation_random
from poker.engine.casino.card_lines import card_line
from poker.engine.casino.dealer import dealer_discards
from poker.engine.casino.paytable import DEFAULT_PAY_TABLE, HANDS_BY_CODE, Hand, PayTable
from poker.engine.casino.rules import HAND_SIZE, QUALIFYING
from poker.engine.casino.settle import largest_win
from poker.engine.evaluate import rank_joker_high
from poker.engine.evaluate.shape import CATEGORY_SHIFT, RANK_BITS

Ints = npt.NDArray[np.int64]
Floats = npt.NDArray[np.float64]

NOT_QUALIFIED: Final = Fraction(2, 3)
"""RULES.md 5: the ANTE wins 2:3 when the dealer does not qualify."""
DEALER_SAMPLES: Final = 400_000
"""Dealer hands sampled per number of jokers the player holds."""
SUBSETS: Final = 1 << HAND_SIZE
STAND: Final = SUBSETS - 1
"""The first exchange's keep mask that keeps all five: standing pat."""
_CHUNK: Final = 200_000
_BINOM: Final = np.array(
    [[math.comb(n, k) for k in range(HAND_SIZE + 1)] for n in range(64)], dtype=np.int64
)


@dataclass(frozen=True, slots=True)
class Settings:
    """What the math depends on: the table's jokers and pay table, the
    dealer's least qualifying hand (a ``rank_joker_high`` value) and the
    ANTE's odds when he does not qualify."""

    jokers: int = 2
    pay_table: PayTable = DEFAULT_PAY_TABLE
    qualifier: int = QUALIFYING
    not_qualified: Fraction = NOT_QUALIFIED

    @property
    def cards(self) -> int:
        """Cards in the deck."""
        return 52 + self.jokers


@dataclass(frozen=True, slots=True)
class Solution:
    """The best response: per hand (by ``colex`` index of its sorted
    cards) the first exchange's keep mask, the second exchange's choice and
    whether it plays; and what it is worth."""

    settings: Settings
    value: float
    """The model's expected net per round, in original bets B."""
    first: npt.NDArray[np.uint8]
    """Keep mask over the sorted cards; ``STAND`` stands pat."""
    second: npt.NDArray[np.uint8]
    """0 stands, ``1 + i`` changes the i-th card of the sorted hand."""
    plays: npt.NDArray[np.bool_]
    """Play rather than fold holding this final hand."""
    bounds: dict[str, float] = field(default_factory=dict)
    """Each approximation's bound on ``value``, in B."""

    @property
    def house_edge(self) -> float:
        """The model's house edge on the original bet."""
        return -self.value


def colex(sorted_cards: Ints) -> Ints:
    """The index of each row of ascending card numbers among the subsets
    of its size (the combinatorial number system)."""
    k = sorted_cards.shape[1]
    return sum(
        (_BINOM[sorted_cards[:, j], j + 1] for j in range(k)),
        start=np.zeros(len(sorted_cards), np.int64),
    )


def colex_one(sorted_cards: list[int]) -> int:
    """``colex`` of one hand, for the hot loop of a simulation."""
    return sum(math.comb(c, j + 1) for j, c in enumerate(sorted_cards))


@cache
def all_hands(cards: int) -> Ints:
    """Every five-card hand of a deck of ``cards`` cards, ascending card
    numbers in each row, rows in ``colex`` order."""
    rows = np.fromiter(
        itertools.chain.from_iterable(itertools.combinations(range(cards), HAND_SIZE)),
        dtype=np.int64,
        count=math.comb(cards, HAND_SIZE) * HAND_SIZE,
    ).reshape(-1, HAND_SIZE)
    order = np.argsort(colex(rows), kind="stable")
    return rows[order]


@cache
def hand_values(cards: int) -> Ints:
    """``rank_joker_high`` of every hand of ``all_hands``: each hand is
    worth what its ranks and its flush (or not) are worth, so each distinct
    such shape is evaluated once by the engine and looked up for the rest."""
    hands = all_hands(cards)
    joker = hands >= JOKER_BASE
    ranks = np.where(joker, 13, hands >> 2)
    suits = np.where(joker, (hands[:, :1] & 3), hands & 3)
    flush = (suits == suits[:, :1]).all(axis=1)
    key = sum((ranks[:, j] * 14**j for j in range(HAND_SIZE)), start=np.zeros(len(hands), np.int64))
    key = key * 2 + flush
    shapes, inverse = np.unique(key, return_inverse=True)
    values = np.array([_shape_value(int(s)) for s in shapes], dtype=np.int64)
    return values[inverse]


def _shape_value(key: int) -> int:
    flush, key = key & 1, key >> 1
    ranks = [key // 14**j % 14 for j in range(HAND_SIZE)]
    hand: list[Card] = []
    jokers = 0
    for i, rank in enumerate(ranks):
        if rank == 13:
            hand.append(Card(JOKER_BASE + jokers))
            jokers += 1
        else:
            hand.append(Card(rank << 2 | (0 if flush else i % 4)))
    return rank_joker_high(hand)


@cache
def dealer_sample(jokers: int, held: int = 0, samples: int = DEALER_SAMPLES, seed: int = 5) -> Ints:
    """The dealer's final hands, sorted, over ``samples`` rounds from a deck
    of ``jokers`` jokers and the 52 cards less ``held`` of them (the
    player's, chosen at random each round), each after his own exchange."""
    deck = [Card(c) for c in range(52 + jokers)]
    rng = simulation_random(seed)
    out = np.empty(samples, np.int64)
    for n in range(samples):
        gone = set(rng.sample(range(52), held))
        cards = [c for c in rng.sample(deck, 2 * HAND_SIZE + held) if c not in gone]
        hand = cards[:HAND_SIZE]
        for top, p in enumerate(dealer_discards(hand), start=HAND_SIZE):
            hand[p] = cards[top]
        out[n] = rank_joker_high(hand)
    out.sort()
    return out


def play_values(settings: Settings, samples: int = DEALER_SAMPLES) -> tuple[Floats, float]:
    """What each final hand of ``all_hands`` returns per chip of ANTE with
    the better of playing and folding (-1), and the bound on it from the
    dealer's sample (three standard errors of each probability, weighted by
    what it pays)."""
    values = hand_values(settings.cards)
    held = (all_hands(settings.cards) >= JOKER_BASE).sum(axis=1)
    pays = np.array(settings.pay_table.by_code(), dtype=np.float64)
    ratio = float(settings.not_qualified)
    out = np.empty(len(values), np.float64)
    for jokers in range(settings.jokers + 1):
        mine = held == jokers
        if not mine.any():
            continue
        dealer = dealer_sample(settings.jokers - jokers, HAND_SIZE - jokers, samples)
        v = values[mine]
        below = np.searchsorted(dealer, v, "left")
        upto = np.searchsorted(dealer, v, "right")
        unqualified = np.searchsorted(dealer, settings.qualifier, "left")
        n = len(dealer)
        win = np.maximum(below - unqualified, 0) / n
        lose = (n - np.maximum(upto, unqualified)) / n
        gain = ratio * unqualified / n + 2 * pays[v >> CATEGORY_SHIFT] * win - 3 * lose
        out[mine] = np.maximum(gain, -1.0)
    error = 3 * math.sqrt(0.25 / samples) * (ratio + 2 * max(pays) + 3)
    return out, error


def superset_sums(hands: Ints, per_hand: Floats, size: int) -> Floats:
    """For every subset of ``size`` cards, the sum of ``per_hand`` over the
    hands that hold it."""
    total = math.comb(int(hands.max()) + 1, size)
    out = np.zeros(total, np.float64)
    for chosen in itertools.combinations(range(HAND_SIZE), size):
        index = colex(hands[:, list(chosen)]) if size else np.zeros(len(hands), np.int64)
        out += np.bincount(index, weights=per_hand, minlength=total)
    return out


def second_exchange(
    settings: Settings, hands: Ints, gain: Floats
) -> tuple[Floats, npt.NDArray[np.uint8]]:
    """After a first exchange: the better of standing (2 ANTEs' worth of
    ``gain``) and changing one card (3, averaged over the replacement), and
    the choice (0 stands, ``1 + i`` changes sorted card i)."""
    fours = superset_sums(hands, gain, HAND_SIZE - 1)
    unseen = settings.cards - HAND_SIZE
    options = np.empty((len(hands), HAND_SIZE + 1), np.float64)
    options[:, 0] = 2 * gain
    for i in range(HAND_SIZE):
        kept = np.delete(hands, i, axis=1)
        options[:, 1 + i] = 3 * (fours[colex(kept)] - gain) / unseen
    choice = options.argmax(axis=1).astype(np.uint8)
    return options.max(axis=1), choice


def draw_sums(hands: Ints, tables: list[Floats]) -> Floats:
    """For each hand and each keep mask, the sum of the values in
    ``tables`` (by subset size) over every final hand that keeps the masked
    cards and draws the rest from cards not in the hand: the superset sums
    of the kept cards, less by inclusion-exclusion those holding a discard."""
    sums = np.empty((len(hands), SUBSETS), np.float64)
    for mask in range(SUBSETS):
        kept = [i for i in range(HAND_SIZE) if mask >> i & 1]
        table = tables[len(kept)]
        sums[:, mask] = table[colex(hands[:, kept])] if kept else table[0]
    for bit in range(HAND_SIZE):
        for mask in range(SUBSETS):
            if not mask >> bit & 1:
                sums[:, mask] -= sums[:, mask | 1 << bit]
    return sums


def solve(settings: Settings | None = None, samples: int = DEALER_SAMPLES) -> Solution:
    """The best response to ``settings`` and its value (module docstring)."""
    settings = settings or Settings()
    hands = all_hands(settings.cards)
    gain, dealer_error = play_values(settings, samples)
    after, second = second_exchange(settings, hands, gain)
    tables = [superset_sums(hands, after, size) for size in range(HAND_SIZE)] + [after]
    unseen = settings.cards - HAND_SIZE
    draws = np.array(
        [math.comb(unseen, HAND_SIZE - bin(m).count("1")) for m in range(SUBSETS)], np.float64
    )
    first = np.empty(len(hands), np.uint8)
    best = np.empty(len(hands), np.float64)
    for start in range(0, len(hands), _CHUNK):
        part = slice(start, start + _CHUNK)
        options = draw_sums(hands[part], tables) / draws
        options[:, STAND] = gain[part]
        first[part] = options.argmax(axis=1)
        best[part] = options.max(axis=1)
    bounds = {
        "dealer sample (3 SE, per chip of ANTE, times the 3 B most ANTE)": 3 * dealer_error,
        "second exchange counting the first's discards (the most, per B)": _second_bound(
            settings, after
        ),
    }
    return Solution(settings, float(best.mean()), first, second, gain > -1.0, bounds)


def _second_bound(settings: Settings, after: Floats) -> float:
    """The most counting the first exchange's (at most five) discards
    among the second's replacements can move a second exchange's value: a
    share 5 / (unseen) of its draws, times the widest spread of outcomes."""
    unseen = settings.cards - HAND_SIZE
    return HAND_SIZE / unseen * float(after.max() - after.min())


def largest_payout(settings: Settings, original: int) -> int:
    """The most a box staking ``original`` can win in one round beyond its
    stakes: ``largest_win``, or the ANTE of 3 B at not-qualified odds that
    pay more than the BET's best line."""
    ante = 3 * original
    bet_line = largest_win(original, settings.jokers, settings.pay_table)
    return max(bet_line, math.floor(ante * settings.not_qualified))


@dataclass(frozen=True, slots=True)
class BestResponse:
    """A ``Solution`` as a ``simulate.Strategy``: each decision looked up
    by the ``colex`` index of the box's sorted cards."""

    solution: Solution

    def first_discards(self, box: Sequence[Card]) -> list[int]:
        """The positions the solution changes, none to stand."""
        order, index = _sorted(box)
        keep = int(self.solution.first[index])
        return sorted(order[i] for i in range(HAND_SIZE) if not keep >> i & 1)

    def second_discard(self, box: Sequence[Card]) -> int | None:
        """The position the solution changes, None to stand."""
        order, index = _sorted(box)
        choice = int(self.solution.second[index])
        return order[choice - 1] if choice else None

    def plays(self, box: Sequence[Card], value: int) -> bool:
        """Whether the solution plays this final hand."""
        return bool(self.solution.plays[_sorted(box)[1]])

    def describe(self) -> str:
        """The strategy in words."""
        return "the best response by expected value (poker.engine.casino.solve)"


def _sorted(box: Sequence[Card]) -> tuple[list[int], int]:
    order = sorted(range(HAND_SIZE), key=box.__getitem__)
    return order, colex_one([box[i] for i in order])


_RANKS: Final = "23456789TJQKA"


def strategy_card(solution: Solution) -> list[str]:
    """The best response in a few plain lines, for the table's page: the
    least hand it plays, and per starting hand the exchange it makes most
    often (with how often), and when it takes the second exchange."""
    cards = solution.settings.cards
    hands, values = all_hands(cards), hand_values(cards)
    kinds = values >> CATEGORY_SHIFT
    plain = (hands < JOKER_BASE).all(axis=1)
    played = values[plain & solution.plays]
    least = int(played.min()) if len(played) else None
    lines = [_play_line(least)]
    thrown = HAND_SIZE - np.array([bin(m).count("1") for m in range(SUBSETS)])[solution.first]
    for code, hand in enumerate(HANDS_BY_CODE):
        mine = kinds == code
        if not mine.any():
            continue
        counts = np.bincount(thrown[mine], minlength=HAND_SIZE + 1)
        most = int(counts.argmax())
        share = counts[most] / mine.sum()
        kind = "stand" if most == 0 else "change_one" if most == 1 else "change"
        lines.append(card_line(kind, hand=hand, count=most, share=f"{share:.0%}"))
    again = solution.second > 0
    for code, hand in enumerate(HANDS_BY_CODE):
        mine = kinds == code
        if mine.any() and again[mine].mean() > 0.5:
            share = again[mine].mean()
            lines.append(card_line("second", hand=hand, share=f"{share:.0%}"))
    lines.append(_jokers_line(hands, solution.first))
    return lines


def _jokers_line(hands: Ints, first: npt.NDArray[np.uint8]) -> str:
    jokers = hands >= JOKER_BASE
    dealt = jokers.any(axis=1)
    if not dealt.any():
        return card_line("no_jokers")
    kept = (first[:, None] >> np.arange(HAND_SIZE)) & 1
    thrown = (jokers & (kept == 0)).any(axis=1)
    if not thrown.any():
        return card_line("never_throw_joker")
    return card_line("keep_jokers", share=f"{thrown[dealt].mean():.2%}")


def _play_line(least: int | None) -> str:
    if least is None:
        return card_line("play_none")
    hand = HANDS_BY_CODE[least >> CATEGORY_SHIFT]
    if hand is Hand.PAIR:
        return card_line("play_pair", rank=_RANKS[(least >> 4 * RANK_BITS & 0xF) - 2])
    return card_line("play", hand=hand)
