"""Invariants of the tournament rules, checked by hypothesis.

Seating: after any busts, breaking and balancing leave the fewest tables,
within one player of each other, nobody seated twice or lost.  Payouts:
every split gives away the whole pool.  Placements: a permutation of the
players, ties sharing places.  Whole tournaments under random commands
(hands with random results, ticks, rebuys, add-ons, late entries and
re-entries, disqualifications, clock controls, refusals): after every step
chips are conserved, every player still in sits in exactly one seat,
tables between hands are balanced, a refused command changes nothing, the
fold of the events is the state and every event survives JSON, and the
shortcuts a big field needs agree with the rules asked the long way (the
tables to deal, the top of the standings); a finished tournament places
every player and pays exactly its pool.
"""

from __future__ import annotations

import copy
import random
from collections import Counter
from dataclasses import replace

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.tournaments.support import T0, Run, definition, players, random_finish, structure
from tournaments.rules import (
    AddedOn,
    AddOn,
    AddTime,
    AwardPrizes,
    Break,
    Bust,
    DeclineRebuy,
    Disqualified,
    Disqualify,
    Pause,
    PlayerMoved,
    Prize,
    PrizesAwarded,
    Rebought,
    Rebuy,
    Rebuys,
    RebuyTimeout,
    Register,
    Resume,
    Satellite,
    Seated,
    StartHand,
    Status,
    TableBroken,
    Tick,
    TournamentCommand,
    TournamentDefinition,
    TournamentError,
    TournamentEvent,
    TournamentState,
    award,
    decide,
    evolve,
    payout_shares,
    replay,
    satellite_prizes,
    split,
    standings,
    tables_to_deal,
    tournament_event_from_json,
    tournament_event_to_json,
)
from tournaments.rules import queries as q
from tournaments.rules.payouts import BASIS, regular_prizes
from tournaments.rules.play import can_start_hand
from tournaments.rules.seating import (
    Move,
    TableView,
    balance_moves,
    break_moves,
    draw_seating,
    final_table_draw,
    final_table_due,
    tables_needed,
    tables_to_break,
)

SETTINGS = settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)

Layout = dict[int, dict[int, str]]


def _apply(layout: Layout, move: Move) -> None:
    del layout[move.from_table][move.from_seat]
    assert move.seat not in layout[move.table]
    layout[move.table][move.seat] = move.player


def _settle(layout: Layout, size: int, rng: random.Random) -> None:
    """Final table, breaking and balancing until nothing is left to do."""
    while True:
        views = {n: TableView(seats) for n, seats in layout.items()}
        if final_table_due(views, size):
            number, seats = final_table_draw(views, size, rng)
            layout.clear()
            layout[number] = seats
            continue
        due = tables_to_break(views, size)
        if due:
            breaking = rng.choice(due)  # any order (as hands end): the others stay due
            staying = {n: v for n, v in views.items() if n == breaking or n not in due}
            for move in break_moves(staying, breaking, size, rng):
                _apply(layout, move)
            assert not layout[breaking]
            del layout[breaking]
            continue
        moves = balance_moves(views, size)
        if not moves:
            return
        for move in moves:
            _apply(layout, move)


def _bust(layout: Layout, left: set[str], gone: str) -> None:
    left.remove(gone)
    table = next(n for n, seats in layout.items() if gone in seats.values())
    seat = next(s for s, p in layout[table].items() if p == gone)
    del layout[table][seat]
    if not layout[table]:
        del layout[table]


@SETTINGS
@given(
    count=st.integers(1, 80),
    size=st.integers(3, 9),
    seed=st.integers(0, 2**32),
    busts=st.lists(st.lists(st.integers(0, 10**6), min_size=1, max_size=20), max_size=40),
)
def test_tables_stay_balanced_and_nobody_is_lost_as_players_bust(
    count: int, size: int, seed: int, busts: list[list[int]]
) -> None:
    """Several players bust at once, so several tables may break at once."""
    rng = random.Random(seed)
    names = [f"p{i}" for i in range(count)]
    layout = draw_seating(names, size, rng)
    left = set(names)
    for picks in [[], *busts]:
        for pick in picks:
            if len(left) > 1:
                _bust(layout, left, sorted(left)[pick % len(left)])
        _settle(layout, size, rng)
        seated = [p for seats in layout.values() for p in seats.values()]
        assert sorted(seated) == sorted(left)
        assert all(1 <= s <= size for seats in layout.values() for s in seats)
        counts = [len(seats) for seats in layout.values()]
        assert max(counts) - min(counts) <= 1
        assert len(layout) == tables_needed(len(left), size)


