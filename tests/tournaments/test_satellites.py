"""Satellites (RULES.md 6): seats into a target plus what is left of the
pool in cash; a winner already in the target gets the buy-in instead; play
ends when no more players are left than seats; hand-for-hand for the last
seat."""

from __future__ import annotations

from tests.tournaments.support import T0, Run, at, definition, players
from tournaments.rules import (
    Award,
    AwardPrizes,
    Finished,
    FinishHand,
    HandForHandEnded,
    HandForHandStarted,
    PrizesAwarded,
    Satellite,
    StartHand,
    Status,
    Tick,
    can_start_hand,
)
from tournaments.rules import queries as q


def bust_fullest(run: Run) -> None:
    table = max(run.state.tables, key=lambda n: (len(run.state.tables[n].seats), n))
    here = at(run, table)
    run.bust(here[-1], here[0])


def hand_for_hand_round(run: Run, losing_table: int) -> None:
    """Every table deals one hand; at ``losing_table`` its last player loses
    everything to its first."""
    tables = sorted(run.state.tables)
    run.do(*(StartHand(n) for n in tables))
    for n in tables:
        hand = run.state.tables[n].hand
        assert hand is not None
        stacks = {p.player: p.stack for p in run.state.hands[hand].players}
        if n == losing_table:
            here = sorted(stacks)
            stacks[here[0]] += stacks[here[-1]]
            stacks[here[-1]] = 0
        run.do(FinishHand(n, stacks, 0))


def test_a_satellite_ends_when_no_more_players_are_left_than_seats() -> None:
    run = Run(definition(satellite=Satellite("main", 250))).register(players(7)).start()
    assert q.seats_awarded(run.state) == 2  # 700 in the pool: two seats of 250, 200 left
    while run.state.status is Status.RUNNING:
        bust_fullest(run)
    assert q.players_left(run.state) == 2
    finished = run.events[-1]
    assert isinstance(finished, Finished)
    (paid,) = run.do(AwardPrizes())
    assert isinstance(paid, PrizesAwarded) and paid.target == "main"
    assert [(a.place, a.cash, a.ticket) for a in paid.awards] == [
        (1, 0, True),
        (2, 0, True),
        (3, 200, False),
    ]


def test_seats_and_cash_add_up_to_the_pool() -> None:
    run = Run(definition(satellite=Satellite("main", 300))).register(players(8)).start()
    while run.state.status is Status.RUNNING:
        bust_fullest(run)
    (paid,) = run.do(AwardPrizes())
    assert isinstance(paid, PrizesAwarded)
    tickets = sum(1 for a in paid.awards if a.ticket)
    assert tickets * 300 + sum(a.cash for a in paid.awards) == run.state.pool == 800


def test_a_winner_already_registered_for_the_target_gets_its_buy_in_in_cash() -> None:
    run = Run(definition(satellite=Satellite("main", 250))).register(players(5)).start()
    while run.state.status is Status.RUNNING:
        bust_fullest(run)
    winners = [s.player for s in run.state.standings[:2]]
    (paid,) = run.do(AwardPrizes(frozenset({winners[1]})))
    assert isinstance(paid, PrizesAwarded)
    assert paid.awards[:2] == (
        Award(winners[0], 1, 0, True),
        Award(winners[1], 2, 250, False),
    )


def test_the_seats_are_capped_and_the_rest_goes_to_the_next_place() -> None:
    run = Run(definition(satellite=Satellite("main", 200, seats=1))).register(players(5))
    run.start()
    while run.state.status is Status.RUNNING:
        bust_fullest(run)
    (paid,) = run.do(AwardPrizes())
    assert isinstance(paid, PrizesAwarded)
    assert [(a.place, a.cash, a.ticket) for a in paid.awards] == [(1, 0, True), (2, 300, False)]


def test_a_satellite_plays_on_until_its_pool_is_final() -> None:
    d = definition(satellite=Satellite("main", 300), late_registration_level=1)
    run = Run(d).register(players(3)).start()
    run.bust("p03", "p01")
    run.bust("p02", "p01")
    assert run.state.status is Status.RUNNING  # more may still register
    run.do(Tick(T0 + 600, 0))
    assert run.state.status is Status.FINISHED
    assert [s.player for s in run.state.standings] == ["p01", "p02", "p03"]


def test_a_satellite_plays_hand_for_hand_for_the_last_seat() -> None:
    # 9 x 100 = 900: three seats of 250 and 150 for 4th; tables of three
    d = definition(satellite=Satellite("main", 250), table_size=3)
    run = Run(d).register(players(9)).start()
    while q.players_left(run.state) > 6:
        bust_fullest(run)
    assert not run.state.hand_for_hand
    bust_fullest(run)  # 5 left: the next bust is paid
    assert run.state.hand_for_hand
    hand_for_hand_round(run, 1)  # 4 left: the next bust decides the last seat
    assert q.players_left(run.state) == 4
    assert run.state.hand_for_hand
    assert HandForHandEnded() not in run.events
    hand_for_hand_round(run, 1)
    assert run.state.status is Status.FINISHED
    assert HandForHandStarted() in run.events
    (paid,) = run.do(AwardPrizes())
    assert isinstance(paid, PrizesAwarded)
    assert [(a.cash, a.ticket) for a in paid.awards] == [(0, True)] * 3 + [(150, False)]


def test_once_the_seats_are_won_no_hand_is_dealt_and_play_ends_with_the_last_one() -> None:
    """One hand that busts four players takes the field from 13 past the
    bubble (hand-for-hand at 12 and 11) to fewer than the 10 seats: the
    tables still in a hand finish it, none deals again, and play ends with
    the last of them."""
    d = definition(satellite=Satellite("main", 100, seats=10), table_size=5)
    run = Run(d).register(players(15)).start()
    bust_fullest(run)
    bust_fullest(run)
    tables = sorted(run.state.tables, key=lambda n: -len(run.state.tables[n].seats))
    full, others = tables[0], tables[1:]
    assert len(run.state.tables[full].seats) == 5 and not run.state.hand_for_hand
    run.do(*(StartHand(n) for n in others), StartHand(full))
    everything_to_one(run, full)
    assert q.players_left(run.state) == 9 and run.state.status is Status.RUNNING
    first, last = others
    run.do(FinishHand(first, _unchanged(run, first), 0))
    assert not can_start_hand(run.state, first)  # play is over but for the hand at ``last``
    assert run.state.status is Status.RUNNING
    run.do(FinishHand(last, _unchanged(run, last), 0))
    assert run.state.status is Status.FINISHED


def _unchanged(run: Run, table: int) -> dict[str, int]:
    hand = run.state.tables[table].hand
    assert hand is not None
    return {p.player: p.stack for p in run.state.hands[hand].players}


def everything_to_one(run: Run, table: int) -> None:
    """The hand running at ``table`` ends with its first player holding all."""
    hand = run.state.tables[table].hand
    assert hand is not None
    stacks = {p.player: p.stack for p in run.state.hands[hand].players}
    first, *rest = sorted(stacks)
    stacks = {first: sum(stacks.values()), **{p: 0 for p in rest}}
    run.do(FinishHand(table, stacks, 0))
