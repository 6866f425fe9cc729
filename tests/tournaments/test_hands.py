"""Hands at the tables: who is dealt in, chips conserved, eliminations and
finishing places, the end of play and the prizes."""

from __future__ import annotations

import pytest

from tests.tournaments.support import Run, of_type, players, refusal
from tournaments.rules import (
    Award,
    AwardPrizes,
    Eliminated,
    Finished,
    FinishHand,
    HandFinished,
    HandStarted,
    PlayerStack,
    PrizesAwarded,
    Standing,
    StartHand,
    Status,
    TournamentErrorCode,
)
from tournaments.rules.play import can_start_hand


def three_handed() -> Run:
    """p01, p02, p03 at table 1 (seats by the draw)."""
    return Run().register(players(3)).start()


def test_a_hand_is_dealt_to_everyone_at_the_table_with_chips() -> None:
    run = three_handed()
    events = run.do(StartHand(1, big_blind=run.seat_of("p02")[1]))
    (started,) = events
    assert isinstance(started, HandStarted)
    assert (started.hand, started.table, started.level) == (1, 1, 1)
    assert sorted(p.player for p in started.players) == players(3)
    assert [p.seat for p in started.players] == sorted(p.seat for p in started.players)
    assert all(p.stack == 1000 for p in started.players)
    assert started.big_blind == run.seat_of("p02")[1]


def test_the_big_blind_is_a_seat_dealt_in() -> None:
    run = three_handed()
    empty = next(s for s in range(1, 7) if s not in run.state.tables[1].seats)
    assert refusal(run, StartHand(1, big_blind=empty)) is TournamentErrorCode.MALFORMED


def test_the_over_blind_is_a_seat_dealt_in_and_the_table_keeps_it() -> None:
    run = three_handed()
    seats = sorted(run.state.tables[1].seats)
    empty = next(s for s in range(1, 7) if s not in seats)
    bad = StartHand(1, big_blind=seats[0], over_blind=empty)
    assert refusal(run, bad) is TournamentErrorCode.MALFORMED
    run.do(StartHand(1, big_blind=seats[0], over_blind=seats[1]))
    table = run.state.tables[1]
    assert (table.big_blind, table.over_blind) == (seats[0], seats[1])


def test_one_hand_at_a_time_at_a_table() -> None:
    run = three_handed()
    run.do(StartHand(1))
    assert refusal(run, StartHand(1)) is TournamentErrorCode.ILLEGAL_ACTION
    assert not can_start_hand(run.state, 1)


def test_no_hand_at_an_unknown_table() -> None:
    run = three_handed()
    assert refusal(run, StartHand(2)) is TournamentErrorCode.MALFORMED


def test_a_finished_hand_gives_the_stacks_of_those_dealt_in() -> None:
    run = three_handed()
    events = run.hand(1, {"p01": 200, "p02": -200})
    finished = events[0]
    assert isinstance(finished, HandFinished)
    assert {p.player: p.stack for p in finished.stacks} == {"p01": 1200, "p02": 800, "p03": 1000}
    assert run.state.entrants["p01"].stack == 1200
    assert run.state.tables[1].hand is None


@pytest.mark.parametrize(
    "stacks",
    [
        {"p01": 1200, "p02": 800},  # p03 missing
        {"p01": 1200, "p02": 800, "p03": 1000, "x": 0},
        {"p01": 1300, "p02": 800, "p03": 1000},  # chips out of nowhere
        {"p01": 2100, "p02": -100, "p03": 1000},
        {"p01": 1000.0, "p02": 1000, "p03": 1000},
    ],
)
def test_a_hand_must_conserve_chips_among_those_dealt_in(stacks: dict[str, int]) -> None:
    run = three_handed()
    run.do(StartHand(1))
    assert refusal(run, FinishHand(1, stacks, 0)) is TournamentErrorCode.MALFORMED


