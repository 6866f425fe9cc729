"""Floor rules over whole random tournaments of 32 Card Draw played on
their tables (the tournament's rules and the table engines together,
``floor_support``), checked by hypothesis:

- the largest blind (the over blind with 4-5 dealt in, else the big blind)
  never falls on the same player two hands running, wherever he sits --
  except as the blinds move on in their order when his table drops below
  four players (his over blind is followed by the big blind, by then the
  largest: a mover due to post it takes it with him), in a player's first
  hand after a seat draw (the final table; a broken table's players at
  their new seats, TDA Rule 10, Breaking Tables: any position, the blinds
  included), in the next hand of those seated where a broken table's
  player was drawn only if the draw moved the blinds onto them (it brought
  in an over blind, or, with no other seat free, took a seat between the
  last big blind and the next), or when he was the only player with chips
  left to move;
- a player moved to balance the tables is the one his old table would
  have put on the largest blind next hand (or, when that one has just
  posted the over blind, the player after him), and (the last to arrive
  there) he takes a seat that pays it in his new table's next hand, if any
  empty seat there does.

- the first hand of a table formed by a draw (each table of the start,
  the final table) has the button on the drawn seat and live blinds, with
  everyone with chips dealt in.

Players out of chips decline, now or later: a rebuy brings a player back
where he sits, which is no move.
"""

from __future__ import annotations

import random
from dataclasses import replace
from itertools import pairwise

from hypothesis import HealthCheck, example, given, settings
from hypothesis import event as tally
from hypothesis import strategies as st

from poker.engine.rules import Game
from poker.engine.table import TableState, plan_hand
from poker.engine.table.ring import strictly_between
from tests.tournaments.floor_support import Floor, Posted
from tests.tournaments.support import T0, Run, definition, players, structure
from tournaments.rules import (
    DeclineRebuy,
    FinalTableDrawn,
    PlayerMoved,
    Rebuys,
    Start,
    Status,
    TableBroken,
    Tick,
    TournamentCommand,
    TournamentDefinition,
    TournamentEvent,
    can_start_hand,
)
from tournaments.rules import queries as q

SETTINGS = settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


def thirty_two(size: int, rebuys: bool) -> TournamentDefinition:
    return definition(
        game=Game.THIRTY_TWO_CARD_DRAW,
        structure=structure(8, 2),
        table_size=size,
        rebuys=Rebuys(2, 1000, 100, 2) if rebuys else None,
    )


def largest_payer(table: TableState, everyone: bool = False) -> str | None:
    """Who the table's next hand puts on the largest blind (None: no hand;
    with ``everyone``, also when not everyone with chips is dealt in -- a
    newcomer waits for the button to pass him -- which the tournament's
    picture of the table cannot tell)."""
    plan = plan_hand(table)
    if plan is None or (everyone and set(plan.seats) != table.dealable):
        return None
    index = plan.blinds.big if plan.blinds.over is None else plan.blinds.over
    return plan.players[index][0]


def balancing_moves(events: list[TournamentEvent]) -> list[PlayerMoved]:
    """The moves of a command that balanced tables (not breaking them or
    drawing the final table, nor seating again at his table a player moved
    there since its last hand)."""
    broken = {e.table for e in events if isinstance(e, TableBroken)}
    if any(isinstance(e, FinalTableDrawn) for e in events):
        return []
    return [
        e for e in events if isinstance(e, PlayerMoved) and e.from_table not in broken | {e.table}
    ]


def takes_it_next(table: TableState, player: str, seat: int) -> bool:
    """Seated at ``seat`` of ``table`` (instead of where he sits), ``player``
    would post the largest blind in its next hand."""
    here = table.seat_of(player)
    assert here is not None
    seats = {n: s for n, s in table.seats.items() if n != here}
    seats[seat] = table.seats[here]
    return largest_payer(replace(table, seats=seats), everyone=True) == player


def check_moves(floor: Floor, before: dict[int, TableState], events: list[TournamentEvent]) -> None:
    moves = balancing_moves(events)
    givers: set[int] = set()
    for number in {m.table for m in moves}:
        if sum(1 for m in moves if m.table == number) > 1:
            tally("two or more balancing moves to one table")
    for move in moves:
        old, new = before.get(move.from_table), floor.tables.get(move.table)
        if old is None or new is None:
            continue  # opened or broken by the same command
        due = largest_payer(old, everyone=True) if old.big is not None else None
        if move.from_table not in givers and due is not None:
            over = old.seats.get(old.over or 0)
            just_over = over is not None and over.player == due  # posts no over blind twice
            assert due == move.player or just_over  # his old seat was next
            tally("mover was due the largest blind")
        givers.add(move.from_table)
        if old.dealable == {move.from_seat}:
            floor.redrawn.add(move.player)  # the only one left to move
            tally("the only player with chips moved")
        last = [m for m in moves if m.table == move.table][-1] == move
        if not last or new.big is None or largest_payer(new, everyone=True) is None:
            continue  # not his table's next hand as the tournament sees it
        empty = set(range(1, new.config.seats + 1)) - set(new.seats)
        if any(takes_it_next(new, move.player, s) for s in empty | {move.seat}):
            assert takes_it_next(new, move.player, move.seat)  # the seat that pays it next
            tally("mover posts the largest blind next")


