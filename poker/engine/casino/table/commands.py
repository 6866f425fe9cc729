"""Commands: what players and the service ask of a casino table.

``decide_table`` answers each with events or refuses it with an
``EngineError``.  Boxes are numbered from 0.  Players ``Sit``, ``Bet``,
``SitOut``, ``SitIn`` and ``Leave``; the service deals (``StartRound``)
and settles (``FinishRound``) the rounds, and staff ``Close`` the table.
"""

from __future__ import annotations

from dataclasses import dataclass

from poker.engine.casino.table.events import BoxPaid


@dataclass(frozen=True, slots=True)
class Sit:
    box: int
    player: str


@dataclass(frozen=True, slots=True)
class Bet:
    """Bet ``amount`` on the next round; ``held``: what the wallet gives the
    round (the service reads the wallet: the engine knows no money)."""

    box: int
    amount: int
    held: int


@dataclass(frozen=True, slots=True)
class SitOut:
    box: int


@dataclass(frozen=True, slots=True)
class SitIn:
    box: int


@dataclass(frozen=True, slots=True)
class Leave:
    box: int


@dataclass(frozen=True, slots=True)
class Close:
    pass


@dataclass(frozen=True, slots=True)
class StartRound:
    """Deal the boxes with bets."""


@dataclass(frozen=True, slots=True)
class FinishRound:
    """The running round is settled: ``paid`` each box, in round order."""

    paid: tuple[BoxPaid, ...]


TableCommand = Sit | Bet | SitOut | SitIn | Leave | Close | StartRound | FinishRound