def test_no_hand_to_finish_when_none_is_running() -> None:
    run = three_handed()
    stacks = {p: 1000 for p in players(3)}
    assert refusal(run, FinishHand(1, stacks, 0)) is TournamentErrorCode.ILLEGAL_ACTION


def test_a_player_left_without_chips_is_eliminated() -> None:
    run = three_handed()
    events = run.bust("p03", "p01")
    assert Eliminated("p03", 1, 1000) in events
    entrant = run.state.entrants["p03"]
    assert entrant.out and entrant.table is None
    assert "p03" not in run.state.tables[1].seats.values()


def test_players_busted_in_the_same_hand_finish_by_their_stacks_at_its_start() -> None:
    run = Run().register(players(4)).start()
    run.hand(1, {"p01": 300, "p02": -300})  # p01 1300, p02 700
    events = run.hand(1, {"p03": 1300 + 700, "p01": -1300, "p02": -700})
    assert of_type(events, Eliminated) == [Eliminated("p02", 2, 700), Eliminated("p01", 2, 1300)]
    run.bust("p04", "p03")
    assert run.state.standings == (
        Standing("p03", 1),
        Standing("p04", 2),
        Standing("p01", 3),
        Standing("p02", 4),
    )


def test_the_last_player_standing_wins_and_play_ends() -> None:
    run = three_handed()
    run.bust("p03", "p01")
    events = run.bust("p02", "p01")
    assert events[-1] == Finished((Standing("p01", 1), Standing("p02", 2), Standing("p03", 3)))
    assert run.state.status is Status.FINISHED


def test_prizes_are_awarded_once_play_is_over() -> None:
    run = Run().register(players(5)).start()
    assert refusal(run, AwardPrizes()) is TournamentErrorCode.ILLEGAL_ACTION
    for loser in ("p05", "p04", "p03", "p02"):
        run.bust(loser, "p01")
    (paid,) = run.do(AwardPrizes())
    # 5 entrants: 65/35 of a 500 pool
    assert paid == PrizesAwarded((Award("p01", 1, 325), Award("p02", 2, 175)), None)
    assert refusal(run, AwardPrizes()) is TournamentErrorCode.ILLEGAL_ACTION


def test_equal_stacks_busted_together_share_their_places_prizes() -> None:
    run = Run().register(players(5)).start()
    run.bust("p05", "p01")
    run.bust("p04", "p02")  # p01 2000, p02 2000, p03 1000
    run.hand(1, {"p02": -1000, "p01": 1000})
    events = run.hand(1, {"p01": 2000, "p02": -1000, "p03": -1000})
    assert {e.player for e in of_type(events, Eliminated)} == {"p02", "p03"}
    assert run.state.standings[1:3] == (Standing("p02", 2, 2), Standing("p03", 2, 2))
    (paid,) = run.do(AwardPrizes())
    # 65/35 of 500: places 2 and 3 share 175 + 0, the odd unit to p02
    assert paid == PrizesAwarded(
        (Award("p01", 1, 325), Award("p02", 2, 88), Award("p03", 2, 87)), None
    )


def test_prizes_always_add_up_to_the_pool() -> None:
    run = Run().register(players(8)).start()
    while run.state.status is Status.RUNNING:
        tables = run.state.tables
        number = next(n for n in sorted(tables) if len(tables[n].seats) > 1)
        at = sorted(tables[number].seats.values())
        run.bust(at[-1], at[0])
    (paid,) = run.do(AwardPrizes())
    assert isinstance(paid, PrizesAwarded)
    assert sum(a.cash for a in paid.awards) == run.state.pool == 800
    assert [a.cash for a in paid.awards] == [400, 240, 160]


def test_hand_events_name_players_seats_and_stacks() -> None:
    run = three_handed()
    run.do(StartHand(1))
    started = of_type(run.events, HandStarted)[0]
    assert all(isinstance(p, PlayerStack) for p in started.players)
