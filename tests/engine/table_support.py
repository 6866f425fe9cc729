"""Shared helpers of the cash-table rule tests: a table, its hands."""

from __future__ import annotations

from poker.engine.hand import begin
from poker.engine.rules import Betting, Game, Rules
from poker.engine.table import (
    FinishHand,
    HandBegan,
    Sit,
    StartHand,
    TableCommand,
    TableConfig,
    TableState,
    began,
    open_table,
    plan_hand,
    play_table,
    replay_table,
)

FIVE = Rules(Game.FIVE_CARD_DRAW, Betting.NO_LIMIT, small_blind=1, big_blind=2)
"""No over blind: buy-ins 20 to 200, six seats."""
THIRTY_TWO = Rules(Game.THIRTY_TWO_CARD_DRAW, Betting.NO_LIMIT, small_blind=3, big_blind=6)
"""SB 3, BB 6, OB 12: buy-ins 60 to 600, five seats."""


def table(rules: Rules, seated: dict[int, str], stack: int = 100) -> TableState:
    """A table with ``seated`` (seat -> player) bought in for ``stack`` each."""
    state = replay_table(open_table(TableConfig.create(rules)))
    return run(state, *(Sit(seat, player, stack) for seat, player in seated.items()))


def run(state: TableState, *commands: TableCommand) -> TableState:
    for command in commands:
        state = play_table(state, command)[0]
    return state


def deal(state: TableState) -> tuple[TableState, HandBegan]:
    """Start the next hand (checked against the hand engine)."""
    plan = plan_hand(state)
    assert plan is not None
    rules = state.config.rules
    begin(plan.to_deal(rules, rules.variant.deck, 1))
    state, (event,) = play_table(state, StartHand())
    assert isinstance(event, HandBegan)
    assert event == began(plan, state.hand_number)
    return state, event


def finish(state: TableState, **stacks: int) -> TableState:
    """Finish the running hand; stacks unchanged unless given by seat ("s3": 0)."""
    final = {n: state.seats[n].stack for n in state.hand_seats}
    final.update({int(k[1:]): v for k, v in stacks.items()})
    return play_table(state, FinishHand(final))[0]


def hands(state: TableState, count: int) -> tuple[TableState, list[HandBegan]]:
    """Play ``count`` hands with no chips changing hands."""
    began_events = []
    for _ in range(count):
        state, event = deal(state)
        state = finish(state)
        began_events.append(event)
    return state, began_events


def positions(event: HandBegan) -> tuple[int, int | None, int, int | None]:
    return event.button, event.small, event.big, event.over
