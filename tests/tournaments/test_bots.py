"""The simulation's bots keep to the 32 Card Draw bet window: a bot never
chooses a bet or raise the table would refuse by the time it arrives."""

from __future__ import annotations

import time

from bench.simulation import _in_window
from poker.engine.betting import Legal
from poker.engine.commands import Action
from poker.engine.table.clock import Clock, ClockKind

LEGAL = Legal(0, (Action.FOLD, Action.CALL, Action.RAISE), call=2, min_raise_to=8, max_raise_to=8)


def _clock(bet_left: float) -> Clock:
    now = time.time()
    return Clock(ClockKind.ACTION, now - 5, now + 25, now + 25, 0, now + bet_left)


def test_a_bot_may_raise_while_the_bet_window_is_open() -> None:
    assert _in_window(LEGAL, _clock(bet_left=5)).actions == LEGAL.actions
    assert _in_window(LEGAL, None) == LEGAL


def test_a_bot_does_not_raise_once_the_bet_window_closes_or_is_about_to() -> None:
    for bet_left in (-3, 0.5):
        assert _in_window(LEGAL, _clock(bet_left)).actions == (Action.FOLD, Action.CALL)
