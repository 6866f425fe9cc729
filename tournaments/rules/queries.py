"""What the rules read off a tournament's state: players left, the pool and
its prizes, the windows, the clock, the tables as the seating rules see them.

Rules chosen where RULES.md 6 is silent:

- The pool is final once registration, rebuys and the add-on are all over;
  until then the prizes (and with them the bubble) are provisional.
- A guarantee is the least prize pool: the prizes split the players' pool
  or the guarantee, whichever is more, the house paying the difference
  (the overlay).
- The field a payout table is chosen by is the players placed: everyone who
  entered less the disqualified (re-entries add to the pool only).
- A satellite's paid places are its seats plus the place that takes the
  cash left over, if any; it awards at most one seat fewer than the field,
  so the cash always has a place to go.
"""

from __future__ import annotations

import heapq
from collections import Counter
from collections.abc import Callable, Hashable, Sequence
from itertools import groupby
from operator import itemgetter
from typing import Any

from tournaments.rules import clock
from tournaments.rules.clock import ClockPosition
from tournaments.rules.payouts import Prize, SatellitePrizes, regular_prizes, satellite_prizes
from tournaments.rules.placements import Bust, Standing, standings
from tournaments.rules.seating import TableView
from tournaments.rules.state import Entrant, Status, TournamentState


def alive(state: TournamentState) -> list[Entrant]:
    """The entrants still in, by player id."""
    return [e for _, e in sorted(state.entrants.items()) if e.alive]


def players_left(state: TournamentState) -> int:
    """How many are still in (a player out of chips who may rebuy counts)."""
    return state.tally.left


def broke(state: TournamentState) -> list[Entrant]:
    """Players still in, seated, with no chips (by player id): they may
    rebuy, or go out.  The tally has them: this runs several times a hand."""
    return [state.entrants[p] for p in sorted(state.tally.broke)]


def in_hand(state: TournamentState, player: str) -> bool:
    """The player is dealt in to a running hand."""
    return any(p.player == player for h in state.hands.values() for p in h.players)


def on_break(state: TournamentState) -> bool:
    """The clock is in a break."""
    return clock.timeline(state.definition.structure)[state.period].on_break


def level(state: TournamentState) -> int:
    """The level in force (during a break: the one just played)."""
    return clock.timeline(state.definition.structure)[state.period].level


def position(state: TournamentState, at: int) -> ClockPosition:
    """Where the clock stands at ``at`` (pauses and added time counted)."""
    running = state.clock.running(at)
    return clock.position(state.definition.structure, running, state.clock.extra)


def registration_open(state: TournamentState) -> bool:
    """Registering before the start, or late registration after it; never
    for a multi-flight event's Day 2 (its players come from the flights)."""
    flight = state.definition.flight
    if flight is not None and flight.day_two:
        return False
    if state.status is Status.REGISTERING:
        return True
    late = state.definition.late_registration_level
    structure = state.definition.structure
    return state.status is Status.RUNNING and clock.late_registration_open(
        structure, state.period, late
    )


def rebuys_open(state: TournamentState) -> bool:
    """The rebuy window is open."""
    rebuys = state.definition.rebuys
    return (
        rebuys is not None
        and state.status is Status.RUNNING
        and clock.rebuys_open(state.definition.structure, state.period, rebuys.until_level)
    )


def add_on_open(state: TournamentState) -> bool:
    """The add-on may be taken now."""
    rebuys = state.definition.rebuys
    return (
        rebuys is not None
        and rebuys.add_on
        and state.status is Status.RUNNING
        and clock.add_on_open(state.definition.structure, state.period, rebuys.until_level)
    )


def add_on_missed(state: TournamentState, entrant: Entrant) -> bool:
    """The add-on period is a level (no break after the rebuys) and the
    player has been dealt a hand in it: the add-on came before that hand."""
    rebuys = state.definition.rebuys
    return rebuys is not None and entrant.last_level > rebuys.until_level


def add_on_pending(state: TournamentState) -> bool:
    """Somebody still in may yet take the add-on."""
    return add_on_open(state) and any(
        not e.added_on and not add_on_missed(state, e) for e in state.entrants.values() if e.alive
    )


def pool_final(state: TournamentState) -> bool:
    """No more money can come in: registration, rebuys and add-on are over."""
    if state.status is not Status.RUNNING or registration_open(state):
        return False
    rebuys = state.definition.rebuys
    if rebuys is None:
        return True
    structure = state.definition.structure
    last = clock.add_on_period(structure, rebuys.until_level) if rebuys.add_on else None
    if rebuys_open(state):
        return False
    return last is None or state.period > last or not add_on_pending(state)


