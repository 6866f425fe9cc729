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
  position, never the small blind; read as the *largest* blind, the over
  blind in 32 Card Draw when 4-5 are dealt in, RULES.md 1): when the
  fullest table has two or more players more than the shortest, the
  fullest table between hands (the lowest-numbered of them) gives up the
  player due to post the largest blind next hand (the first with chips
  after its last big blind, or with an over blind the one after him; but
  not the last over blind if he would post it again: the one after him); he
  takes, at the shortest table (the lowest-numbered), the first empty seat
  the largest blind reaches (clockwise after its last big blind, or with an
  over blind after its next big blind), so he posts it there next hand as
  he would have where he was, and nobody seated posts it twice running.  A
  table that has not dealt a hand moves its lowest seat, and fills its
  lowest empty seat.  All the moves due at once are placed together: the
  movers to one table take their seats for the number of players they make
  there together (one more may bring in an over blind), the last of them on
  that seat, the others on the empty seats after it (or, when the table is
  too full, those after the last big blind, and he on the next worst).
  Those moved to that table since its last hand (by an earlier command)
  are placed again with them, as if all arrived together (house rule:
  else two moves made apart could hand the over blind back): each keeps
  his seat if it is one of the first movers', else takes another of them.
- Breaking: when the players fit at k tables fewer, the k highest-numbered
  tables are due to break (TDA: a predetermined order).  Each breaks as
  soon as it is between hands, without waiting for the others (several in
  one go, the highest-numbered first); a table due to break deals no new
  hand, so it waits at most for the hand it is playing.  Balancing waits
  while a break is due (the break may make its moves needless).  The
  players of a breaking table are drawn at random onto the tables not due
  to break with the fewest players, random empty seats (TDA 2-step random
  draw; TDA Rule 10, Breaking Tables: they take any position, the blinds
  included, so a seat drawn may bring in an over blind that falls on the
  player who posted the last one: allowed, unlike a balance move); those
  tables seat everybody, since the players fit at k tables fewer.
- Final table: when everybody fits at one table, every table between hands,
  all players are drawn at random to seats of the lowest-numbered table.
- A table formed by a draw (each table of the first draw, the final table)
  gets its button by draw too (TDA), on a random player with chips, and
  starts afresh from there: the blinds live on the players after it.  (A
  table opened for a newcomer is new: its first hand starts from its
  lowest seat, itself a random draw.)
- Newcomers (late registration, re-entry) draw a random seat at a random
  table among those with the fewest players; with every table full a new
  table opens (the lowest free number) and balancing fills it.
- Random seats (newcomers, broken tables) keep off, while another seat is
  free, the seats between a table's last big blind and its next, where in
  a game with an over blind the newcomer would take the big blind and hand
  the over blind back to the player who just posted it (house rule: the
  TDA lets a random seat fall anywhere).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Mapping, MutableSequence, Sequence
from dataclasses import dataclass, replace
from typing import Any, Protocol

from poker.engine.table.ring import first_after, strictly_between


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
    over_blind: int | None = None
    """The seat of the last hand's over blind (None: none)."""
    arrived: tuple[str, ...] = ()
    """Players moved here since the last hand began, in the order they came."""


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


def _with_chips(view: TableView) -> set[int]:
    return {s for s, p in view.seats.items() if p not in view.stuck}


def _over(players: int, over_from: int | None) -> bool:
    """A hand with ``players`` dealt in has an over blind (32 Card Draw: 4-5)."""
    return over_from is not None and players >= over_from


def next_big_blind(view: TableView, size: int) -> int | None:
    """The seat of the next player with chips to post the big blind."""
    movable = _with_chips(view)
    if not movable:
        return None
    if view.big_blind is None:
        return min(movable)
    return first_after(movable, view.big_blind, size)


