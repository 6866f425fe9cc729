"""Clock arithmetic: the period at some running seconds, time left, the next
level, added time, and the late registration, rebuy and add-on windows."""

from __future__ import annotations

from tournaments.rules import BlindLevel, Break, Structure, position, timeline
from tournaments.rules.clock import (
    add_on_open,
    add_on_period,
    late_registration_open,
    level_period,
    rebuys_open,
)

L1, L2, L3, L4 = (BlindLevel(10 * k, 20 * k, 0, 10) for k in range(1, 5))
WITH_BREAK = Structure((L1, L2, L3, L4), (Break(2, 5),))
"""Level 1 (0-600 s), 2 (600-1200), break (1200-1500), 3 (1500-2100), 4 (no end)."""


def test_the_timeline_puts_each_break_after_its_level() -> None:
    kinds = [(p.level, p.on_break, p.seconds) for p in timeline(WITH_BREAK)]
    assert kinds == [
        (1, False, 600),
        (2, False, 600),
        (2, True, 300),
        (3, False, 600),
        (4, False, None),
    ]


def test_a_faster_clock_shortens_every_period_alike() -> None:
    fast = Structure(WITH_BREAK.levels, WITH_BREAK.breaks, minute_seconds=6)
    assert [p.seconds for p in timeline(fast)] == [60, 60, 30, 60, None]
    assert position(fast, 155).level == 3 and position(WITH_BREAK, 155).level == 1
    assert position(fast, 125).on_break


def test_the_clock_starts_in_level_one() -> None:
    at = position(WITH_BREAK, 0)
    assert (at.period, at.level, at.on_break, at.seconds_left) == (0, 1, False, 600)
    assert at.next_level == L2


def test_seconds_left_count_down_within_a_level() -> None:
    assert position(WITH_BREAK, 599).seconds_left == 1
    assert position(WITH_BREAK, 600).level == 2
    assert position(WITH_BREAK, 600).seconds_left == 600


def test_a_break_belongs_to_the_level_before_it_and_leads_to_the_next() -> None:
    at = position(WITH_BREAK, 1200)
    assert (at.level, at.on_break, at.seconds_left) == (2, True, 300)
    assert at.next_level == L3
    assert position(WITH_BREAK, 1500).level == 3


def test_the_last_level_never_ends() -> None:
    at = position(WITH_BREAK, 10**9)
    assert (at.level, at.on_break, at.seconds_left, at.next_level) == (4, False, None, None)


def test_negative_running_time_counts_as_the_start() -> None:
    assert position(WITH_BREAK, -50) == position(WITH_BREAK, 0)


def test_added_time_lengthens_only_its_period() -> None:
    extra = {1: 120}
    assert position(WITH_BREAK, 1250, extra).level == 2
    assert position(WITH_BREAK, 1250, extra).on_break is False
    assert position(WITH_BREAK, 1250, extra).seconds_left == 70
    assert position(WITH_BREAK, 1320, extra).on_break is True
    assert position(WITH_BREAK, 300, extra).seconds_left == 300


def test_late_registration_runs_through_its_level_and_the_break_after_it() -> None:
    open_in = [late_registration_open(WITH_BREAK, p.index, 2) for p in timeline(WITH_BREAK)]
    assert open_in == [True, True, True, False, False]
    assert not late_registration_open(WITH_BREAK, 0, None)


def test_rebuys_close_when_their_last_level_ends() -> None:
    open_in = [rebuys_open(WITH_BREAK, p.index, 2) for p in timeline(WITH_BREAK)]
    assert open_in == [True, True, False, False, False]


def test_the_add_on_is_taken_in_the_break_after_the_rebuy_window() -> None:
    assert add_on_period(WITH_BREAK, 2) == 2
    assert [add_on_open(WITH_BREAK, p, 2) for p in range(5)] == [False, False, True, False, False]


def test_without_a_break_the_add_on_comes_as_the_next_level_begins() -> None:
    assert add_on_period(WITH_BREAK, 1) == level_period(WITH_BREAK, 2) == 1
    assert add_on_period(WITH_BREAK, 3) == level_period(WITH_BREAK, 4)
    last = len(WITH_BREAK.levels)
    assert add_on_period(WITH_BREAK, last) is None  # rebuys to the end: no add-on
