"""When a schedule's tournaments start: the time of day in its time zone,
one start a local day, through the clocks' changes (no database)."""

from __future__ import annotations

from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo

from tournaments.models import Schedule
from tournaments.schedules import When, occurrences

BERLIN = ZoneInfo("Europe/Berlin")
"""Clocks forward 2026-03-29 02:00 -> 03:00, back 2026-10-25 03:00 -> 02:00."""


def _when(at: time, every: str = Schedule.Every.DAY, weekdays: frozenset[int] = frozenset()):
    return When(every, weekdays, at, BERLIN)


def _starts(when: When, first: datetime, days: int) -> list[tuple[date, datetime]]:
    return list(occurrences(when, after=first, until=first + timedelta(days=days)))


def test_a_daily_schedule_starts_once_a_local_day_at_its_time():
    starts = _starts(_when(time(20, 0)), datetime(2026, 6, 1, 12, tzinfo=UTC), 5)
    assert [d.isoformat() for d, _ in starts] == [f"2026-06-0{n}" for n in range(1, 6)]
    assert {s.astimezone(BERLIN).time() for _, s in starts} == {time(20, 0)}
    assert {s.hour for _, s in starts} == {18}  # summer time: UTC+2


def test_the_start_follows_the_clocks_when_they_change():
    spring = _starts(_when(time(20, 0)), datetime(2026, 3, 27, 12, tzinfo=UTC), 4)
    assert [(d.day, s.hour) for d, s in spring] == [(27, 19), (28, 19), (29, 18), (30, 18)]
    autumn = _starts(_when(time(20, 0)), datetime(2026, 10, 23, 12, tzinfo=UTC), 4)
    assert [(d.day, s.hour) for d, s in autumn] == [(23, 18), (24, 18), (25, 19), (26, 19)]


def test_a_time_the_clocks_skip_comes_an_hour_later_and_a_repeated_one_first():
    skipped = dict(_starts(_when(time(2, 30)), datetime(2026, 3, 28, 12, tzinfo=UTC), 2))
    assert skipped[date(2026, 3, 29)] == datetime(2026, 3, 29, 1, 30, tzinfo=UTC)
    assert skipped[date(2026, 3, 29)].astimezone(BERLIN).time() == time(3, 30)
    repeated = dict(_starts(_when(time(2, 30)), datetime(2026, 10, 24, 12, tzinfo=UTC), 2))
    assert repeated[date(2026, 10, 25)] == datetime(2026, 10, 25, 0, 30, tzinfo=UTC)
    assert len(repeated) == 2  # one start each day, the repeated hour included


def test_a_weekly_schedule_starts_on_its_days_only():
    weekly = _when(time(19, 0), Schedule.Every.WEEK, frozenset({3, 6}))  # Wednesday, Saturday
    starts = _starts(weekly, datetime(2026, 6, 1, 0, tzinfo=UTC), 14)
    assert [d.isoweekday() for d, _ in starts] == [3, 6, 3, 6]


def test_only_starts_still_to_come_and_within_the_horizon_count():
    first = datetime(2026, 6, 1, 18, tzinfo=UTC)  # exactly the first day's 20:00 in Berlin
    starts = _starts(_when(time(20, 0)), first, 2)
    assert [d.day for d, _ in starts] == [
        2,
        3,
    ]  # the start at ``after`` has come; the horizon's end counts
