"""Shared helpers of the table rule tests: a cash or tournament table, its hands."""

from __future__ import annotations

import pytest

from poker.engine.errors import EngineError, ErrorCode
from poker.engine.hand import begin
from poker.engine.rules import Betting, Game, Rules
from poker.engine.table import (
    FinishHand,
    HandBegan,
    Seat,
    Sit,
    StartHand,
    TableCommand,
    TableConfig,
    TableState,
    began,
    decide_table,
    open_table,
    plan_hand,
    play_table,
    replay_table,
)

FIVE = Rules(Game.FIVE_CARD_DRAW, Betting.NO_LIMIT, small_blind=1, big_blind=2)
"""No over blind: buy-ins 20 to 200, six seats."""
THIRTY_TWO = Rules(Game.THIRTY_TWO_CARD_DRAW, Betting.NO_LIMIT, small_blind=3, big_blind=6)
"""SB 3, BB 6, OB 12: buy-ins 60 to 600, five seats."""


def refused(state: TableState, command: TableCommand) -> ErrorCode:
    """The code the table refuses ``command`` with (it must be refused)."""
    with pytest.raises(EngineError) as raised:
        decide_table(state, command)
    return raised.value.code


def table(rules: Rules, seated: dict[int, str], stack: int = 100) -> TableState:
    """A table with ``seated`` (seat -> player) bought in for ``stack`` each."""
    state = replay_table(open_table(TableConfig.create(rules)))
    return run(state, *(Sit(seat, player, stack) for seat, player in seated.items()))


def tournament_table(
    rules: Rules, seated: dict[int, str], stack: int = 1000, tournament: int = 7
) -> TableState:
    """A table of ``tournament`` dealing ``rules`` with ``seated`` (seat ->
    player) brought in with ``stack`` chips each."""
    config = TableConfig.for_tournament(tournament, rules, rules.variant.max_players)
    state = replay_table(open_table(config))
    return run(state, *(Seat(seat, player, stack) for seat, player in seated.items()))


def run(state: TableState, *commands: TableCommand) -> TableState:
    for command in commands:
        state = play_table(state, command)[0]
    return state


def deal(state: TableState, level: Rules | None = None) -> tuple[TableState, HandBegan]:
    """Start the next hand (checked against the hand engine), at a
    tournament table at ``level``."""
    plan = plan_hand(state, level)
    assert plan is not None
    rules = state.config.rules
    begin(plan.to_deal(rules, rules.variant.deck, 1))
    state, (event,) = play_table(state, StartHand(level))
    assert isinstance(event, HandBegan)
    assert event == began(plan, state.hand_number)
    return state, event


def finish(state: TableState, **stacks: int) -> TableState:
    """Finish the running hand; stacks unchanged unless given by seat ("s3": 0)."""
    final = {n: state.seats[n].stack for n in state.hand_seats}
    final.update({int(k[1:]): v for k, v in stacks.items()})
    return play_table(state, FinishHand(final))[0]


def hands(
    state: TableState, count: int, level: Rules | None = None
) -> tuple[TableState, list[HandBegan]]:
    """Play ``count`` hands with no chips changing hands."""
    began_events = []
    for _ in range(count):
        state, event = deal(state, level)
        state = finish(state)
        began_events.append(event)
    return state, began_events


def positions(event: HandBegan) -> tuple[int, int | None, int, int | None]:
    return event.button, event.small, event.big, event.over
