"""The house's numbers by simulation: one box against the dealer, N rounds.

The rounds are played with the engine's own rules, not a copy of them: the
dealer's exchange is ``dealer_discards``, hands are ``rank_joker_high``
values and every box is paid by ``settle``.  Only the event machinery is
left out (a round here is a few dict lookups, not fifteen events), which is
what makes a million rounds take seconds rather than minutes.

A round: the box stakes ``original`` on BONUS; five cards each, one at a
time to the box then the dealer, from a uniformly shuffled deck; the box
follows ``PlayerStrategy``; the dealer exchanges; the box is settled.  The
box's exchange draws from the top of the stub before the dealer's, as at
the table; one box never runs the stub out, so nothing is reshuffled.

``simulate`` returns a ``Tally`` of raw sums, which adds up (``+``) across
processes; ``figures`` turns it into the numbers a bench prints.

The house edge depends on the box's strategy far more than in the usual
house-banked games, because of two rules of RULES.md 5.  Against a dealer
who does not qualify the ANTE wins only 2:3, and the dealer, drawing by his
list, qualifies in more than half the rounds: a box that plays a pair below
queens mostly risks three ANTEs to win two thirds of one, and the plain
strategy (play any pair) loses most of an original bet per round.  And the
second exchange costs one more B whatever the hand: with three or four of a
kind it cannot spoil the hand, so it raises ANTE and BET by half exactly
when the box is ahead; ``SHARP`` uses it.  What keeps such a raise from
beating the house is that a box beating a qualifying dealer gets its ANTE
back unpaid: only the BET wins.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final, Protocol

from poker.engine.cards import JOKER_BASE, Card, simulation_random
from poker.engine.casino.dealer import dealer_discards
from poker.engine.casino.paytable import HANDS_BY_CODE, Hand
from poker.engine.casino.rules import CasinoRules
from poker.engine.casino.settle import Result, qualifies, settle
from poker.engine.evaluate import rank_joker_high
from poker.engine.evaluate.shape import CATEGORY_SHIFT, RANK_BITS

CARDS_PER_ROUND: Final = 21
"""The most one box's round uses: 10 dealt, 5 + 1 exchanged, 5 for the dealer."""
Z_95: Final = 1.959964
"""The normal quantile of a two-sided 95% confidence interval."""
CODES: Final = len(HANDS_BY_CODE)


class Strategy(Protocol):
    """How a simulated box decides (``PlayerStrategy``, or the best response
    of ``poker.engine.casino.solve``): each takes the box's cards in deal
    order and answers with positions in it."""

    def first_discards(self, box: Sequence[Card]) -> Sequence[int]:
        """The positions changed in the first exchange (none: stand)."""
        ...

    def second_discard(self, box: Sequence[Card]) -> int | None:
        """The position changed in the second exchange, None to stand."""
        ...

    def plays(self, box: Sequence[Card], value: int) -> bool:
        """Play rather than fold holding ``box`` (worth ``value``)."""
        ...

    def describe(self) -> str:
        """The strategy in words, for a bench's output."""
        ...


class Sampler(Protocol):
    """What a round needs of a random source: ``k`` distinct cards in a
    uniformly random order (``random.Random.sample``)."""

    def sample(self, population: Sequence[Card], k: int) -> list[Card]:
        """``k`` distinct elements of ``population`` in random order."""
        ...


@dataclass(frozen=True, slots=True)
class PlayerStrategy:
    """How the simulated box plays: the first exchange as the dealer would
    exchange (standing when he would stand), maybe a second exchange, and
    play with ``play_from`` or better (a pair from ``pair_from`` up), else
    fold.

    The defaults are the plain strategy: no second exchange, play any pair.
    ``SHARP`` is the one that uses the rules against the house."""

    play_from: Hand = Hand.PAIR
    pair_from: int = 2
    """The least pair he plays, by rank (2 to 14), when ``play_from`` is a
    pair: 12 plays queens or better and folds jacks and lower."""
    second_exchange: bool = False
    """Also take the second exchange when the dealer's rule would then
    change exactly one card (two pair, a four to a flush or straight)."""
    raise_made: bool = False
    """With the second exchange: also take it holding three or four of a
    kind, changing his lowest odd card.  The made hand cannot get worse, so
    the extra B on BOX is a raise: ANTE and BET grow by half."""

    def describe(self) -> str:
        """The strategy in words, for a bench's output."""
        second = "no second exchange"
        if self.second_exchange:
            second = "a second exchange when the dealer's rule would change one card"
            if self.raise_made:
                second += " or holding three or four of a kind (his lowest odd card)"
        least = self.play_from.value
        if self.play_from is Hand.PAIR:
            least = (
                "a pair" if self.pair_from == 2 else f"a pair of {_RANK_NAMES[self.pair_from - 2]}"
            )
        return f"exchanges as the dealer would, {second}, plays with {least} or better"

    def first_discards(self, box: Sequence[Card]) -> Sequence[int]:
        """The dealer's exchange (RULES.md 5)."""
        return dealer_discards(box)

    def second_discard(self, box: Sequence[Card]) -> int | None:
        """``second_discard`` with this strategy."""
        return second_discard(box, self)

    def plays(self, box: Sequence[Card], value: int) -> bool:
        """From ``least_played`` up."""
        return value >= self.least_played()

    def least_played(self) -> int:
        """The least ``rank_joker_high`` value he plays: the category's
        lowest value, or the pair of ``pair_from`` with no kickers."""
        code = HANDS_BY_CODE.index(self.play_from)
        least = code << CATEGORY_SHIFT
        if self.play_from is Hand.PAIR:
            least |= self.pair_from << 4 * RANK_BITS | self.pair_from << 3 * RANK_BITS
        return least


