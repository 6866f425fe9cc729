"""Multi-flight events, the pure rules (docs/rules.md 6): where a flight
stops, which bag goes through to Day 2 and which are forfeited (chips
conserved), who may enter a later flight, the Day 2 draw balanced by
stacks, and the level Day 2 resumes at."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tournaments.rules.draw import shuffler
from tournaments.rules.errors import InvalidDefinition
from tournaments.rules.flights import (
    Bag,
    Carry,
    FlightRules,
    carry,
    day_two_draw,
    may_enter,
    resume_level,
)

TEN = FlightRules(advance_percent=10)


def test_a_flight_plays_down_to_its_share_rounded_up() -> None:
    assert [TEN.stop_at(n) for n in (1, 9, 10, 11, 100, 101)] == [1, 1, 1, 2, 10, 11]
    assert FlightRules(100).stop_at(7) == 7
    with pytest.raises(InvalidDefinition):
        FlightRules(0)


def test_only_the_best_bag_goes_through_and_the_rest_is_forfeited() -> None:
    bags = [Bag("ann", 1, 5000), Bag("bob", 1, 3000), Bag("ann", 2, 8000), Bag("cy", 2, 4000)]
    best = carry(bags, TEN)
    assert best.stacks == {"ann": 8000, "bob": 3000, "cy": 4000}
    assert best.forfeited == (Bag("ann", 1, 5000),)
    assert best.chips + sum(b.stack for b in best.forfeited) == 20000
    latest = carry([Bag("ann", 1, 9000), Bag("ann", 2, 2000)], FlightRules(10, carry=Carry.LATEST))
    assert latest.stacks == {"ann": 2000} and latest.forfeited == (Bag("ann", 1, 9000),)
    tie = carry([Bag("ann", 2, 500), Bag("ann", 1, 500)], TEN)
    assert tie.forfeited == (Bag("ann", 2, 500),)  # the earlier bag goes through


def test_a_player_who_bagged_may_enter_again_only_if_the_event_allows_it() -> None:
    bagged = [Bag("ann", 1, 5000)]
    assert may_enter("ann", bagged, TEN) and may_enter("bob", bagged, TEN)
    closed = FlightRules(10, re_entry=False)
    assert not may_enter("ann", bagged, closed) and may_enter("bob", bagged, closed)


NAMES = st.text("abcdefgh", min_size=1, max_size=3)


@given(
    st.dictionaries(NAMES, st.integers(1, 10**6), max_size=60),
    st.integers(2, 10),
    st.integers(0, 2**32),
)
def test_the_draw_seats_everyone_once_balanced_by_stacks(
    stacks: dict[str, int], size: int, seed: int
) -> None:
    seats = day_two_draw(stacks, size, shuffler(seed))
    assert set(seats) == set(stacks) and len(set(seats.values())) == len(seats)
    tables = Counter(table for table, _ in seats.values())
    assert all(n <= size for n in tables.values())
    if tables:
        assert max(tables.values()) - min(tables.values()) <= 1
        assert sorted(tables) == list(range(1, len(tables) + 1))
    ordered = sorted(stacks, key=lambda p: (-stacks[p], p))
    for start in range(0, len(ordered), len(tables) or 1):  # one of each band a table
        band = ordered[start : start + len(tables)]
        assert len({seats[p][0] for p in band}) == len(band)


def test_the_draw_is_random_but_the_same_for_the_same_seed() -> None:
    stacks = {f"p{n:02}": 1000 * n for n in range(1, 19)}
    draws = {tuple(sorted(day_two_draw(stacks, 6, shuffler(s)).items())) for s in range(20)}
    assert len(draws) > 1
    assert day_two_draw(stacks, 6, shuffler(3)) == day_two_draw(stacks, 6, shuffler(3))


def test_day_two_resumes_at_the_highest_level_a_flight_stopped_at() -> None:
    assert resume_level([7, 9, 8]) == 9
    with pytest.raises(InvalidDefinition):
        resume_level([])
