"""Starting a hand: checking the set-up, antes and blinds, the deal."""

from __future__ import annotations

from poker.engine.commands import BlindPlan, Deal
from poker.engine.errors import Malformed
from poker.engine.events import (
    AntePosted,
    BettingStarted,
    Blind,
    BlindPosted,
    CardsDealt,
    Entrant,
    Event,
    HandStarted,
)
from poker.engine.fairdeal import commit
from poker.engine.rules import AnteBy
from poker.engine.state import HAND_SIZE


def opening_events(deal: Deal) -> list[Event]:
    """HandStarted, antes, blinds, the deal and the start of round one."""
    check_deal(deal)
    n = len(deal.players)
    entrants = tuple(Entrant(name, stack) for name, stack in deal.players)
    opening: list[Event] = [
        HandStarted(
            deal.rules,
            entrants,
            deal.button,
            deal.deck,
            deal.seed,
            root=commit(deal.deck, deal.seed, 0),
            button_dead=deal.button_dead,
            rake=deal.rake,
        )
    ]
    stacks = [stack for _, stack in deal.players]
    opening += antes_and_blinds(deal, stacks)
    # One card at a time clockwise from the left of the button: the k-th
    # player from there gets cards k, k + n, k + 2n, ... of the deck.
    first = deal.button + 1
    hands = [deal.deck[k : k + HAND_SIZE * n : n] for k in range(n)]
    opening.append(CardsDealt(tuple(hands[(i - first) % n] for i in range(n))))
    opening.append(BettingStarted(0))
    return opening


def check_deal(deal: Deal) -> None:
    rules, n = deal.rules, len(deal.players)
    variant = rules.variant
    if not variant.min_players <= n <= variant.max_players:
        raise Malformed(
            f"{rules.game} needs {variant.min_players} to {variant.max_players} players, not {n}"
        )
    if any(stack <= 0 for _, stack in deal.players):
        raise Malformed("every player needs chips")
    if len({name for name, _ in deal.players}) != n:
        raise Malformed("player names must differ")
    if not 0 <= deal.button < n:
        raise Malformed("the button must be one of the players")
    if len(deal.deck) != len(variant.deck) or frozenset(deal.deck) != variant.card_set:
        raise Malformed(f"the deck must be exactly the {len(variant.deck)} cards of {rules.game}")
    if rules.small_blind <= 0 or rules.big_blind < rules.small_blind or rules.ante < 0:
        raise Malformed("blinds must be positive, the big at least the small")
    for post in deal.posts:
        if not 0 <= post.player < n or post.live < 0 or post.dead < 0:
            raise Malformed("a post names no player or a negative amount")


def default_blinds(deal: Deal) -> BlindPlan:
    """Blind positions from the button (RULES.md 1): heads-up, the
    non-dealer posts the small blind and the dealer the big."""
    n, b = len(deal.players), deal.button
    if n == 2:
        return BlindPlan(small=(b + 1) % 2, big=b)
    over = (b + 3) % n if deal.rules.over_blind(n) else None
    return BlindPlan(small=(b + 1) % n, big=(b + 2) % n, over=over)


def antes_and_blinds(deal: Deal, stacks: list[int]) -> list[Event]:
    """Antes first (all-player antes come before the blinds), then blinds,
    then extra posts; every amount capped by what is left of the stack.
    A big-blind ante is posted after the big blind itself (TDA)."""
    rules, n = deal.rules, len(deal.players)
    plan = deal.blinds or default_blinds(deal)
    posted: list[Event] = []

    def take(i: int, amount: int) -> int:
        paid = min(amount, stacks[i])
        stacks[i] -= paid
        return paid

    if rules.ante and rules.ante_by is AnteBy.ALL:
        for k in range(n):
            i = (deal.button + 1 + k) % n
            if paid := take(i, rules.ante):
                posted.append(AntePosted(i, paid))
    blinds = [(plan.small, Blind.SMALL, rules.small_blind), (plan.big, Blind.BIG, rules.big_blind)]
    if plan.over is not None:
        blinds.append((plan.over, Blind.OVER, 2 * rules.big_blind))
    for who, kind, amount in blinds:
        # Posted even when an ante left nothing to post (amount 0): the
        # blinds' places and sizes set who acts first and the bet unit.
        if who is not None:
            posted.append(BlindPosted(who, kind, take(who, amount)))
    if rules.ante and rules.ante_by is AnteBy.BIG_BLIND and (paid := take(plan.big, rules.ante)):
        posted.append(AntePosted(plan.big, paid))
    for post in deal.posts:
        if paid := take(post.player, post.live):
            posted.append(BlindPosted(post.player, Blind.EXTRA, paid))
        if paid := take(post.player, post.dead):
            posted.append(BlindPosted(post.player, Blind.EXTRA, paid, dead=True))
    return posted
