"""Finishing places from the eliminations.

Rules (RULES.md 6, and PokerStars' published rule for hand-for-hand):

- Players go out in elimination groups: one group per hand, except in
  hand-for-hand play, where every hand of one synchronised round is one
  group (busted at different tables in the same round counts as busted
  together).  A later group finishes higher.
- Within a group, the larger stack at the start of the hand finishes
  higher; equal stacks tie and share the places they cover (``shared``).
- The players still in when play ends (the winner; in a satellite, every
  player still in once the seats are decided) finish above every bust,
  ranked by their chips, equal chips tying.
- A player who busted and re-entered is placed by his last entry only.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from itertools import groupby

from tournaments.rules.errors import Malformed


@dataclass(frozen=True, slots=True)
class Bust:
    """``player`` went out in elimination group ``group`` (larger: later),
    having started that hand with ``stack`` chips."""

    player: str
    group: int
    stack: int


@dataclass(frozen=True, slots=True)
class Standing:
    """``player`` finished in ``place``; with ``shared`` > 1 he tied with
    others for places ``place`` to ``place + shared - 1``."""

    player: str
    place: int
    shared: int = 1


def standings(busts: Iterable[Bust], survivors: Mapping[str, int]) -> tuple[Standing, ...]:
    """Every player's place: ``survivors`` (player -> chips) first, then the
    busts from the last group back.  Sorted by place, then player."""
    busts = tuple(busts)
    players = [b.player for b in busts] + list(survivors)
    if len(set(players)) != len(players):
        raise Malformed("a player is placed once: as a survivor or by his last bust")
    ranked: list[list[str]] = [
        [p for p, _ in tied]
        for _, tied in groupby(
            sorted(survivors.items(), key=lambda item: -item[1]), key=lambda item: item[1]
        )
    ]
    by_group = sorted(busts, key=lambda b: (-b.group, -b.stack))
    for _, tied_bust in groupby(by_group, key=lambda b: (b.group, b.stack)):
        ranked.append([b.player for b in tied_bust])
    out: list[Standing] = []
    place = 1
    for tied_players in ranked:
        shared = len(tied_players)
        out.extend(Standing(p, place, shared) for p in sorted(tied_players))
        place += shared
    return tuple(out)
