"""The tournament's clock: levels change between hands, breaks stop the
dealing, staff pause, resume and add time."""

from __future__ import annotations

import pytest

from tests.tournaments.support import (
    T0,
    Run,
    definition,
    of_type,
    players,
    refusal,
    structure,
)
from tournaments.rules import (
    AddTime,
    Break,
    BreakStarted,
    FinishHand,
    HandStarted,
    LevelChanged,
    Pause,
    Paused,
    Resume,
    Resumed,
    StartHand,
    Tick,
    TimeAdded,
    TournamentErrorCode,
)
from tournaments.rules import queries as q

WITH_BREAK = definition(structure=structure(4, 10, (Break(1, 5),)))
"""Level 1: T0..+600, break: +600..+900, level 2: +900..+1500, ..."""


def test_play_starts_at_level_one() -> None:
    run = Run().register(players(2)).start()
    assert q.level(run.state) == 1
    run.do(StartHand(1))
    assert of_type(run.events, HandStarted)[0].level == 1


def test_a_tick_before_the_level_ends_changes_nothing() -> None:
    run = Run().register(players(2)).start()
    assert run.do(Tick(T0 + 599, 0)) == []


def test_the_level_changes_between_hands() -> None:
    run = Run().register(players(2)).start()
    run.do(StartHand(1))
    assert run.do(Tick(T0 + 600, 0)) == [LevelChanged(2)]
    hand = run.state.hands[1]
    stacks = {p.player: p.stack for p in hand.players}
    run.do(FinishHand(1, stacks, 0), StartHand(1))
    assert [h.level for h in of_type(run.events, HandStarted)] == [1, 2]


def test_a_tick_passes_every_period_it_crossed() -> None:
    run = Run(WITH_BREAK).register(players(2)).start()
    assert run.do(Tick(T0 + 1500, 0)) == [BreakStarted(1, 5), LevelChanged(2), LevelChanged(3)]
    assert q.level(run.state) == 3


def test_no_hand_starts_on_a_break() -> None:
    run = Run(WITH_BREAK).register(players(2)).start()
    run.do(Tick(T0 + 600, 0))
    assert q.on_break(run.state)
    assert refusal(run, StartHand(1)) is TournamentErrorCode.ILLEGAL_ACTION
    run.do(Tick(T0 + 900, 0), StartHand(1))
    assert of_type(run.events, HandStarted)[0].level == 2


def test_a_paused_clock_does_not_run() -> None:
    run = Run().register(players(2)).start()
    assert run.do(Pause(T0 + 500)) == [Paused(T0 + 500)]
    assert run.do(Tick(T0 + 5000, 0)) == []
    assert run.do(Resume(T0 + 5000)) == [Resumed(T0 + 5000)]
    assert run.do(Tick(T0 + 5099, 0)) == []
    assert run.do(Tick(T0 + 5100, 0)) == [LevelChanged(2)]
    assert q.position(run.state, T0 + 5100).seconds_left == 600


def test_no_hand_starts_while_the_clock_is_stopped_and_one_running_finishes() -> None:
    run = Run().register(players(2)).start()
    run.do(StartHand(1))
    hand = run.state.tables[1].hand
    assert hand is not None
    stacks = {p.player: p.stack for p in run.state.hands[hand].players}
    run.do(Pause(T0 + 10), FinishHand(1, stacks, 0))
    assert refusal(run, StartHand(1)) is TournamentErrorCode.ILLEGAL_ACTION
    run.do(Resume(T0 + 20))
    assert of_type(run.do(StartHand(1)), HandStarted)


def test_pausing_twice_or_resuming_a_running_clock_is_refused() -> None:
    run = Run().register(players(2)).start()
    assert refusal(run, Resume(T0)) is TournamentErrorCode.ILLEGAL_ACTION
    run.do(Pause(T0 + 1))
    assert refusal(run, Pause(T0 + 2)) is TournamentErrorCode.ILLEGAL_ACTION


def test_the_clock_cannot_stop_before_it_started() -> None:
    run = Run().register(players(2)).start()
    assert refusal(run, Pause(T0 - 1)) is TournamentErrorCode.MALFORMED


def test_added_time_lengthens_the_current_period() -> None:
    run = Run().register(players(2)).start()
    assert run.do(AddTime(120)) == [TimeAdded(0, 120)]
    assert run.do(Tick(T0 + 600, 0)) == []
    assert q.position(run.state, T0 + 600).seconds_left == 120
    assert run.do(Tick(T0 + 720, 0)) == [LevelChanged(2)]


@pytest.mark.parametrize("seconds", [0, -5, 3601, 1.5])
def test_added_time_is_whole_seconds_up_to_an_hour(seconds: int) -> None:
    run = Run().register(players(2)).start()
    assert refusal(run, AddTime(seconds)) is TournamentErrorCode.MALFORMED


def test_the_clock_runs_only_in_a_running_tournament() -> None:
    run = Run().register(players(2))
    for command in (Tick(T0, 0), Pause(T0), Resume(T0), AddTime(10), StartHand(1)):
        assert refusal(run, command) is TournamentErrorCode.ILLEGAL_ACTION
