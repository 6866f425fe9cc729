"""Invariants of cash tables, checked by hypothesis over random table histories.

Every game and betting structure, random seats, sits, top-ups, sit-outs,
sit-ins and leaves between and during hands, and hands that finish with
random chip redistributions (some players busted, some timed out).  After
every step: chips are conserved across the table, the fold of the events is
the state and every event survives JSON; every hand plan is accepted by the
hand engine; the big blind advances exactly one ready seat and nobody posts
it twice in a row; nobody is dealt in between the button and the small
blind; the over blind comes with 4-5 players only.  Random commands the
table refuses raise a typed error and change nothing.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import event as tally
from hypothesis import strategies as st

from poker.engine.errors import EngineError
from poker.engine.hand import begin
from poker.engine.rules import Betting, Game, Rules
from poker.engine.table import (
    Close,
    FinishHand,
    Leave,
    PlayerLeft,
    PlayerSeated,
    Sit,
    SitIn,
    SitOut,
    StartHand,
    TableCommand,
    TableConfig,
    TableEvent,
    TableState,
    ToppedUp,
    TopUp,
    decide_table,
    evolve_table,
    open_table,
    plan_hand,
    replay_table,
    table_event_from_json,
    table_event_to_json,
)
from poker.engine.table.ring import from_up_to, strictly_between

COMBINATIONS = [(game, betting) for game in Game for betting in Betting]
SETTINGS = settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
PLAYERS = [f"p{i}" for i in range(10)]


@dataclass
class History:
    state: TableState
    events: list[TableEvent] = field(default_factory=list)
    big_blinds: list[tuple[int, int]] = field(default_factory=list)
    """Who posted the big blind, hand by hand: (seat, version he sat down at)
    (a player who leaves and sits down again is somebody new)."""
    sessions: dict[int, int] = field(default_factory=dict)

    def apply(self, events: list[TableEvent]) -> None:
        for event in events:
            assert table_event_from_json(table_event_to_json(event)) == event
            self.state = evolve_table(self.state, event)
            self.events.append(event)
            if isinstance(event, PlayerSeated):
                self.sessions[event.seat] = self.state.version
            high = self.state.config.max_buy_in
            if isinstance(event, ToppedUp) and high is not None:
                assert self.state.seats[event.seat].stack <= high  # table stakes


def random_command(data: st.DataObject, state: TableState) -> TableCommand:
    """Mostly sensible commands (an empty seat to sit in, a seated player to
    act), now and then anything at all, to be refused."""
    config = state.config
    taken = sorted(state.seats)
    free = [n for n in range(1, config.seats + 1) if n not in state.seats]
    wild = data.draw(st.integers(0, 9)) == 0
    low, high = config.min_buy_in, config.max_buy_in or 4 * config.min_buy_in
    kind = data.draw(st.sampled_from(["sit", "sit", "top", "out", "in", "in", "leave"]))
    if kind == "sit" or not taken:
        seat = data.draw(st.sampled_from(free)) if free and not wild else config.seats + 1
        buy_in = data.draw(st.integers(low - 1, high + 1) if wild else st.integers(low, high))
        player = data.draw(st.sampled_from(PLAYERS))
        return Sit(seat, player, buy_in, data.draw(st.booleans()))
    seat = data.draw(st.integers(0, config.seats + 1) if wild else st.sampled_from(taken))
    if kind == "top":
        return TopUp(seat, data.draw(st.integers(0, high)))
    if kind == "out":
        return SitOut(seat)
    if kind == "in":
        return SitIn(seat, data.draw(st.booleans()))
    if data.draw(st.integers(0, 40)) == 0:
        return Close()
    return Leave(seat)


def redistribute(data: st.DataObject, state: TableState) -> FinishHand:
    """Final stacks that move chips between the players of the hand."""
    stacks = {n: state.seats[n].stack for n in state.hand_seats}
    seats = list(stacks)
    for _ in range(data.draw(st.integers(0, 4))):
        loser = data.draw(st.sampled_from(seats))
        winner = data.draw(st.sampled_from(seats))
        amount = data.draw(st.integers(0, stacks[loser]))
        stacks[loser] -= amount
        stacks[winner] += amount
    timed_out = data.draw(st.lists(st.sampled_from(seats), max_size=2))
    return FinishHand(stacks, tuple(timed_out))


def check_plan(history: History) -> None:
    """The next hand's plan against the rules, then deal it."""
    state = history.state
    plan = plan_hand(state)
    ready = {n for n, s in state.seats.items() if s.ready}
    if plan is None:
        assert len(ready) < 2
        return
    n = state.config.seats
    rules = state.config.rules
    assert set(plan.seats) <= ready
    assert plan.seats == tuple(sorted(plan.seats))
    begin(plan.to_deal(rules, rules.variant.deck, 7))  # the hand engine takes it
    big = plan.seats[plan.blinds.big]
    if state.big is not None:
        # The big blind moves to the next ready seat, never twice to a player.
        assert not any(strictly_between(s, state.big, big, n) for s in ready)
        assert (big, history.sessions[big]) != history.big_blinds[-1]
    assert (plan.blinds.over is not None) == bool(rules.over_blind(len(plan.seats)))
    if len(plan.seats) == 2:
        assert plan.seats[plan.button] == big and not plan.button_dead
        assert plan.blinds.small is not None
    else:
        # Nobody dealt in sits between the button and the small blind.
        due = plan.seats[plan.blinds.small] if plan.blinds.small is not None else state.big
        assert due is not None
        inside = [s for s in plan.seats if from_up_to(s, plan.button_seat, due, n)]
        assert set(inside) <= {plan.button_seat, due}
        assert plan.button_dead == (plan.button_seat not in plan.seats)
    for post in plan.posts:
        assert post.player not in {plan.blinds.small, plan.blinds.big, plan.blinds.over}
        assert state.seats[plan.seats[post.player]].owes
        assert post.live <= max(rules.big_blind, rules.over_blind(len(plan.seats)))
    tally(f"{len(plan.seats)} dealt in")
    for name, flag in [("dead button", plan.button_dead), ("post", plan.posts)]:
        if flag:
            tally(name)
    before = len(history.events)
    history.apply(decide_table(state, StartHand()))
    assert len(history.events) == before + 1
    history.big_blinds.append((big, history.sessions[big]))


