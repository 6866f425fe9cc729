"""Invariants of tournament tables, checked by hypothesis over random
tournaments played on two or three tables of one game.

Random entries, moves between tables (unseated at one table and seated at
another with the same stack, decided together as one transaction), hands
dealt at random rising levels that finish with random chip
redistributions (some players busted, some timed out), busted players
rebought or taken out now or later, rebuys and add-ons, disqualifications,
sitting out and in, and now and then anything at all, to be refused.

After every step: chips are conserved across the tables (what comes in with
entries and rebuys, less what leaves with the disqualified); nobody sits
twice, at one table or two; the fold of each table's events is its state
and every event survives JSON.  Every hand is dealt at the level given (the
hand engine's ``Deal`` has its blinds), to everyone with chips, sitting out
or not, but those strictly between the button and the small blind; nobody
without chips is dealt in and nobody posts; the big blind advances exactly
one seat.  A busted player is out of his seat once the tournament unseats
him.  Refused commands raise a typed error and change nothing.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import event as tally
from hypothesis import strategies as st

from poker.engine.errors import EngineError
from poker.engine.hand import begin
from poker.engine.rules import Betting, Game, Rules
from poker.engine.table import (
    AddChips,
    ChipsAdded,
    FinishHand,
    PlayerLeft,
    PlayerSeated,
    PlayerUnseated,
    Seat,
    SitIn,
    SitOut,
    Stakes,
    StartHand,
    TableCommand,
    TableConfig,
    TableEvent,
    TableState,
    ToppedUp,
    Unseat,
    UnseatReason,
    decide_table,
    evolve_table,
    open_table,
    plan_hand,
    replay_table,
    table_event_from_json,
    table_event_to_json,
)
from poker.engine.table.ring import strictly_between

SETTINGS = settings(
    max_examples=30,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
PLAYERS = [f"p{i}" for i in range(16)]
STACK = 500


@dataclass
class Room:
    """The tables of one tournament and the chips that came and went."""

    tables: dict[int, TableState]
    events: dict[int, list[TableEvent]]
    levels: tuple[Rules, ...]
    level: int = 0
    chips_in: int = 0
    """Chips brought in by entries, rebuys and add-ons."""
    chips_out: int = 0
    """Chips that left play with the disqualified."""

    def apply(self, table: int, events: list[TableEvent]) -> None:
        for event in events:
            assert table_event_from_json(table_event_to_json(event)) == event
            assert not isinstance(event, PlayerSeated | ToppedUp | PlayerLeft)  # no money
            self.tables[table] = evolve_table(self.tables[table], event)
            self.events[table].append(event)
            if isinstance(event, ChipsAdded):
                self.chips_in += event.amount
            if isinstance(event, PlayerUnseated) and event.reason is UnseatReason.DISQUALIFIED:
                self.chips_out += event.stack

    def where(self, player: str) -> tuple[int, int] | None:
        for number, state in self.tables.items():
            seat = state.seat_of(player)
            if seat is not None:
                return number, seat
        return None

    def idle(self) -> list[tuple[int, int]]:
        """(table, seat) of every player not in a running hand."""
        return [
            (n, seat)
            for n, state in sorted(self.tables.items())
            for seat, held in sorted(state.seats.items())
            if not held.in_hand
        ]

    def free_seats(self, table: int) -> list[int]:
        state = self.tables[table]
        return [n for n in range(1, state.config.seats + 1) if n not in state.seats]


@st.composite
def rooms(draw: st.DrawFn, game: Game) -> Room:
    betting = draw(st.sampled_from(list(Betting)))
    small = draw(st.sampled_from([1, 5]))
    levels = tuple(
        Rules(game, betting, small * k, 2 * small * k, ante=draw(st.sampled_from([0, 0, k])))
        for k in (1, 2, 3, 5, 10, 20)
    )
    count = draw(st.integers(2, 3))
    seats = draw(st.integers(2, levels[0].variant.max_players))
    tables: dict[int, TableState] = {}
    events: dict[int, list[TableEvent]] = {}
    for number in range(1, count + 1):
        opened = open_table(TableConfig.for_tournament(3, levels[0], seats, table=number))
        tables[number] = replay_table(opened)
        events[number] = list(opened)
    return Room(tables, events, levels)


def enter(data: st.DataObject, room: Room) -> None:
    """A new entry draws a free seat (the tournament's draw)."""
    outside = [p for p in PLAYERS if room.where(p) is None]
    open_tables = [n for n in room.tables if room.free_seats(n)]
    if not outside or not open_tables:
        return
    table = data.draw(st.sampled_from(open_tables))
    seat = data.draw(st.sampled_from(room.free_seats(table)))
    player = data.draw(st.sampled_from(outside))
    room.apply(table, decide_table(room.tables[table], Seat(seat, player, STACK)))
    room.chips_in += STACK


def move(data: st.DataObject, room: Room) -> None:
    """A player between hands moves to another table: unseated here and
    seated there, both decided before either is applied (one transaction)."""
    idle = room.idle()
    if not idle:
        return
    table, seat = data.draw(st.sampled_from(idle))
    targets = [n for n in room.tables if n != table and room.free_seats(n)]
    if not targets:
        return
    to = data.draw(st.sampled_from(targets))
    to_seat = data.draw(st.sampled_from(room.free_seats(to)))
    held = room.tables[table].seats[seat]
    gone = decide_table(room.tables[table], Unseat(seat, UnseatReason.MOVED))
    (unseated,) = gone
    assert isinstance(unseated, PlayerUnseated)
    came = decide_table(room.tables[to], Seat(to_seat, held.player, unseated.stack))
    room.apply(table, gone)
    room.apply(to, came)
    tally("moved")


def start(data: st.DataObject, room: Room, table: int) -> None:
    """Deal at ``table`` at the level in force or a later one, checked
    against the plan and the hand engine."""
    state = room.tables[table]
    room.level = data.draw(st.integers(room.level, min(room.level + 1, len(room.levels) - 1)))
    level = room.levels[room.level]
    plan = plan_hand(state, level)
    dealable = {n for n, s in state.seats.items() if s.stack > 0}
    if plan is None:
        assert len(dealable) < 2
        return
    deal = plan.to_deal(state.config.rules, level.variant.deck, 5)
    assert deal.rules == level and plan.posts == ()
    begin(deal)
    n = state.config.seats
    big = plan.seats[plan.blinds.big]
    if state.big is not None:
        assert not any(strictly_between(s, state.big, big, n) for s in dealable)
    assert set(plan.seats) <= dealable  # nobody without chips
    due = plan.seats[plan.blinds.small] if plan.blinds.small is not None else state.big
    if len(plan.seats) > 2:
        assert due is not None
        for seat in dealable - set(plan.seats):
            assert strictly_between(seat, plan.button_seat, due, n)  # waits for the button
            tally("waits for the button")
    if any(state.seats[s].sitting_out for s in plan.seats):
        tally("blinded off")
    events = decide_table(state, StartHand(level))
    (began,) = events
    assert getattr(began, "stakes", None) == Stakes.of(level)
    room.apply(table, events)
    assert room.tables[table].rules == level
    tally(f"{len(plan.seats)} dealt in")


def finish(data: st.DataObject, room: Room, table: int) -> None:
    """The hand ends with chips moved about; the tournament then rebuys or
    takes out some of the busted players, and leaves the rest for later."""
    state = room.tables[table]
    stacks = {n: state.seats[n].stack for n in state.hand_seats}
    seats = list(stacks)
    for _ in range(data.draw(st.integers(0, 4))):
        loser, winner = data.draw(st.sampled_from(seats)), data.draw(st.sampled_from(seats))
        amount = data.draw(
            st.sampled_from([stacks[loser], data.draw(st.integers(0, stacks[loser]))])
        )
        stacks[loser] -= amount
        stacks[winner] += amount
    timed_out = tuple(data.draw(st.lists(st.sampled_from(seats), max_size=2, unique=True)))
    events = decide_table(state, FinishHand(stacks, timed_out))
    room.apply(table, events)
    busted = getattr(events[0], "busted", ())
    assert set(busted) == {n for n, s in stacks.items() if s == 0}
    for seat in busted:
        settle(data, room, table, seat)


def settle(data: st.DataObject, room: Room, table: int, seat: int) -> None:
    """The tournament's word on a player without chips: rebuy, out, or later."""
    choice = data.draw(st.sampled_from(["rebuy", "out", "out", "later"]))
    if choice == "rebuy":
        room.apply(table, decide_table(room.tables[table], AddChips(seat, STACK)))
        tally("rebought")
    elif choice == "out":
        player = room.tables[table].seats[seat].player
        room.apply(table, decide_table(room.tables[table], Unseat(seat, UnseatReason.BUSTED)))
        assert room.where(player) is None  # busted players leave
        tally("busted out")


def random_command(data: st.DataObject, room: Room) -> tuple[int, TableCommand]:
    """A command for one table: mostly sensible, now and then anything."""
    table = data.draw(st.sampled_from(sorted(room.tables)))
    state = room.tables[table]
    taken = sorted(state.seats) or [1]
    wild = data.draw(st.integers(0, 5)) == 0
    seat = data.draw(st.integers(0, state.config.seats + 1) if wild else st.sampled_from(taken))
    kind = data.draw(st.sampled_from(["out", "in", "add", "dq", "seat", "unseat", "start"]))
    if kind == "out":
        return table, SitOut(seat)
    if kind == "in":
        return table, SitIn(seat, wild)
    if kind == "add":
        return table, AddChips(seat, data.draw(st.integers(-1 if wild else 1, STACK)))
    if kind == "dq":
        return table, Unseat(seat, UnseatReason.DISQUALIFIED)
    if kind == "seat":  # refused: a taken seat, somebody seated here, no stack
        here = [s.player for s in state.seats.values()]
        if here and not wild:
            return table, Seat(seat, data.draw(st.sampled_from(here)), STACK)
        return table, Seat(seat, "newcomer", -1)
    if kind == "unseat":  # moves are two tables' business: see ``move``
        reason = data.draw(st.sampled_from([UnseatReason.BUSTED, UnseatReason.CLOSED]))
        return table, Unseat(seat, reason)
    return table, StartHand(Rules(state.config.rules.game, Betting.FIXED_LIMIT, 2, 1))


def check_invariants(room: Room) -> None:
    on_tables = sum(t.chips for t in room.tables.values())
    assert on_tables == room.chips_in - room.chips_out
    for number, state in room.tables.items():
        assert replay_table(room.events[number]) == state
        assert state.version == len(room.events[number])
        assert all(s.stack >= 0 and not s.missed for s in state.seats.values())
        if state.hand_running:  # nobody without chips is dealt in
            assert all(state.seats[n].stack > 0 for n in state.hand_seats)
    players = [s.player for t in room.tables.values() for s in t.seats.values()]
    assert len(players) == len(set(players))  # nobody seated twice


def step(data: st.DataObject, room: Room) -> None:
    roll = data.draw(st.integers(0, 11))
    table = data.draw(st.sampled_from(sorted(room.tables)))
    state = room.tables[table]
    if roll < 2:
        enter(data, room)
    elif roll < 4:
        move(data, room)
    elif roll < 6 and not state.hand_running:
        start(data, room, table)
    elif roll < 8 and state.hand_running:
        finish(data, room, table)
    elif roll < 9:
        broke = [(n, s) for n, t in room.tables.items() for s, h in t.seats.items() if not h.stack]
        if broke:
            settle(data, room, *data.draw(st.sampled_from(broke)))
    else:
        number, command = random_command(data, room)
        before = room.tables[number]
        unchanged = copy.deepcopy(before)
        try:
            events = decide_table(before, command)
        except EngineError as refused:
            assert refused.code and room.tables[number] is before
        else:
            room.apply(number, events)
        assert before == unchanged  # deciding, refused or not, changed nothing of it


@pytest.mark.parametrize("game", list(Game))
@SETTINGS
@given(data=st.data())
def test_random_tournament_tables_keep_the_invariants(game: Game, data: st.DataObject) -> None:
    room = data.draw(rooms(game))
    for _ in range(data.draw(st.integers(4, 12))):
        enter(data, room)
    for _ in range(data.draw(st.integers(10, 90))):
        step(data, room)
        check_invariants(room)