def field(state: TournamentState) -> int:
    """The players who get a place."""
    return state.tally.placed


def overlay(state: TournamentState) -> int:
    """What the house adds to the players' pool to make its guarantee (no
    more than it holds: nothing once it is given back on a cancellation)."""
    return min(state.held, max(0, state.definition.guarantee - state.pool))


def prize_pool(state: TournamentState) -> int:
    """The pool the prizes split: the players' pool and the overlay."""
    return state.pool + overlay(state)


def prizes(state: TournamentState) -> tuple[Prize, ...]:
    """The prize of each paid place, best first, for the pool as it stands."""
    definition = state.definition
    satellite = definition.satellite
    if satellite is None:
        return regular_prizes(prize_pool(state), field(state), definition.payouts)
    return _satellite(state).places()


def flight_mark(state: TournamentState) -> int | None:
    """A starting flight's mark: the players left at which it stops (None:
    not a starting flight)."""
    flight = state.definition.flight
    if flight is None or flight.day_two:
        return None
    return flight.rules.stop_at(state.entries)


def seats_awarded(state: TournamentState) -> int | None:
    """A satellite's tickets for the pool as it stands (None: not a satellite)."""
    return None if state.definition.satellite is None else _satellite(state).seats


def _satellite(state: TournamentState) -> SatellitePrizes:
    satellite = state.definition.satellite
    assert satellite is not None
    pool = prize_pool(state)
    consolation = [(c.target, c.value) for c in satellite.consolation]
    return satellite_prizes(
        pool, satellite.target_buy_in, satellite.seats, field(state), consolation
    )


def current_standings(state: TournamentState) -> tuple[Standing, ...]:
    """Places as they stand: the players still in by chips, then the busts."""
    busts: list[Bust] = []
    survivors: dict[str, int] = {}
    for e in state.entrants.values():
        if e.disqualified:
            continue
        if e.alive:
            survivors[e.player] = e.stack
        elif e.bust is not None:
            busts.append(e.bust)
    return standings(busts, survivors)


def leading_standings(state: TournamentState, limit: int) -> tuple[Standing, ...]:
    """The first ``limit`` of ``current_standings``, with the same places
    and ties, without ranking the whole field: a live frame shows the top
    of a field of hundreds after every hand.  Each player goes in as his
    sort key (a tuple, his id last), so that picking the top compares
    tuples in C rather than calling a key for each of hundreds."""
    survivors: list[tuple[int, str]] = []  # (-stack, player)
    busts: list[tuple[int, int, str]] = []  # (-group, -stack, player)
    for e in state.entrants.values():
        if e.disqualified:
            continue
        if e.alive:
            survivors.append((-e.stack, e.player))
        elif e.bust is not None:
            busts.append((-e.bust.group, -e.bust.stack, e.bust.player))
    out = _leading(survivors, itemgetter(0), 1, limit)
    if len(out) < limit:
        out += _leading(busts, itemgetter(0, 1), len(survivors) + 1, limit - len(out))
    return tuple(out)


def _leading(
    items: Sequence[tuple[Any, ...]], tie: Callable[[Any], Hashable], place: int, limit: int
) -> list[Standing]:
    """The first ``limit`` of ``items`` (each a player's sort key, his id
    last) as standings from ``place`` on, players equal by ``tie`` sharing
    their places (counted over all ``items``: a tie may run past the limit)."""
    top = heapq.nsmallest(limit, items)
    shown = {tie(i) for i in top}
    shared = Counter(key for key in map(tie, items) if key in shown)
    out: list[Standing] = []
    for key, tied in groupby(top, key=tie):
        out.extend(Standing(i[-1], place, shared[key]) for i in tied)
        place += shared[key]
    return out


def table_views(state: TournamentState) -> dict[int, TableView]:
    """The tables as the seating rules see them."""
    stuck = state.tally.broke
    return {
        n: TableView(
            t.seats,
            t.hand is not None,
            t.big_blind,
            frozenset(p for p in t.seats.values() if p in stuck) if stuck else stuck,
            t.over_blind,
            t.arrived,
        )
        for n, t in state.tables.items()
    }


def table_players_with_chips(state: TournamentState, table: int) -> list[tuple[int, str, int]]:
    """(seat, player, stack) of everyone at ``table`` with chips, by seat."""
    seats = state.tables[table].seats
    return [
        (seat, player, state.entrants[player].stack)
        for seat, player in sorted(seats.items())
        if state.entrants[player].stack > 0
    ]