_RANK_NAMES: Final = (
    *("twos", "threes", "fours", "fives", "sixes", "sevens", "eights"),
    *("nines", "tens", "jacks", "queens", "kings", "aces"),
)
"""The plural name of each rank, deuces (rank 2) first."""

SHARP: Final = PlayerStrategy(pair_from=12, second_exchange=True, raise_made=True)
"""A simple strategy that plays the rules against the house: fold pairs
below queens (they lose three ANTEs to a dealer who qualifies more often
than not, and win only two thirds of one when he does not), and take the
second exchange with a draw to one card or with a made hand that it cannot
spoil (three or four of a kind: a free raise)."""


def second_discard(cards: Sequence[Card], strategy: PlayerStrategy) -> int | None:
    """The position of the card ``strategy`` changes in the second exchange,
    None to stand: the dealer's one card, else with ``raise_made`` the lowest
    odd card beside three or four of a kind (the later-dealt of equal ones)."""
    if not strategy.second_exchange:
        return None
    thrown = dealer_discards(cards)
    if len(thrown) == 1:
        return thrown[0]
    if not strategy.raise_made:
        return None
    value = rank_joker_high(cards)
    if value >> CATEGORY_SHIFT not in _MADE_GROUPS:
        return None
    group = value >> 4 * RANK_BITS & 0xF
    odd = [(-(c >> 2), i) for i, c in enumerate(cards) if c < JOKER_BASE and (c >> 2) + 2 != group]
    return max(odd)[1] if odd else None


_MADE_GROUPS: Final = frozenset(
    HANDS_BY_CODE.index(h) for h in (Hand.THREE_OF_A_KIND, Hand.FOUR_OF_A_KIND)
)


@dataclass(frozen=True, slots=True)
class Tally:
    """Raw sums over simulated rounds; ``+`` merges two tallies of the same
    table and strategy (each process plays its own seed)."""

    rounds: int
    original: int
    net: int
    """The box's chips won less staked, over every round."""
    net_squares: int
    """The sum of each round's net squared, for the confidence interval."""
    staked: int
    """Chips the box staked (BONUS, exchanges, BET), over every round."""
    played: int
    """Rounds in which the box played rather than folded."""
    exchanges: int
    """Exchanges the box made, over every round."""
    qualified: int
    """Rounds in which the dealer's hand after his exchange qualified."""
    hands: tuple[int, ...]
    """Rounds ending with the box holding each hand, by category code."""
    paid: tuple[int, ...]
    """Rounds in which the BET was paid by each line, by category code."""
    paid_chips: tuple[int, ...]
    """Winnings paid on BET by each line (stakes returned not counted)."""
    ante_two_thirds: int
    """Winnings paid on ANTE at 2:3 (the dealer did not qualify)."""
    by_exchanges: tuple[int, ...]
    """Rounds in which the box made 0, 1 and 2 exchanges."""

    def __add__(self, other: Tally) -> Tally:
        if other.original != self.original:
            raise ValueError("tallies of different original bets do not add up")

        def add(a: tuple[int, ...], b: tuple[int, ...]) -> tuple[int, ...]:
            return tuple(x + y for x, y in zip(a, b, strict=True))

        return Tally(
            self.rounds + other.rounds,
            self.original,
            self.net + other.net,
            self.net_squares + other.net_squares,
            self.staked + other.staked,
            self.played + other.played,
            self.exchanges + other.exchanges,
            self.qualified + other.qualified,
            add(self.hands, other.hands),
            add(self.paid, other.paid),
            add(self.paid_chips, other.paid_chips),
            self.ante_two_thirds + other.ante_two_thirds,
            add(self.by_exchanges, other.by_exchanges),
        )


@dataclass(frozen=True, slots=True)
class Line:
    """One pay-table line's part in the house's numbers."""

    hand: Hand
    pays: int
    """"N to 1" on BET."""
    frequency: float
    """Share of rounds that ended with the box holding this hand."""
    paid: float
    """Share of rounds in which this line paid the BET."""
    payout_share: float
    """This line's BET winnings as a share of all winnings paid to the box."""


