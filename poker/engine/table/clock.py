"""The table's clocks as pure arithmetic over states and times (RULES.md 1).

A clock never needs state of its own: who is on the clock follows from the
hand (``legal_actions``), when his clock started is the time of the hand's
last event, and how long it runs follows from the table's configuration
and his time bank.  So the same ``Clock`` comes out of every fold of the
same events, for the timer that enforces it and for every client that
draws it.

- ``turn_clock``: the clock of the player to act.  It runs out at
  ``deadline``; the player's time bank then runs by itself until
  ``expires``, when the timer acts for him (``TimeOut``).
- ``next_hand_clock``: the pause between hands; at ``expires`` the next
  hand is dealt.
- ``bank_used`` and ``check_bet_window`` judge an action made at a time;
  ``legal_at`` is the menu a client is shown at a time, from the same test
  (``bet_window_open``), so what is offered is what is accepted.

Times are seconds since the epoch, given by the caller: the engine never
reads a clock itself.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace
from enum import StrEnum, unique
from itertools import pairwise
from typing import TypeVar

from poker.engine.betting import Legal, legal_actions
from poker.engine.commands import Action
from poker.engine.errors import EngineError, ErrorCode
from poker.engine.rules import Game
from poker.engine.state import HandState, Phase
from poker.engine.table.state import TableState


@unique
class ClockKind(StrEnum):
    """What a running clock waits for."""

    ACTION = "action"
    """A bet, check, call, raise or fold (RULES.md 1, action clock)."""
    DRAW = "draw"
    """A discard or stand pat (draw clock): running out stands him pat."""
    PAROLE = "parole"
    """An answer to a Parole offer: running out refuses it."""
    SHOW = "show"
    """Show or muck at the showdown (the action clock)."""
    NEXT_HAND = "next_hand"
    """The pause between hands."""


_KINDS = {
    Phase.BETTING: ClockKind.ACTION,
    Phase.DRAW: ClockKind.DRAW,
    Phase.PAROLE: ClockKind.PAROLE,
    Phase.SHOWDOWN: ClockKind.SHOW,
}


class BetWindowClosed(EngineError):
    """32 Card Draw: a bet or raise after the first seconds of the clock."""

    code = ErrorCode.BET_WINDOW_CLOSED


@dataclass(frozen=True, slots=True)
class Clock:
    """A running clock: ``seat`` (None between hands) must act by
    ``deadline``; his time bank carries him to ``expires``, when the timer
    acts.  ``bet_until``: the end of the 32 Card Draw bet window."""

    kind: ClockKind
    started: float
    deadline: float
    expires: float
    seat: int | None = None
    bet_until: float | None = None


Turn = tuple[int | None, str, int, int]
T = TypeVar("T")


def turn(hand: HandState) -> Turn:
    """The turn in progress: who is to act, in which phase, betting round
    and draw.  A clock starts when this changes; an event that leaves it as
    it was (a leaving player's hand folded out of turn) does not restart the
    clock of the player to act."""
    return (hand.to_act, hand.phase.value, hand.round, hand.draw)


def turn_started(states: Sequence[tuple[HandState, T]]) -> T:
    """When the turn in progress began, given a hand's state after each of
    its events with the event's time (oldest first)."""
    began = states[0][1]
    for (before, _), (after, at) in pairwise(states):
        if turn(after) != turn(before):
            began = at
    return began


def turn_clock(table: TableState, hand: HandState, started: float) -> Clock | None:
    """The clock of the player to act in ``hand``, whose turn began at
    ``started``; None when nobody is to act."""
    legal = legal_actions(hand)
    if legal is None or hand.phase not in _KINDS:
        return None
    kind = _KINDS[hand.phase]
    config = table.config
    seconds = {
        ClockKind.ACTION: config.action_seconds,
        ClockKind.DRAW: config.draw_seconds,
        ClockKind.PAROLE: config.parole_seconds,
        ClockKind.SHOW: config.action_seconds,
    }[kind]
    seat = table.hand_seats[legal.player]
    held = table.seats.get(seat)
    bank = 0 if held is None else held.bank
    deadline = started + seconds
    bet_until = None
    if kind is ClockKind.ACTION and config.rules.game is Game.THIRTY_TWO_CARD_DRAW:
        bet_until = started + config.bet_seconds
    return Clock(kind, started, deadline, deadline + bank, seat, bet_until)


def next_hand_clock(table: TableState, finished: float) -> Clock:
    """The pause after the hand that finished at ``finished``."""
    due = finished + table.config.pause_seconds
    return Clock(ClockKind.NEXT_HAND, finished, due, due)


def bank_used(clock: Clock, at: float) -> int:
    """Whole seconds of his time bank a player used by acting at ``at``
    (a started second counts), at most what the bank held."""
    if clock.seat is None or at <= clock.deadline:
        return 0
    held = math.ceil(clock.expires - clock.deadline)
    return min(held, math.ceil(at - clock.deadline))


WINDOWED = (Action.BET, Action.RAISE)
"""The actions the 32 Card Draw bet window allows only while it is open."""


def bet_window_open(bet_until: float | None, at: float) -> bool:
    """Whether a bet or raise made at ``at`` is in the bet window that
    closes at ``bet_until`` (None: the game has none)."""
    return bet_until is None or at <= bet_until


def check_bet_window(clock: Clock | None, action: Action, at: float) -> None:
    """Refuse a bet or raise made after the 32 Card Draw bet window."""
    if clock is None or action not in WINDOWED:
        return
    if not bet_window_open(clock.bet_until, at):
        raise BetWindowClosed(
            "a bet or raise is only allowed in the first seconds of the clock; "
            "now only check, call or fold"
        )


def legal_at(legal: Legal, bet_until: float | None, at: float) -> Legal:
    """``legal`` as the clock allows it at ``at``: once the bet window that
    closes at ``bet_until`` has closed, no bet or raise (nor their bounds),
    as ``check_bet_window`` would refuse them."""
    if bet_window_open(bet_until, at) or not set(legal.actions) & set(WINDOWED):
        return legal
    return replace(
        legal,
        actions=tuple(a for a in legal.actions if a not in WINDOWED),
        min_bet_to=None,
        max_bet_to=None,
        min_raise_to=None,
        max_raise_to=None,
    )
