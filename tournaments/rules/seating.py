"""Seats and tables: the random draw, balancing, breaking tables, the final
table and hand-for-hand, as pure functions over a picture of the tables.

Tables are numbered from 1, seats 1 to ``size`` clockwise.  Randomness comes
in through ``rng`` (anything with ``shuffle``); the tournament passes one
seeded from the command, so a decision is a function of its inputs.

Rules chosen (TDA where RULES.md 6 is silent; "predetermined procedure"
where the TDA leaves it to the house):

- The first draw uses the fewest tables, their sizes differing by at most
  one, players and seats in random order.
- Balancing (TDA: the player to be big blind next moves to the worst
  position, never the small blind): when the fullest table has two or more
  players more than the shortest, the fullest table between hands (the
  lowest-numbered of them) gives up the first player with chips clockwise
  after its last big blind; he takes, at the shortest table (the
  lowest-numbered), the first empty seat clockwise after its last big blind
  -- the seat the big blind reaches soonest.  A table that has not dealt a
  hand moves its lowest seat, and fills its lowest empty seat.
- Breaking: when the players fit at one table fewer, the highest-numbered
  table breaks (TDA: a predetermined order), once it is between hands;
  until then nobody moves.  Its players are drawn at random onto the
  tables with the fewest players, random empty seats (TDA 2-step random
  draw).
- Final table: when everybody fits at one table, every table between hands,
  all players are drawn at random to seats of the lowest-numbered table.
- Newcomers (late registration, re-entry) draw a random seat at a random
  table among those with the fewest players; with every table full a new
  table opens (the lowest free number) and balancing fills it.
"""

from __future__ import annotations

from collections.abc import Mapping, MutableSequence, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from poker.engine.table.ring import first_after


class Shuffler(Protocol):
    """A random source: ``random.Random`` seeded by the caller."""

    def shuffle(self, x: MutableSequence[Any], /) -> None:
        """Put ``x`` in random order, in place."""


@dataclass(frozen=True, slots=True)
class TableView:
    """One table as the seating rules see it."""

    seats: Mapping[int, str]
    """Seat number -> player."""
    busy: bool = False
    """A hand is running: nobody leaves the table now."""
    big_blind: int | None = None
    """The seat of the last hand's big blind (None: no hand yet)."""
    stuck: frozenset[str] = frozenset()
    """Players balancing must not pick (no chips: they may still rebuy)."""


@dataclass(frozen=True, slots=True)
class Move:
    """``player`` goes from ``from_table``/``from_seat`` to ``table``/``seat``."""

    player: str
    from_table: int
    from_seat: int
    table: int
    seat: int


Tables = Mapping[int, TableView]


class Seated(Protocol):
    """Anything with its players by seat (a view, or a table of the state)."""

    @property
    def seats(self) -> Mapping[int, str]:
        """Seat number -> player."""