@SETTINGS
@given(pool=st.integers(0, 10**12), shares=st.lists(st.integers(1, 10**4), min_size=1))
def test_a_split_always_gives_away_exactly_the_pool(pool: int, shares: list[int]) -> None:
    ordered = tuple(sorted(shares, reverse=True))
    parts = split(pool, ordered)
    assert sum(parts) == pool
    assert list(parts) == sorted(parts, reverse=True)


@SETTINGS
@given(entrants=st.integers(2, 20_000), pool=st.integers(0, 10**9))
def test_default_payouts_add_up_for_every_field(entrants: int, pool: int) -> None:
    shares = payout_shares(entrants)
    assert sum(shares) == BASIS and 1 <= len(shares) < entrants
    assert list(shares) == sorted(shares, reverse=True)
    assert sum(p.cash for p in regular_prizes(pool, entrants)) == pool


@SETTINGS
@given(
    pool=st.integers(0, 10**7),
    value=st.integers(1, 10**5),
    cap=st.none() | st.integers(1, 50),
    field=st.integers(1, 500),
)
def test_satellite_seats_and_cash_add_up_to_the_pool(
    pool: int, value: int, cap: int | None, field: int
) -> None:
    prizes = satellite_prizes(pool, value, cap, field)
    assert prizes.seats * value + prizes.cash == pool
    assert prizes.seats < field or prizes.seats == 0
    assert len(prizes.places()) <= field


@st.composite
def finishes(draw: st.DrawFn) -> tuple[list[Bust], dict[str, int]]:
    count = draw(st.integers(1, 30))
    names = [f"p{i}" for i in range(count)]
    survivors = draw(st.integers(1, count))
    busts = [
        Bust(name, draw(st.integers(1, 6)), draw(st.integers(1, 5))) for name in names[survivors:]
    ]
    return busts, {name: draw(st.integers(0, 5)) for name in names[:survivors]}


@SETTINGS
@given(finish=finishes(), pool=st.integers(0, 10**6), seats=st.booleans())
def test_placements_are_a_permutation_and_prizes_pay_the_pool(
    finish: tuple[list[Bust], dict[str, int]], pool: int, seats: bool
) -> None:
    busts, survivors = finish
    places = standings(busts, survivors)
    everyone = [b.player for b in busts] + list(survivors)
    assert sorted(s.player for s in places) == sorted(everyone)
    by_place = Counter(s.place for s in places)
    for s in places:
        assert by_place[s.place] == s.shared
    assert sorted({s.place for s in places}) == sorted(
        {1 + sum(1 for t in places if t.place < s.place) for s in places}
    )
    if seats:
        sat = satellite_prizes(pool, 100, None, len(everyone))
        prizes: tuple[Prize, ...] = sat.places()
    else:
        prizes = regular_prizes(pool, len(everyone))
    paid = award(places, prizes, seat_value=100)
    assert sum(a.cash + (100 if a.ticket else 0) for a in paid) == pool


# --------------------------------------------------------------------------
# Whole tournaments under random commands


@st.composite
def tournament_definitions(draw: st.DrawFn) -> TournamentDefinition:
    late = draw(st.sampled_from([None, 1, 2]))
    return definition(
        structure=structure(5, 1, (Break(2, 1),)),
        table_size=draw(st.integers(3, 6)),
        late_registration_level=late,
        re_entries=draw(st.sampled_from([0, 1, None])) if late else 0,
        rebuys=draw(
            st.sampled_from(
                [
                    None,
                    Rebuys(2, 1000, 100, 2, None, 500, 50),
                    Rebuys(1, 500, 100),
                    Rebuys(1, 500, 100, None, None, 300, 30),  # no break after the rebuys
                ]
            )
        ),
        satellite=draw(st.sampled_from([None, Satellite("main", 300), Satellite("main", 250, 2)])),
    )