def next_largest_blind(
    view: TableView, size: int, over_from: int | None = None, over_there: bool = False
) -> int | None:
    """The seat of the player to move: the one due to post the largest
    blind next hand -- the next big blind, or with an over blind
    (``over_from`` players with chips or more) the player after him -- but
    never the last over blind when he would post one again where he goes
    (``over_there``): then the player after him."""
    big = next_big_blind(view, size)
    movable = _with_chips(view)
    if big is None or view.big_blind is None:
        return big
    due = first_after(movable, big, size) if _over(len(movable), over_from) else big
    if over_there and due == view.over_blind and due is not None:
        return first_after(movable, due, size)
    return due


def _before_largest(
    view: TableView, size: int, over_from: int | None, arriving: int = 1
) -> int | None:
    """The seat just before the arc whose seats post the largest blind next
    hand once ``arriving`` more players sit there: the last big blind's, or
    with an over blind the next big blind's (None: no hand yet)."""
    if view.big_blind is None:
        return None
    movable = _with_chips(view)
    if movable and _over(len(movable) + arriving, over_from):
        return first_after(movable, view.big_blind, size)
    return view.big_blind


def worst_seat(
    view: TableView, size: int, over_from: int | None = None, arriving: int = 1
) -> int | None:
    """The empty seat the largest blind reaches first once ``arriving``
    players sit down: a player moved there posts it in the table's next hand
    if any seat does (None: full)."""
    empty = set(range(1, size + 1)) - set(view.seats)
    if not empty:
        return None
    start = _before_largest(view, size, over_from, arriving)
    return min(empty) if start is None else first_after(empty, start, size)


def fair_seats(view: TableView, size: int, over_from: int | None) -> set[int]:
    """The empty seats where a newcomer makes nobody post the over blind
    twice running: not strictly between the last big blind and the next
    (sitting there he would take the big blind and hand the over blind back
    to the player who just posted it).  All empty seats where there is no
    over blind, no hand yet, or no other seat free."""
    empty = set(range(1, size + 1)) - set(view.seats)
    big = view.big_blind
    following = next_big_blind(view, size)
    if over_from is None or big is None or following is None:
        return empty
    fair = {s for s in empty if not strictly_between(s, big, following, size)}
    return fair or empty


def balance_moves(tables: Tables, size: int, over_from: int | None = None) -> tuple[Move, ...]:
    """The moves that bring the tables within one player of each other (as
    far as tables between hands can give players), all at once: placed one
    by one, each for the count it makes, a later move to the same table
    could bring in an over blind an earlier one did not expect and put a
    player on it twice running.  For the same reason the players moved to
    a receiving table since its last hand (``arrived``, by an earlier
    command) are placed again with its movers, as if all arrived together:
    first, those of them who must change seats (within the table).
    ``over_from``: the players dealt in from which the game posts an over
    blind (None: never)."""
    routes = _routes(tables)
    arriving = Counter(to for _, to in routes)
    moves: list[Move] = []
    seats: dict[int, Iterator[int]] = {}
    for to, k in arriving.items():
        reseated, free = _arrivals_again(tables[to], size, over_from, k)
        moves.extend(Move(p, to, old, to, new) for p, old, new in reseated)
        seats[to] = iter(free)
    for from_table, from_seat, to in _movers(tables, routes, size, over_from, arriving):
        player = tables[from_table].seats[from_seat]
        moves.append(Move(player, from_table, from_seat, to, next(seats[to])))
    return tuple(moves)