def tables_needed(players: int, size: int) -> int:
    """The fewest tables of ``size`` that seat ``players``."""
    return -(-players // size)


def draw_seating(players: Sequence[str], size: int, rng: Shuffler) -> dict[int, dict[int, str]]:
    """The first draw: table -> seat -> player, tables 1..n with sizes
    differing by at most one."""
    count = tables_needed(len(players), size)
    order = list(players)
    rng.shuffle(order)
    layout: dict[int, dict[int, str]] = {}
    start = 0
    for table in range(1, count + 1):
        here = len(order) // count + (1 if table <= len(order) % count else 0)
        seats = list(range(1, size + 1))
        rng.shuffle(seats)
        layout[table] = dict(zip(sorted(seats[:here]), order[start : start + here], strict=True))
        start += here
    return layout


def next_big_blind(view: TableView, size: int) -> int | None:
    """The seat of the next player with chips to post the big blind."""
    movable = {s for s, p in view.seats.items() if p not in view.stuck}
    if not movable:
        return None
    if view.big_blind is None:
        return min(movable)
    return first_after(movable, view.big_blind, size)


def worst_seat(view: TableView, size: int) -> int | None:
    """The empty seat the big blind reaches first (None: the table is full)."""
    empty = set(range(1, size + 1)) - set(view.seats)
    if not empty:
        return None
    if view.big_blind is None:
        return min(empty)
    return first_after(empty, view.big_blind, size)


def balance_move(tables: Tables, size: int) -> Move | None:
    """One move toward tables within one player of each other, or None when
    they are, or when no table that could give a player is between hands."""
    if len(tables) < 2:
        return None
    counts = {n: len(t.seats) for n, t in tables.items()}
    short = min(counts.values())
    to_table = min(n for n, c in counts.items() if c == short)
    givers = [
        n
        for n, t in tables.items()
        if counts[n] >= short + 2 and not t.busy and next_big_blind(t, size) is not None
    ]
    if not givers:
        return None
    from_table = min(givers, key=lambda n: (-counts[n], n))
    from_seat = next_big_blind(tables[from_table], size)
    seat = worst_seat(tables[to_table], size)
    assert from_seat is not None and seat is not None
    return Move(tables[from_table].seats[from_seat], from_table, from_seat, to_table, seat)


def table_to_break(tables: Tables, size: int) -> int | None:
    """The table that breaks when the players fit at one table fewer: always
    the highest-numbered one (TDA: tables break in a predetermined order),
    busy or not -- the caller waits for its hand to end.  Breaking whichever
    table finishes first would let the pace of play choose who moves."""
    if len(tables) < 2:
        return None
    players = sum(len(t.seats) for t in tables.values())
    if players > (len(tables) - 1) * size:
        return None
    return max(tables)


def break_moves(tables: Tables, number: int, size: int, rng: Shuffler) -> tuple[Move, ...]:
    """Where the players of table ``number`` go: each in random order to a
    random table among those with the fewest players, a random empty seat."""
    leaving = [(seat, player) for seat, player in sorted(tables[number].seats.items())]
    rng.shuffle(leaving)
    free = {
        n: sorted(set(range(1, size + 1)) - set(t.seats)) for n, t in tables.items() if n != number
    }
    counts = {n: len(tables[n].seats) for n in free}
    moves: list[Move] = []
    for from_seat, player in leaving:
        fewest = min(c for n, c in counts.items() if free[n])
        choices = sorted(n for n, c in counts.items() if c == fewest and free[n])
        rng.shuffle(choices)
        table = choices[0]
        rng.shuffle(free[table])
        seat = free[table].pop()
        counts[table] += 1
        moves.append(Move(player, number, from_seat, table, seat))
    return tuple(moves)


def final_table_due(tables: Mapping[int, Seated], size: int) -> bool:
    """Everybody fits at one table and there is more than one."""
    return len(tables) > 1 and sum(len(t.seats) for t in tables.values()) <= size


def final_table_draw(tables: Tables, size: int, rng: Shuffler) -> tuple[int, dict[int, str]]:
    """The final table (the lowest-numbered) and its seats, drawn at random."""
    players = sorted(p for t in tables.values() for p in t.seats.values())
    rng.shuffle(players)
    seats = list(range(1, size + 1))
    rng.shuffle(seats)
    return min(tables), dict(zip(sorted(seats[: len(players)]), players, strict=True))


def seat_newcomer(tables: Tables, size: int, rng: Shuffler) -> tuple[int, int]:
    """(table, seat) for a late registrant or a re-entry."""
    open_tables = sorted(n for n, t in tables.items() if len(t.seats) < size)
    if not open_tables:
        table = next(n for n in range(1, len(tables) + 2) if n not in tables)
        seats = list(range(1, size + 1))
        rng.shuffle(seats)
        return table, seats[0]
    fewest = min(len(tables[n].seats) for n in open_tables)
    choices = [n for n in open_tables if len(tables[n].seats) == fewest]
    rng.shuffle(choices)
    free = sorted(set(range(1, size + 1)) - set(tables[choices[0]].seats))
    rng.shuffle(free)
    return choices[0], free[0]


def hand_for_hand(players_left: int, tables: int, paid_places: int, seats: int | None) -> bool:
    """Hand-for-hand play: with two or more tables, when the next bust
    decides who is paid (players left = paid places + 1) or, in a satellite
    with ``seats`` tickets, who gets the last seat (players left = seats + 1)."""
    if tables < 2:
        return False
    last_seat = seats is not None and seats >= 1 and players_left == seats + 1
    return players_left == paid_places + 1 or last_seat