def check_squeezes(floor: Floor) -> None:
    """A broken table's player drawn between a table's last big blind and
    the next (ahead of those seated) had no other seat there."""
    for number, arc in floor.squeezed:
        table = floor.tables.get(number)
        if table is None:
            continue  # broken or drawn into the final table since
        empty = set(range(1, table.config.seats + 1)) - set(table.seats)
        assert all(strictly_between(s, *arc, table.config.seats) for s in empty)
        tally("no fair seat left")


def check_blinds(hands: dict[str, list[Posted]]) -> None:
    for player, posted in hands.items():
        for first, then in pairwise(posted):
            if not (first.largest and then.largest) or then.drawn:
                continue
            moving_on = (first.blind, then.blind) == ("over", "big")
            assert moving_on, f"{player} posted the largest blind twice: {first}, {then}"


def act(floor: Floor, command: TournamentCommand) -> None:
    """A tournament command at the tables, its moves checked."""
    events = floor.do(command)
    check_moves(floor, floor.before, events)
    check_squeezes(floor)


def play(floor: Floor, rng: random.Random) -> None:
    now = T0
    for _ in range(5_000):
        state = floor.run.state
        if state.status is not Status.RUNNING:
            return
        if rng.random() < 0.05:
            now += 60
            act(floor, Tick(now, rng.getrandbits(32)))
        for entrant in q.broke(floor.run.state):  # out now or later (a rebuy is no move)
            if floor.run.state.status is Status.RUNNING and rng.random() < 0.3:
                act(floor, DeclineRebuy(entrant.player, rng.getrandbits(32)))
        state = floor.run.state
        if state.status is not Status.RUNNING:
            return
        table = rng.choice(sorted(state.tables))
        if state.tables[table].hand is None:
            if can_start_hand(state, table):
                floor.deal(table)
            continue
        events = floor.finish(table, rng)
        check_moves(floor, floor.before, events)
        check_squeezes(floor)
    raise AssertionError("the tournament did not finish")


def check_fresh_tables(floor: Floor) -> None:
    """The first hand of a table formed by a draw (the start, the final
    table): the button on the drawn seat (or the first seat with chips from
    there, if its player has moved or lost his chips since), live blinds,
    everyone with chips dealt in."""
    size = floor.run.state.definition.seats_per_table
    for button, dealable, began in floor.fresh:
        assert button is not None  # drawn
        assert began.button == min(dealable, key=lambda s: (s - button) % size)
        assert not began.button_dead
        assert began.small is not None and set(began.dealt_in) == dealable
        tally("a table formed by a draw dealt")


@SETTINGS
@given(
    count=st.integers(6, 30),
    size=st.sampled_from([4, 5]),
    rebuys=st.booleans(),
    seed=st.integers(0, 2**32),
)
# Two balancing moves to one table, each once placed for the count it made:
# a player posted the over blind twice running.
@example(count=19, size=5, rebuys=False, seed=223949830)
@example(count=29, size=5, rebuys=False, seed=1064842235)
# A broken table's player brings in an over blind that falls on the player
# who posted the last one (TDA Rule 10 allows it): exempt.
@example(count=25, size=5, rebuys=False, seed=4166999024)
def test_blinds_follow_the_largest_blind_and_drawn_tables_start_afresh(
    count: int, size: int, rebuys: bool, seed: int
) -> None:
    run = Run(thirty_two(size, rebuys)).register(players(count))
    floor = Floor(run)
    floor.do(Start(T0, seed))
    play(floor, random.Random(seed))
    assert floor.run.state.status is Status.FINISHED
    check_blinds(floor.hands)
    check_fresh_tables(floor)


def test_two_balancing_moves_in_two_commands_do_not_hand_the_over_blind_back() -> None:
    """Table 3 (5-max) posts an over blind, then loses two players; tables
    1 and 2, each finishing its hand in turn, send it one player apiece.
    Placed one at a time, the first took the seat after the last big blind
    (three players: no over blind) and the second brought one in that fell
    on p05 again, who had just posted it.  Arrivals since a table's last
    hand are placed as if they arrived together."""
    run = Run(thirty_two(5, rebuys=False)).register(players(14))
    floor = Floor(run)
    floor.do(Start(T0, 4))
    for number in (1, 2, 3):
        floor.deal(number)
    three = floor.tables[3]
    first = floor.began[-1][1]
    assert (first.button, first.small, first.big, first.over) == (5, 1, 2, 4)
    assert three.seats[4].player == "p05" and 3 not in three.seats
    stacks = {seat: three.seats[seat].stack for seat in three.hand_seats}
    floor.end(3, {1: 0, 2: stacks[1] + stacks[2] + stacks[5], 4: stacks[4], 5: 0}, 1)
    moved = []
    for number in (1, 2):  # each finishes unchanged and gives table 3 a player
        table = floor.tables[number]
        events = floor.end(number, {s: table.seats[s].stack for s in table.hand_seats}, 1)
        moved += [
            (e.player, e.from_table, e.table, e.seat) for e in events if isinstance(e, PlayerMoved)
        ]
    # p14 came first to seat 3 (the big blind of three); with p03 they are
    # four: p14 goes to seat 1, p03 to seat 5, after p05's seat.
    assert moved == [("p14", 1, 3, 3), ("p14", 3, 3, 1), ("p03", 2, 3, 5)]
    second = floor.deal(3)
    assert (second.small, second.big, second.over) == (2, 4, 5)
    assert floor.tables[3].seats[5].player == "p03"
    check_blinds(floor.hands)