def _arrivals_again(
    view: TableView, size: int, over_from: int | None, k: int
) -> tuple[list[tuple[str, int, int]], list[int]]:
    """Seats for ``k`` movers to ``view`` placed together with those who
    arrived there since its last hand: (player, seat, new seat) of each
    earlier arrival who changes seats, and the movers' seats in the order
    they arrive.  The earlier arrivals take the seats of the first movers
    (any of them: they are alike), keeping theirs where it is one."""
    by_player = {p: s for s, p in view.seats.items()}
    earlier = [p for p in view.arrived if p in by_player]
    if not earlier:
        return [], _arrival_seats(view, size, over_from, k)
    staying = {s: p for s, p in view.seats.items() if p not in earlier}
    *others, last = _arrival_seats(replace(view, seats=staying), size, over_from, len(earlier) + k)
    kept = [p for p in earlier if by_player[p] in others]
    free = [s for s in others if s not in {by_player[p] for p in kept}]
    changing = [p for p in earlier if p not in kept]
    reseated = [(p, by_player[p], seat) for p, seat in zip(changing, free, strict=False)]
    return reseated, [*free[len(changing) :], last]


def _routes(tables: Tables) -> list[tuple[int, int]]:
    """(giving table, receiving table) of each balancing move in order, by
    the counts alone: the fullest table between hands with a player with
    chips (the lowest-numbered of them) gives to the shortest (the
    lowest-numbered), while it has two players or more than it.  Asked
    after every hand: the players with chips are counted only at the tables
    that could give, and only once."""
    counts = {n: len(t.seats) for n, t in tables.items()}
    movable: dict[int, int] = {}
    routes: list[tuple[int, int]] = []
    while len(tables) >= 2:
        short = min(counts.values())
        if max(counts.values()) < short + 2:
            return routes  # balanced: no table can give
        to = min(n for n, c in counts.items() if c == short)
        givers = []
        for n, t in tables.items():
            if counts[n] < short + 2 or t.busy:
                continue
            if n not in movable:
                movable[n] = len(_with_chips(t))
            if movable[n] > 0:
                givers.append(n)
        if not givers:
            return routes
        giver = min(givers, key=lambda n: (-counts[n], n))
        counts[giver], movable[giver], counts[to] = counts[giver] - 1, movable[giver] - 1, short + 1
        routes.append((giver, to))
    return routes


def _movers(
    tables: Tables,
    routes: list[tuple[int, int]],
    size: int,
    over_from: int | None,
    arriving: Mapping[int, int],
) -> list[tuple[int, int, int]]:
    """(table, seat, receiving table) of each route's mover: at each giving
    table in turn the player due the largest blind next hand among those
    left, told whether the receiving table will post an over blind with
    everybody arriving there (``next_largest_blind``)."""
    views = dict(tables)
    movers = []
    for giver, to in routes:
        over_there = _over(len(_with_chips(tables[to])) + arriving[to], over_from)
        seat = next_largest_blind(views[giver], size, over_from, over_there)
        assert seat is not None
        movers.append((giver, seat, to))
        left = {s: p for s, p in views[giver].seats.items() if s != seat}
        views[giver] = replace(views[giver], seats=left)
    return movers


def _arrival_seats(view: TableView, size: int, over_from: int | None, k: int) -> list[int]:
    """Seats for ``k`` movers arriving together, in the order they arrive:
    the others first, on the empty seats after the worst seat for the count
    they make together (wrapping round to the last big blind only when
    full), and the last mover on the worst seat once they sit there, so he
    posts the largest blind next hand and not one of them or those seated."""
    first = worst_seat(view, size, over_from, k)
    assert first is not None
    empty = set(range(1, size + 1)) - set(view.seats) - {first}
    others = sorted(empty, key=lambda s: (s - first) % size)[: k - 1]
    seated = replace(view, seats={**view.seats, **dict.fromkeys(others, _ARRIVING)})
    last = worst_seat(seated, size, over_from)
    assert last is not None
    return [*others, last]


_ARRIVING = "(arriving)"
"""Stands for a mover in a table's picture before his seat is final."""