class Driver:
    """Turns random numbers into commands, some of them refused."""

    def __init__(self, run: Run) -> None:
        self.run = run
        self.now = T0

    def command(self, kind: int, rng: random.Random) -> TournamentCommand:
        state = self.run.state
        names = [*sorted(state.entrants), "late1", "late2"]
        player = rng.choice(names)
        if kind <= 5 and state.tables:
            table = rng.choice(sorted(state.tables))
            if state.tables[table].hand is None:
                return StartHand(table)
            return replace(random_finish(state, table, rng), at=self.now)
        if kind <= 6:
            self.now += rng.randint(0, 90)
            return Tick(self.now, rng.getrandbits(32))
        if kind == 7:
            return Rebuy(player)
        if kind == 8:
            if rng.random() < 0.3:  # a rebuy clock's timer, due or not
                return RebuyTimeout(player, self.now + rng.randint(0, 90), rng.getrandbits(8))
            return AddOn(player) if rng.random() < 0.5 else DeclineRebuy(player, rng.getrandbits(8))
        if kind == 9:
            return Register(player, self.now, rng.getrandbits(32))
        if kind == 10 and rng.random() < 0.2:
            return Disqualify(player, rng.getrandbits(32))
        clocks: list[TournamentCommand] = [Pause(self.now), Resume(self.now), AddTime(30)]
        return rng.choice(clocks)


def play_out(driver: Driver, rng: random.Random) -> None:
    """Play on to the end with nothing but progress: the clock runs, players
    out of chips decline, every table that may deal does, hands bust someone."""
    run = driver.run
    for _ in range(2_000):
        state = run.state
        if state.status is not Status.RUNNING:
            return
        if state.clock.since is None:
            run.do(Resume(driver.now))
        driver.now += 60
        run.do(Tick(driver.now, rng.getrandbits(32)))
        for entrant in q.broke(run.state):
            if run.state.status is Status.RUNNING:
                run.do(DeclineRebuy(entrant.player, rng.getrandbits(32)))
        for table in sorted(run.state.tables):
            if run.state.status is Status.RUNNING and can_start_hand(run.state, table):
                run.do(StartHand(table))
        for table in sorted(run.state.tables):
            tables = run.state.tables
            if run.state.status is Status.RUNNING and table in tables and tables[table].hand:
                run.do(random_finish(run.state, table, rng))
                check(run)
    raise AssertionError("the tournament did not finish")


def chips_in_play(run: Run) -> int:
    """Chips that entered play less those removed, from the events."""
    total = 0
    for e in run.events:
        if isinstance(e, Seated):
            total += e.stack
        elif isinstance(e, Rebought | AddedOn):
            total += e.chips
        elif isinstance(e, Disqualified):
            total -= e.chips
    return total


def check(run: Run) -> None:
    state = run.state
    size = state.definition.seats_per_table
    assert sum(e.stack for e in state.entrants.values()) == chips_in_play(run)
    seen = []
    for number, table in state.tables.items():
        assert table.hand is None or state.hands[table.hand].table == number
        for seat, player in table.seats.items():
            entrant = state.entrants[player]
            assert 1 <= seat <= size and entrant.alive
            assert (entrant.table, entrant.seat) == (number, seat)
            seen.append(player)
    assert len(seen) == len(set(seen))
    if state.status is Status.RUNNING:
        assert sorted(seen) == sorted(e.player for e in q.alive(state))
        if not state.hands and not q.broke(state):
            counts = [len(t.seats) for t in state.tables.values()]
            assert max(counts, default=0) - min(counts, default=0) <= 1
            assert len(counts) == tables_needed(q.players_left(state), size)
    assert tables_to_deal(state) == [n for n in sorted(state.tables) if can_start_hand(state, n)]
    ranked = q.current_standings(state)
    for limit in (1, 4, 10):
        assert q.leading_standings(state, limit) == ranked[:limit]
    check_tally(state)


def check_tally(state: TournamentState) -> None:
    """The counts ``evolve`` keeps agree with the entrants counted afresh."""
    entrants = state.entrants.values()
    assert state.tally.left == sum(e.alive for e in entrants)
    assert state.tally.placed == sum(not e.disqualified for e in entrants)
    broke = {e.player for e in entrants if e.alive and e.table is not None and e.stack == 0}
    assert state.tally.broke == broke
    assert state.tally.chips == sum(e.stack for e in entrants if e.alive)


