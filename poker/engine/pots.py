"""Main and side pots, and how a pot is split (RULES.md section 1)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from poker.engine.events import Share


@dataclass(frozen=True, slots=True)
class Pot:
    """Chips and the positions that may win them."""

    amount: int
    eligible: tuple[int, ...]


def build_pots(totals: Sequence[int], contesting: Sequence[int], dead: int = 0) -> list[Pot]:
    """Layer everyone's chips into pots by the contesting players' totals.

    A player can only win what he matched from each opponent, so each
    distinct total of a contesting player closes a pot; chips of folded
    players fall into the layers they reach.  ``dead`` money (a big-blind
    ante, dead blinds) belongs to the main pot.  Pots with the same
    contenders are not merged: each layer is awarded on its own.
    """
    levels = sorted({totals[i] for i in contesting if totals[i] > 0})
    pots: list[Pot] = []
    floor = 0
    for level in levels:
        amount = sum(min(t, level) - min(t, floor) for t in totals)
        eligible = tuple(i for i in contesting if totals[i] >= level)
        pots.append(Pot(amount, eligible))
        floor = level
    leftover = sum(t - min(t, floor) for t in totals)
    if (leftover or dead) and not pots:
        # Every contender is in for nothing (the others left the hand):
        # what the others put in is all his to win.
        return [Pot(leftover + dead, tuple(contesting))]
    if leftover:
        # Chips of folded players above every contender's total (a player
        # who left the hand after the last bet) stay in the last pot.
        last = pots[-1]
        pots[-1] = Pot(last.amount + leftover, last.eligible)
    if dead:
        pots[0] = Pot(pots[0].amount + dead, pots[0].eligible)
    return pots


def split(
    amount: int, winners: Sequence[int], first_left_of_button: int, seats: int
) -> tuple[Share, ...]:
    """Shares of ``amount`` among ``winners``, odd chips one each clockwise
    from the first seat left of the button (the worst position first)."""
    ordered = sorted(winners, key=lambda i: (i - first_left_of_button) % seats)
    base, odd = divmod(amount, len(ordered))
    return tuple(Share(i, base + (1 if k < odd else 0)) for k, i in enumerate(ordered))