@dataclass(frozen=True, slots=True)
class HouseFigures:
    """What the house can expect of the table, from a ``Tally``."""

    rounds: int
    house_edge: float
    """The house's expected win per round, as a share of the original bet."""
    confidence: tuple[float, float]
    """The 95% confidence interval of ``house_edge``."""
    edge_per_staked: float
    """The house's expected win as a share of all the box staked."""
    staked_confidence: tuple[float, float]
    """The 95% confidence interval of ``edge_per_staked`` (the staked
    chips' own spread taken as exact: a ratio's first-order interval)."""
    deviation: float
    """The standard deviation of the box's net per round, in original bets."""
    by_exchanges: tuple[float, ...]
    """Share of rounds with 0, 1 and 2 exchanges."""
    qualification: float
    """Share of rounds in which the dealer qualified after his exchange."""
    play_rate: float
    """Share of rounds the box played rather than folded."""
    exchanges: float
    """Exchanges per round the box made."""
    lines: tuple[Line, ...]
    """Each pay-table line, pair to five of a kind."""
    ante_two_thirds_share: float
    """ANTE winnings at 2:3 as a share of all winnings paid."""


def simulate(
    rounds: int,
    seed: int,
    *,
    rules: CasinoRules | None = None,
    original: int = 30,
    strategy: Strategy | None = None,
) -> Tally:
    """Play ``rounds`` rounds of one box staking ``original`` (30 by default,
    so that the 2:3 on ANTE is paid without rounding) from ``seed``."""
    return play_rounds(rounds, simulation_random(seed), rules or CasinoRules(), original, strategy)


def play_rounds(
    rounds: int,
    sampler: Sampler,
    rules: CasinoRules,
    original: int,
    strategy: Strategy | None = None,
) -> Tally:
    """``simulate`` with the random source given."""
    strategy = strategy or PlayerStrategy()
    deck, table = rules.deck, rules.pay_table
    net_sum = net_squares = staked = played = exchanges = qualified = two_thirds = 0
    hands, paid, paid_chips = [0] * CODES, [0] * CODES, [0] * CODES
    by_exchanges = [0, 0, 0]
    for _ in range(rounds):
        cards = sampler.sample(deck, CARDS_PER_ROUND)
        box, dealer, top = cards[0:10:2], cards[1:10:2], 10
        ante = original
        thrown = strategy.first_discards(box)
        if thrown:
            ante += original
            for p in thrown:
                box[p] = cards[top]
                top += 1
            again = strategy.second_discard(box)
            if again is not None:
                ante += original
                box[again] = cards[top]
                top += 1
        for p in dealer_discards(dealer):
            dealer[p] = cards[top]
            top += 1
        exchanges += ante // original - 1
        by_exchanges[ante // original - 1] += 1
        value, dealer_value = rank_joker_high(box), rank_joker_high(dealer)
        qualified += qualifies(dealer_value)
        code = value >> CATEGORY_SHIFT
        hands[code] += 1
        if not strategy.plays(box, value):
            net = -ante
            staked += ante
        else:
            played += 1
            bet = 2 * ante
            staked += ante + bet
            done = settle(value, ante, bet, dealer_value, table)
            net = done.won - ante - bet
            if done.result is Result.WIN:
                paid[code] += 1
                paid_chips[code] += done.won - ante - bet
            elif done.result is Result.NOT_QUALIFIED:
                two_thirds += ante * 2 // 3
        net_sum += net
        net_squares += net * net
    return Tally(
        rounds,
        original,
        net_sum,
        net_squares,
        staked,
        played,
        exchanges,
        qualified,
        tuple(hands),
        tuple(paid),
        tuple(paid_chips),
        two_thirds,
        tuple(by_exchanges),
    )


def figures(tally: Tally, rules: CasinoRules | None = None) -> HouseFigures:
    """The house edge with its 95% interval, the dealer's qualification
    rate and each pay-table line's frequency and share of the payouts."""
    n, b = tally.rounds, tally.original
    mean = tally.net / n
    variance = max(tally.net_squares / n - mean * mean, 0.0) * n / max(n - 1, 1)
    half = Z_95 * math.sqrt(variance / n) / b
    edge = -mean / b
    winnings = sum(tally.paid_chips) + tally.ante_two_thirds or 1
    table = (rules or CasinoRules()).pay_table
    lines = tuple(
        Line(
            hand,
            table.pays(hand),
            tally.hands[code] / n,
            tally.paid[code] / n,
            tally.paid_chips[code] / winnings,
        )
        for code, hand in enumerate(HANDS_BY_CODE)
        if hand is not Hand.HIGH_CARD
    )
    return HouseFigures(
        rounds=n,
        house_edge=edge,
        confidence=(edge - half, edge + half),
        edge_per_staked=-tally.net / (tally.staked or 1),
        staked_confidence=(
            (edge - half) * n * b / (tally.staked or 1),
            (edge + half) * n * b / (tally.staked or 1),
        ),
        deviation=math.sqrt(variance) / b,
        by_exchanges=tuple(k / n for k in tally.by_exchanges),
        qualification=tally.qualified / n,
        play_rate=tally.played / n,
        exchanges=tally.exchanges / n,
        lines=lines,
        ante_two_thirds_share=tally.ante_two_thirds / winnings,
    )
