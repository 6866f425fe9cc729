"""Multi-flight events as a stream (docs/rules.md 6): a starting flight
stops at the end of the hand that takes it to its mark, everyone left
bagging his stack, and pays no prizes; Day 2 takes no entries, takes each
flight in, goes through with one bag a player, is seated by the draw
balanced by stacks and resumes the clock at the level the flights stopped
at; chips are conserved across the event."""

from __future__ import annotations

import random

from tests.tournaments.support import T0, Run, definition, of_type, players, random_finish, refusal
from tournaments.rules import (
    AwardPrizes,
    Bag,
    Cancel,
    Carry,
    CarryFlight,
    DayTwoReady,
    Finished,
    FinishHand,
    Flight,
    FlightCarried,
    FlightRules,
    FlightStopped,
    HandForHandStarted,
    OpenRegistration,
    Register,
    Seated,
    Start,
    StartHand,
    Status,
    TournamentDefinition,
    Unregister,
    replay,
)
from tournaments.rules import queries as q
from tournaments.rules.errors import InvalidDefinition, TournamentErrorCode
from tournaments.rules.play import tables_to_deal

RULES = FlightRules(advance_percent=25)


def flight(number: int, flights: int = 2, rules: FlightRules = RULES, **more: object):
    return definition(flight=Flight(rules, flights, number), **more)  # type: ignore[arg-type]


def test_a_flight_stops_at_the_end_of_the_hand_that_takes_it_to_its_mark() -> None:
    run = Run(flight(1)).register(players(6)).start()  # 6 entries: the mark is 2
    assert q.flight_mark(run.state) == 2
    table = run.table_of("p01")
    mates = sorted(run.state.tables[table].seats.values())
    run.bust(mates[0], mates[1])
    run.bust(mates[2], mates[1])
    run.bust(mates[3], mates[1])
    assert run.state.status is Status.RUNNING  # 3 left
    events = run.bust(mates[4], mates[5])
    stopped = of_type(events, FlightStopped)
    assert len(stopped) == 1 and run.state.status is Status.FINISHED
    bags = {b.player: b.stack for b in stopped[0].bags}
    assert bags == {p: run.state.entrants[p].stack for p in (mates[1], mates[5])}
    assert sum(bags.values()) == 6 * 1000  # every chip is in a bag
    assert stopped[0].level == 1 and not of_type(events, Finished)
    assert run.state.awards == ()  # no prizes: the pool goes to Day 2


def test_every_player_busted_in_the_stopping_hand_is_out() -> None:
    run = Run(flight(1)).register(players(6)).start()
    mates = sorted(run.state.tables[1].seats.values())
    for loser in mates[:3]:
        run.bust(loser, mates[5])
    hand = {mates[3]: -1000, mates[4]: -1000, mates[5]: 2000}  # 3 left, two bust at once
    events = run.hand(1, hand)
    (stopped,) = of_type(events, FlightStopped)
    assert [b.player for b in stopped.bags] == [mates[5]]  # below the mark of 2


def test_a_flight_does_not_stop_while_its_late_registration_is_open() -> None:
    run = Run(flight(1, late_registration_level=2)).register(players(4)).start()
    mates = sorted(run.state.tables[1].seats.values())
    run.bust(mates[0], mates[3])
    run.bust(mates[1], mates[3])
    assert run.state.status is Status.RUNNING and q.registration_open(run.state)


def test_a_flight_of_two_tables_goes_hand_for_hand_one_bust_from_its_mark() -> None:
    run = Run(flight(1, rules=FlightRules(50))).register(players(12)).start()  # mark 6
    while run.state.tally.left > 7:
        table = max(run.state.tables, key=lambda n: len(run.state.tables[n].seats))
        mates = sorted(run.state.tables[table].seats.values())
        run.bust(mates[0], mates[1])
    assert run.state.hand_for_hand and len(run.state.tables) == 2
    assert of_type(run.events, HandForHandStarted)
    for table in tables_to_deal(run.state):  # one hand a table, each busting one
        run.do(StartHand(table))
    first, second = sorted(run.state.tables)
    for table in (first, second):
        mates = sorted(run.state.tables[table].seats.values())
        hand = {mates[0]: -run.state.entrants[mates[0]].stack}
        hand[mates[1]] = -hand[mates[0]]
        stacks = {p.player: p.stack for p in run.state.hands[run.state.tables[table].hand].players}
        for p, gain in hand.items():
            stacks[p] += gain
        events = run.do(FinishHand(table, stacks, 0))
        if table == first:
            assert run.state.status is Status.RUNNING  # the other table's hand runs still
    assert of_type(events, FlightStopped) and len(run.state.bags) == 5
    assert sum(b.stack for b in run.state.bags) == 12 * 1000


