"""Prizes by finishing place, ties shared, satellite tickets.

- Players tied for places share the combined prizes of those places
  (PokerStars: two players tied for 5th and 6th get (5th + 6th) / 2 each).
  The split is exact in whole units: each gets the combined sum divided by
  the number tied, rounded down, and the units left over go one each to the
  tied players in order of player id (a fixed, checkable order: they have
  no order of their own).
- A ticket cannot be cut: when a tie covers only seats, each tied player
  gets one; when it covers seats and places without one, the seats count
  at their value and the whole is shared in cash (rule chosen; RULES.md is
  silent).
- A step satellite's consolation tickets (``into`` a step) are shared the
  same way: tied players who cover only tickets of one kind each get one,
  otherwise every ticket counts at its value and the whole is shared in
  cash.
- A satellite winner already registered for the target gets the seat's
  value in cash instead of a ticket (RULES.md 6).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from itertools import groupby

from tournaments.rules.payouts import Prize, split
from tournaments.rules.placements import Standing


@dataclass(frozen=True, slots=True)
class Award:
    """What ``player`` (finished in ``place``) wins: cash and/or a ticket
    (into the satellite's target, or a consolation ticket ``into`` a step)."""

    player: str
    place: int
    cash: int = 0
    ticket: bool = False
    into: str = ""


def award(
    standings: Sequence[Standing],
    prizes: Sequence[Prize],
    seat_value: int = 0,
    in_target: Iterable[str] = (),
    values: Mapping[str, int] | None = None,
) -> tuple[Award, ...]:
    """The awards of every player who wins something, best place first.

    ``prizes`` are by place (best first; places beyond them win nothing);
    ``seat_value`` is what a ticket is worth; ``in_target`` are the players
    already registered for the satellite's target; ``values`` what each
    consolation ticket is worth, by its target."""
    registered = frozenset(in_target)
    worth = dict(values or {})
    out: list[Award] = []
    ordered = sorted(standings, key=lambda s: (s.place, s.player))
    for place, tied in groupby(ordered, key=lambda s: s.place):
        players = [s.player for s in tied]
        covered = [_prize(prizes, place + k) for k in range(len(players))]
        for player, prize in zip(
            players, _share(covered, len(players), seat_value, worth), strict=True
        ):
            if prize.ticket and player in registered:
                prize = Prize(cash=prize.cash + seat_value)
            if prize.cash or prize.ticket or prize.into:
                out.append(Award(player, place, prize.cash, prize.ticket, prize.into))
    return tuple(out)


def _prize(prizes: Sequence[Prize], place: int) -> Prize:
    return prizes[place - 1] if place <= len(prizes) else Prize()


def _share(
    covered: list[Prize], tied: int, seat_value: int, worth: Mapping[str, int]
) -> list[Prize]:
    """The prizes of ``covered`` places shared by ``tied`` players."""
    if tied == 1:
        return covered
    first = covered[0]
    if (first.ticket or first.into) and all(p == first for p in covered):
        return covered
    value = sum(
        p.cash + (seat_value if p.ticket else 0) + (worth[p.into] if p.into else 0) for p in covered
    )
    return [Prize(cash=c) for c in split(value, (1,) * tied)]