def tables_to_break(tables: Mapping[int, Seated], size: int) -> tuple[int, ...]:
    """The tables due to break, highest-numbered first: when the players
    fit at k tables fewer, the k highest-numbered (TDA: tables break in a
    predetermined order), busy or not -- each breaks once its hand ends.
    Breaking whichever tables finish first would let the pace of play
    choose who moves."""
    if len(tables) < 2:
        return ()
    players = sum(len(t.seats) for t in tables.values())
    fewer = len(tables) - max(1, tables_needed(players, size))
    return tuple(sorted(tables, reverse=True)[:fewer])


def break_moves(
    tables: Tables, number: int, size: int, rng: Shuffler, over_from: int | None = None
) -> tuple[Move, ...]:
    """Where the players of table ``number`` go: each in random order to a
    random table among those with the fewest players, a random empty seat
    (a fair one first: ``fair_seats``).  ``tables``: the breaking table and
    those that stay (not another due to break: nobody moves twice)."""
    leaving = [(seat, player) for seat, player in sorted(tables[number].seats.items())]
    rng.shuffle(leaving)
    free = {n: _draw_order(t, size, rng, over_from) for n, t in tables.items() if n != number}
    counts = {n: len(tables[n].seats) for n in free}
    moves: list[Move] = []
    for from_seat, player in leaving:
        fewest = min(c for n, c in counts.items() if free[n])
        choices = sorted(n for n, c in counts.items() if c == fewest and free[n])
        rng.shuffle(choices)
        table = choices[0]
        seat = free[table].pop()
        counts[table] += 1
        moves.append(Move(player, number, from_seat, table, seat))
    return tuple(moves)


def _draw_order(view: TableView, size: int, rng: Shuffler, over_from: int | None) -> list[int]:
    """The empty seats of ``view`` to be taken from the end: the fair ones
    last (so first), each group in random order."""
    fair = sorted(fair_seats(view, size, over_from))
    rest = sorted(set(range(1, size + 1)) - set(view.seats) - set(fair))
    rng.shuffle(fair)
    rng.shuffle(rest)
    return rest + fair


def final_table_due(tables: Mapping[int, Seated], size: int) -> bool:
    """Everybody fits at one table and there is more than one (counted
    only until they do not: this is asked before every deal)."""
    if len(tables) < 2:
        return False
    players = 0
    for table in tables.values():
        players += len(table.seats)
        if players > size:
            return False
    return True


def final_table_draw(tables: Tables, size: int, rng: Shuffler) -> tuple[int, dict[int, str]]:
    """The final table (the lowest-numbered) and its seats, drawn at random."""
    players = sorted(p for t in tables.values() for p in t.seats.values())
    rng.shuffle(players)
    seats = list(range(1, size + 1))
    rng.shuffle(seats)
    return min(tables), dict(zip(sorted(seats[: len(players)]), players, strict=True))


def draw_button(seats: Mapping[int, str], stuck: frozenset[str], rng: Shuffler) -> int:
    """The button's seat at a table whose seats were just drawn (TDA: the
    button by draw): a random seat of a player with chips (any seat when
    nobody has chips)."""
    live = sorted(s for s, p in seats.items() if p not in stuck) or sorted(seats)
    rng.shuffle(live)
    return live[0]


def seat_newcomer(
    tables: Tables, size: int, rng: Shuffler, over_from: int | None = None, top_table: int = 0
) -> tuple[int, int]:
    """(table, seat) for a late registrant or a re-entry (a fair seat:
    ``fair_seats``).  With every table full he opens a new one, numbered
    after the highest number used so far (``top_table``, or any table
    still in play): a broken table's number is never used again, its
    table being closed for good."""
    open_tables = sorted(n for n, t in tables.items() if len(t.seats) < size)
    if not open_tables:
        table = max([top_table, *tables]) + 1
        seats = list(range(1, size + 1))
        rng.shuffle(seats)
        return table, seats[0]
    fewest = min(len(tables[n].seats) for n in open_tables)
    choices = [n for n in open_tables if len(tables[n].seats) == fewest]
    rng.shuffle(choices)
    free = sorted(fair_seats(tables[choices[0]], size, over_from))
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