def test_a_flight_has_no_bounty_satellite_or_guarantee_and_day_two_no_entries() -> None:
    for bad in ({"guarantee": 1000}, {"sit_and_go": True, "max_players": 6}):
        try:
            flight(1, **bad)
        except InvalidDefinition as error:
            assert error.field == "flight"
        else:
            raise AssertionError(bad)
    try:
        flight(0, late_registration_level=2)
    except InvalidDefinition as error:
        assert error.field == "flight"
    else:
        raise AssertionError("Day 2 with late registration")


# --------------------------------------------------------------------------
# Day 2


def day_two(rules: FlightRules = RULES, flights: int = 2, **more: object) -> Run:
    return Run(flight(0, flights, rules, **more), "Day 2")


def carry(run: Run, n: int, bags: dict[str, int], level: int, pool: int, at: int = T0 - 600):
    made = tuple(Bag(p, n, s) for p, s in sorted(bags.items()))
    return run.do(CarryFlight(n, str(100 + n), pool, level if bags else 0, made, at, n))


def test_day_two_takes_no_entries() -> None:
    run = day_two()
    assert refusal(run, OpenRegistration()) == TournamentErrorCode.ILLEGAL_ACTION
    assert refusal(run, Register("p01", T0, 1)) == TournamentErrorCode.REGISTRATION_CLOSED
    carry(run, 1, {"p01": 3000, "p02": 1000}, 3, 400)
    carry(run, 2, {"p03": 2000}, 4, 400)
    assert run.state.status is Status.REGISTERING  # ready, waiting for its start
    assert refusal(run, Register("p09", T0, 1)) == TournamentErrorCode.REGISTRATION_CLOSED
    assert refusal(run, Unregister("p01")) == TournamentErrorCode.ILLEGAL_ACTION


def test_day_two_starts_only_once_every_flight_is_carried() -> None:
    run = day_two(flights=3)
    carry(run, 1, {"p01": 3000, "p02": 1000}, 3, 400)
    assert refusal(run, Start(T0, 1)) == TournamentErrorCode.ILLEGAL_ACTION
    carry(run, 2, {"p03": 2000}, 4, 400)
    assert refusal(run, Start(T0, 1)) == TournamentErrorCode.ILLEGAL_ACTION
    assert (
        refusal(run, CarryFlight(2, "102", 0, 0, (), T0, 1)) == TournamentErrorCode.ILLEGAL_ACTION
    )
    events = carry(run, 3, {"p04": 1500, "p05": 500}, 3, 400)
    assert of_type(events, DayTwoReady) and not of_type(events, Seated)
    run.start()
    assert run.state.status is Status.RUNNING


def test_the_best_bag_goes_through_and_the_other_is_forfeited() -> None:
    run = day_two()
    carry(run, 1, {"p01": 5000, "p02": 1000}, 3, 400)
    (ready,) = of_type(carry(run, 2, {"p01": 2000, "p03": 2000}, 4, 400), DayTwoReady)
    assert ready.stacks == (Bag("p01", 1, 5000), Bag("p02", 1, 1000), Bag("p03", 2, 2000))
    assert ready.forfeited == (Bag("p01", 2, 2000),) and ready.level == 4
    assert run.state.pool == 800


def test_with_latest_the_bag_of_his_latest_flight_goes_through() -> None:
    run = day_two(FlightRules(25, carry=Carry.LATEST))
    carry(run, 1, {"p01": 5000, "p02": 1000}, 3, 400)
    (ready,) = of_type(carry(run, 2, {"p01": 2000, "p03": 2000}, 4, 400), DayTwoReady)
    assert Bag("p01", 2, 2000) in ready.stacks and ready.forfeited == (Bag("p01", 1, 5000),)


def test_day_two_is_drawn_by_stacks_with_the_carried_chips_at_the_level_reached() -> None:
    run = day_two(table_size=6)
    first = {f"a{n:02}": 1000 * n for n in range(1, 8)}
    second = {f"b{n:02}": 500 * n for n in range(1, 7)}
    carry(run, 1, first, 3, 700)
    carry(run, 2, second, 5, 600)
    run.start(at=T0 + 5)
    seated = of_type(run.events, Seated)
    assert {s.player: s.stack for s in seated} == {**first, **second}
    assert len(run.state.tables) == 3  # 13 players, tables of 6
    sizes = sorted(len(t.seats) for t in run.state.tables.values())
    assert sizes == [4, 4, 5]
    top = sorted({**first, **second}.items(), key=lambda kv: -kv[1])[:3]
    assert len({run.state.entrants[p].table for p, _ in top}) == 3  # one big stack a table
    assert q.level(run.state) == 5 and q.position(run.state, T0 + 5).level == 5
    minutes = run.state.definition.structure.level(5).minutes
    assert q.position(run.state, T0 + 5 + minutes * 60).level == 6  # a whole level 5
    assert run.state.tally.chips == sum(first.values()) + sum(second.values())


