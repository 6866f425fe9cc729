"""Showdown order, who may muck, the rake, and who wins which pot
(RULES.md 1-4 and 8)."""

from __future__ import annotations

from poker.engine.evaluate import RANK_FUNCTIONS
from poker.engine.events import Event, HandRaked, PotAwarded
from poker.engine.pots import Pot, build_pots, split
from poker.engine.state import HandState


def showdown_order(state: HandState) -> tuple[int, ...]:
    """Who shows first, then clockwise.

    The last bettor or raiser of the final round shows first.  With no bet
    in it, the first player left of the button does; in 32 Card Draw the
    first such player who did not discard in the last draw, if any.
    """
    n = len(state.players)
    clockwise = [k % n for k in range(state.button + 1, state.button + 1 + n)]
    contenders = [i for i in clockwise if state.players[i].in_hand]
    first = contenders[0]
    if state.aggressor is not None and state.players[state.aggressor].in_hand:
        first = state.aggressor
    elif state.variant.showdown_prefers_pat:
        pat = [i for i in contenders if state.players[i].last_discard_count == 0]
        first = pat[0] if pat else first
    start = contenders.index(first)
    return tuple(contenders[start:] + contenders[:start])


def all_turned_up(state: HandState) -> bool:
    """A player is all-in, so no more betting was possible: every hand is
    turned up without a choice."""
    return any(p.in_hand and p.stack == 0 for p in state.players)


def pots(state: HandState) -> list[Pot]:
    """The pots as they stand, contested by everyone who has not folded."""
    contesting = [i for i, p in enumerate(state.players) if not p.folded]
    dead = sum(p.dead for p in state.players)
    return build_pots([p.total for p in state.players], contesting, dead)


def can_win(state: HandState, i: int) -> bool:
    """Whether ``i`` could still take a share of some pot he is in: no hand
    already shown among that pot's contenders beats his."""
    rank = RANK_FUNCTIONS[state.rules.ranking]
    mine = rank(state.players[i].cards)
    for pot in pots(state):
        if i not in pot.eligible:
            continue
        shown = [rank(state.players[j].cards) for j in pot.eligible if state.players[j].shown]
        if all(mine >= other for other in shown):
            return True
    return False


def raked_pots(state: HandState) -> tuple[list[Pot], list[Event]]:
    """The pots as they are awarded, the rake taken out (RULES.md 8), and
    the ``HandRaked`` event that took it (none when nothing is taken).

    No draw, no drop: a hand that ends before the first draw began is not
    raked; one that reached it is, however it ends (a Parole split, a
    fold in the draw or after it, a showdown).  A bet returned uncalled is
    in no pot by now (``BetReturned`` comes first), so it is not raked.
    """
    all_pots = pots(state)
    rake = state.rake
    if rake is None or state.draw < 0:
        return all_pots, []
    takes = rake.takes([p.amount for p in all_pots])
    if not sum(takes):
        return all_pots, []
    left = [Pot(p.amount - t, p.eligible) for p, t in zip(all_pots, takes, strict=True)]
    return left, [HandRaked(sum(takes), takes)]


def showdown_awards(state: HandState) -> list[Event]:
    """The rake, then each pot to the best shown hand among its
    contenders, last pot first."""
    rank = RANK_FUNCTIONS[state.rules.ranking]
    ranks = {i: rank(p.cards) for i, p in enumerate(state.players) if p.shown and p.in_hand}
    all_pots, raked = raked_pots(state)
    awards: list[Event] = list(raked)
    for k in reversed(range(len(all_pots))):
        pot = all_pots[k]
        live = [i for i in pot.eligible if i in ranks]
        best = max(ranks[i] for i in live)
        winners = [i for i in live if ranks[i] == best]
        awards.append(_award(state, k, pot, winners))
    return awards


def split_awards(state: HandState) -> list[Event]:
    """The rake, then every pot split evenly among its contenders (a
    Parole, or the last player standing, who is then every pot's only
    contender); odd chips after the rake as in RULES.md 1."""
    all_pots, raked = raked_pots(state)
    last_first = reversed(range(len(all_pots)))
    return [*raked, *(_award(state, k, all_pots[k], all_pots[k].eligible) for k in last_first)]


def _award(state: HandState, k: int, pot: Pot, winners: list[int] | tuple[int, ...]) -> PotAwarded:
    shares = split(pot.amount, winners, state.button + 1, len(state.players))
    return PotAwarded(pot=k, amount=pot.amount, shares=shares)