@SETTINGS
@given(count=st.integers(10, 60), size=st.integers(3, 4), seed=st.integers(0, 2**32))
def test_a_big_field_breaks_several_tables_as_their_hands_end(
    count: int, size: int, seed: int
) -> None:
    """Many small tables, every one dealing, hands ending in random order:
    several tables fall due to break at once, some in a hand and some not."""
    run = Run(definition(table_size=size)).register(players(count)).start(seed=seed)
    rng = random.Random(seed)
    for _ in range(3_000):
        if run.state.status is not Status.RUNNING:
            return
        for table in tables_to_deal(run.state):
            if can_start_hand(run.state, table):  # hand-for-hand: one at a time
                run.do(StartHand(table))
        assert run.state.hands, "no table deals: play is stuck"
        table = run.state.hands[rng.choice(sorted(run.state.hands))].table
        before = run.state
        check_breaks(before, run.do(random_finish(before, table, rng)))
        check(run)
    raise AssertionError("the tournament did not finish")


def check_add_ons(before: TournamentState, events: list[TournamentEvent]) -> None:
    """The add-on only once the rebuys have closed, and never a rebuy after it."""
    for event in events:
        if isinstance(event, AddedOn):
            assert not q.rebuys_open(before)
        if isinstance(event, Rebought):
            assert not before.entrants[event.player].added_on


def check_breaks(before: TournamentState, events: list[TournamentEvent]) -> None:
    """A table broken with players at it was due to break (one of the k
    highest-numbered when the players fit at k tables fewer), and its
    players went to tables not due; afterwards every table due to break is
    in a hand (it broke as soon as it was between hands), unless
    hand-for-hand or the final table holds every move."""
    size = before.definition.seats_per_table
    state = before
    for event in events:
        if isinstance(event, TableBroken) and state.tables[event.table].seats == {}:
            due = tables_to_break(state.tables, size)
            moved = [e for e in events if isinstance(e, PlayerMoved)]
            leaving = [m for m in moved if m.from_table == event.table]
            assert not leaving or event.table in due
            assert all(m.table not in due for m in leaving)
        state = evolve(state, event)
    held = state.hand_for_hand or final_table_due(state.tables, size)
    if state.status is Status.RUNNING and not held:
        assert all(state.tables[n].hand for n in tables_to_break(state.tables, size))


@settings(
    max_examples=50,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(
    d=tournament_definitions(),
    count=st.integers(2, 24),
    seed=st.integers(0, 2**32),
    length=st.integers(0, 600),
)
def test_random_tournaments_keep_every_invariant(
    d: TournamentDefinition, count: int, seed: int, length: int
) -> None:
    run = Run(d).register(players(count)).start(seed=seed)
    driver = Driver(run)
    rng = random.Random(seed)
    check(run)
    for _ in range(length):
        if run.state.status is not Status.RUNNING:
            break
        command = driver.command(rng.randint(0, 10), random.Random(rng.getrandbits(32)))
        before = copy.deepcopy(run.state)
        try:
            events = decide(run.state, command)
        except TournamentError:
            assert run.state == before  # a refused command changes nothing
            continue
        assert run.state == before
        for event in events:
            run.state = evolve(run.state, event)
            assert tournament_event_from_json(tournament_event_to_json(event)) == event
        run.events.extend(events)
        check(run)
        check_breaks(before, events)
        check_add_ons(before, events)
    play_out(driver, rng)
    assert replay(run.events) == run.state
    assert run.state.status is Status.FINISHED
    if run.state.status is Status.FINISHED:
        placed = sorted(p for p, e in run.state.entrants.items() if not e.disqualified)
        assert sorted(s.player for s in run.state.standings) == placed
        (paid,) = decide(run.state, AwardPrizes())
        assert isinstance(paid, PrizesAwarded)
        value = d.satellite.target_buy_in if d.satellite else 0
        assert sum(a.cash + (value if a.ticket else 0) for a in paid.awards) == run.state.pool