def test_day_two_starts_at_once_when_the_last_flight_stops_after_its_start() -> None:
    run = day_two()
    carry(run, 1, {"p01": 3000, "p02": 1000}, 3, 400, at=T0 + 30)
    events = carry(run, 2, {"p03": 2000}, 4, 400, at=T0 + 60)
    assert of_type(events, Seated) and run.state.started_at == T0 + 60


def test_a_flight_called_off_is_carried_with_nothing() -> None:
    run = day_two()
    carry(run, 1, {}, 0, 0)
    (ready,) = of_type(carry(run, 2, {"p01": 3000, "p02": 500}, 2, 400), DayTwoReady)
    assert ready.level == 2 and len(ready.stacks) == 2 and run.state.pool == 400


def test_day_two_holding_a_pool_is_not_called_off() -> None:
    run = day_two()
    assert refusal(run, Cancel("no")) == TournamentErrorCode.ILLEGAL_ACTION  # flights to come
    assert refusal(run, CarryFlight(3, "103", 0, 0, (), T0, 1)) == TournamentErrorCode.MALFORMED
    carry(run, 1, {"p01": 3000}, 3, 400)
    assert refusal(run, Cancel("no")) == TournamentErrorCode.ILLEGAL_ACTION


def test_a_whole_event_conserves_chips_and_pays_the_sum_of_the_pools() -> None:
    """Two flights (one player in both), then Day 2 to the end: entries +
    rebuys + add-ons across the flights = Day 2's chips + forfeited, and
    Day 2 pays exactly the flights' pools."""
    rng = random.Random(11)
    flights = [Run(flight(n)) for n in (1, 2)]
    flights[0].register(players(8)).start()
    flights[1].register(["p01", *[f"q{n:02}" for n in range(1, 8)]]).start()
    for run in flights:
        play_out(run, rng)
        assert run.state.status is Status.FINISHED and run.state.bags
    d2 = day_two()
    for n, run in enumerate(flights, start=1):
        carry(
            d2,
            n,
            {b.player: b.stack for b in run.state.bags},
            run.state.stopped_level or 1,
            run.state.pool,
        )
    d2.start()
    forfeited = sum(b.stack for b in d2.state.forfeited)
    assert d2.state.tally.chips + forfeited == 16 * 1000
    play_out(d2, rng)
    d2.do(AwardPrizes())
    assert d2.state.status is Status.FINISHED and d2.state.awards is not None
    assert sum(a.cash for a in d2.state.awards) == 16 * 100 == d2.state.pool
    assert replay(d2.events) == d2.state


def play_out(run: Run, rng: random.Random) -> None:
    for _ in range(2000):
        if run.state.status is not Status.RUNNING:
            return
        for table in tables_to_deal(run.state):
            run.do(StartHand(table))
        for table in sorted(run.state.tables):
            if run.state.tables[table].hand is not None:
                run.do(random_finish(run.state, table, rng))
    raise AssertionError("play did not end")


def test_flight_definitions_name_their_day() -> None:
    d: TournamentDefinition = flight(2, 3)
    assert d.flight is not None and not d.flight.day_two and flight(0).flight.day_two  # type: ignore[union-attr]
    assert FlightCarried(1, "7", 0, 0).bags == ()


def test_a_day_two_of_one_player_does_not_wait_he_has_won_the_pool() -> None:
    run = day_two()
    carry(run, 1, {}, 0, 0)
    carry(run, 2, {"p01": 4000}, 3, 700)
    run.do(AwardPrizes())
    assert run.state.status is Status.FINISHED
    assert [(a.player, a.cash) for a in run.state.awards or ()] == [("p01", 700)]


def test_a_day_two_whose_flights_were_all_called_off_is_called_off_at_its_time() -> None:
    run = day_two()
    carry(run, 1, {}, 0, 0)
    (ready,) = of_type(carry(run, 2, {}, 0, 0), DayTwoReady)
    assert ready.stacks == () and run.state.status is Status.REGISTERING
    run.do(Cancel("fewer players registered than the minimum"))
    assert run.state.status is Status.CANCELLED