def check_invariants(history: History) -> None:
    state = history.state
    paid_in = sum(e.buy_in for e in history.events if isinstance(e, PlayerSeated))
    paid_in += sum(e.amount for e in history.events if isinstance(e, ToppedUp))
    paid_out = sum(e.cash_out for e in history.events if isinstance(e, PlayerLeft))
    assert paid_in - paid_out == state.chips
    assert replay_table(history.events) == state
    assert state.version == len(history.events)
    assert all(s.stack >= 0 for s in state.seats.values())


@st.composite
def configs(draw: st.DrawFn, game: Game, betting: Betting) -> TableConfig:
    small = draw(st.sampled_from([1, 2, 5]))
    rules = Rules(game, betting, small, 2 * small, ante=draw(st.sampled_from([0, 0, small])))
    seats = draw(st.integers(2, rules.variant.max_players))
    return TableConfig.create(rules, seats)


@pytest.mark.parametrize(("game", "betting"), COMBINATIONS)
@SETTINGS
@given(data=st.data())
def test_random_table_histories_keep_the_invariants(
    game: Game, betting: Betting, data: st.DataObject
) -> None:
    config = data.draw(configs(game, betting))
    opened = open_table(config)
    history = History(replay_table(opened), list(opened))
    first = data.draw(st.lists(st.integers(1, config.seats), unique=True, max_size=config.seats))
    for k, seat in enumerate(first):
        history.apply(decide_table(history.state, Sit(seat, PLAYERS[k], config.min_buy_in)))
    for _ in range(data.draw(st.integers(5, 80))):
        state = history.state
        if state.closed:
            break
        roll = data.draw(st.integers(0, 9))
        if roll < 3 and not state.hand_running:
            check_plan(history)
        elif roll < 4 and state.hand_running:
            history.apply(decide_table(state, redistribute(data, state)))
        else:
            command = random_command(data, state)
            before = copy.deepcopy(state)
            try:
                events = decide_table(state, command)
            except EngineError as refused:
                assert refused.code  # typed, and the state is a value: unchanged
                assert history.state is state
            else:
                history.apply(events)
            assert state == before  # deciding, refused or not, changed nothing of it
        check_invariants(history)
