"""Recurring tournaments: a schedule creates its tournaments ahead of time.

A schedule (``Schedule``) says when: every day, or on some days of the
week, at a time of day in a time zone (by default the room's,
``TIME_ZONE``); and what: a template, the tournament create API's body
without its name and start, validated when the schedule is set up by the
same serializer and rules as a tournament a director creates, and built
again by the same code for each occurrence.

Beat runs ``schedules_fill`` (``tasks.tournament_schedules``) every
``SCHEDULE_SECONDS``: for each schedule not paused, every occurrence that
starts within its next ``horizon_days`` (and is still to come) gets its
tournament, registration open, as if a director had created it
(``services.tournament_open``: its guarantee held from the house then),
as long as the director who set the schedule up still directs
tournaments.

Once per occurrence, whatever runs it: an occurrence is one local day of
one schedule, and its tournament and its ``Occurrence`` row (unique per
schedule and day) are written in one transaction, under a lock on the
schedule's row.  Two beats, a task run twice or a retry find the day
taken and do nothing; on a backend without row locks (SQLite) the unique
key refuses the second and its transaction (tournament, ledger, events)
is rolled back whole.

Time zones and DST: the start is the time of day on that day in the
schedule's zone, so it moves in UTC with the clocks.  A time the clocks
skip (spring forward) is read with the offset before the change, so
02:30 on the night 02:00 becomes 03:00 is 03:30 local time; a time they
repeat (fall back) is its first occurrence.  Either way a day has one
occurrence, and it is keyed by the day, not the instant.

An occurrence that cannot be created (the house cannot cover the
guarantee, a satellite's target no longer takes entries) is left for the
next run, and the reason is kept on the schedule (``problem``) for the
directors.  Deleting a schedule stops it; the tournaments it created
stay, to be cancelled like any other.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from kernel.api_errors import ApiError
from tournaments import services, steps, timing
from tournaments.errors import NotFound, invalid
from tournaments.models import TAKING, Occurrence, Schedule, Tournament
from tournaments.selectors import iso, tournament_summary

log = logging.getLogger(__name__)

MAX_HORIZON_DAYS = 60
"""The furthest ahead a schedule creates its tournaments."""


@dataclass(frozen=True)
class When:
    """When a schedule's tournaments start."""

    every: str
    """``Schedule.Every``."""
    weekdays: frozenset[int]
    """ISO weekdays of a weekly schedule (1 Monday ... 7 Sunday)."""
    at: time
    zone: ZoneInfo


def when_of(row: Schedule) -> When:
    return When(row.every, frozenset(row.weekdays), row.time, ZoneInfo(row.time_zone))


def local_start(day: date, at: time, zone: ZoneInfo) -> datetime:
    """``at`` on ``day`` in ``zone``, in UTC: a skipped time with the offset
    before the change, a repeated one its first occurrence (``fold=0``)."""
    return datetime.combine(day, at, tzinfo=zone).astimezone(UTC)


def occurrences(when: When, *, after: datetime, until: datetime) -> Iterator[tuple[date, datetime]]:
    """Each local day with its start in UTC, for the starts in (``after``,
    ``until``], earliest first."""
    day = after.astimezone(when.zone).date() - timedelta(days=1)
    last = until.astimezone(when.zone).date() + timedelta(days=1)
    while day <= last:
        daily = when.every == Schedule.Every.DAY
        if daily or day.isoweekday() in when.weekdays:
            start = local_start(day, when.at, when.zone)
            if after < start <= until:
                yield day, start
        day += timedelta(days=1)


# --------------------------------------------------------------------------
# Setting one up


def zone_check(name: str) -> str:
    """``name`` if it is an IANA time zone; a 400 naming the field if not."""
    try:
        if name in available_timezones():
            ZoneInfo(name)
            return name
    except (ZoneInfoNotFoundError, ValueError):
        pass
    message = _("Not a time zone: %(name)s.") % {"name": name}
    raise invalid("time_zone", message, _("An IANA time zone name, such as Europe/Berlin."))


def template_check(template: dict[str, Any]) -> None:
    """Build the template as each occurrence will be built: a refusal of
    the rules names its field under ``template``; a sit-and-go is refused
    (a schedule's tournaments start at their time)."""
    if template.get("sit_and_go"):
        message = _("A schedule's tournaments start at their time: not a sit-and-go.")
        raise invalid("template.sit_and_go", message, _("Must be false."))
    try:
        steps.tournament_definition(template)
    except ApiError as error:
        fields = error.extra.get("fields")
        if fields:
            error.extra["fields"] = {f"template.{name}": v for name, v in fields.items()}
        raise


def schedule_create(
    *,
    by: Any,
    name: str,
    template: dict[str, Any],
    every: str,
    time: time,
    time_zone: str,
    horizon_days: int,
    weekdays: list[int] | None = None,
) -> Schedule:
    """Set a schedule up (directors only) and create its first
    occurrences at once; the template is the create API's body as
    ``TournamentIn`` validated it, without its name and start."""
    services.ensure_director(by)
    days = sorted(set(weekdays or ()))
    if every == Schedule.Every.WEEK and not days:
        message = _("A weekly schedule names its days.")
        raise invalid("weekdays", message, _("At least one day, 1 (Monday) to 7 (Sunday)."))
    if every == Schedule.Every.DAY:
        days = []
    zone_check(time_zone)
    template_check(template)
    row = Schedule.objects.create(
        name=name, template=template, every=every, weekdays=days, time=time,
        time_zone=time_zone, horizon_days=horizon_days, created_by=by,
    )  # fmt: skip
    schedule_fill(row.pk, now=timing.now())
    row.refresh_from_db()
    return row


def _director_row(schedule_id: int, by: Any) -> Schedule:
    services.ensure_director(by)
    row = Schedule.objects.filter(pk=schedule_id).first()
    if row is None:
        raise NotFound(_("No such schedule."))
    return row


def schedule_pause(*, by: Any, schedule_id: int, paused: bool) -> Schedule:
    """Pause a schedule (it creates nothing until resumed) or resume it
    (it catches up at once on what its horizon now covers)."""
    row = _director_row(schedule_id, by)
    Schedule.objects.filter(pk=row.pk).update(paused=paused)
    if not paused:
        schedule_fill(row.pk, now=timing.now())
    row.refresh_from_db()
    return row


def schedule_delete(*, by: Any, schedule_id: int) -> None:
    """Stop a schedule for good; the tournaments it created stay."""
    row = _director_row(schedule_id, by)
    row.delete()


# --------------------------------------------------------------------------
# Creating the occurrences


def schedules_fill(*, now: datetime) -> int:
    """Every schedule not paused creates what its horizon covers; how many
    tournaments were created (run by beat)."""
    created = 0
    for pk in list(Schedule.objects.filter(paused=False).values_list("pk", flat=True)):
        try:
            created += schedule_fill(pk, now=now)
        except Exception:  # one schedule's failure leaves the others to run
            log.exception("schedule %s failed", pk)
    return created


def schedule_fill(schedule_id: int, *, now: datetime) -> int:
    """Create the tournaments of one schedule's occurrences still to come
    within its horizon that it has not created yet; how many it created."""
    row = Schedule.objects.filter(pk=schedule_id, paused=False).first()
    if row is None:
        return 0
    if not services.is_director(row.created_by):
        _problem(row, _("The director who set this schedule up no longer directs tournaments."))
        return 0
    until = now + timedelta(days=row.horizon_days)
    taken = set(row.occurrences.values_list("day", flat=True))
    created, problem = 0, ""
    for day, starts_at in occurrences(when_of(row), after=now, until=until):
        if day in taken:
            continue
        try:
            created += _occur(row.pk, day, starts_at)
        except ApiError as error:
            problem = f"{day.isoformat()}: {error.message}"
            log.warning("schedule %s could not create %s: %s", row.pk, day, error.code)
            break  # the later days would meet the same refusal
    _problem(row, problem)
    return created


def _problem(row: Schedule, problem: str) -> None:
    """Keep why the schedule could not create its last occurrence ("": it could)."""
    problem = str(problem)[:300]
    if problem != row.problem:
        Schedule.objects.filter(pk=row.pk).update(problem=problem)


def _occur(schedule_id: int, day: date, starts_at: datetime) -> int:
    """One occurrence's tournament and its key, in one transaction; 0 if
    the schedule is gone, paused, or the day already taken."""
    try:
        with transaction.atomic():
            row = Schedule.objects.select_for_update().filter(pk=schedule_id).first()
            if row is None or row.paused or row.occurrences.filter(day=day).exists():
                return 0
            definition, chain, step = steps.tournament_definition(row.template)
            tournament = services.tournament_open(
                by=row.created_by, name=row.name, definition=definition,
                starts_at=starts_at, step_chain=chain, step=step,
            )  # fmt: skip
            Occurrence.objects.create(schedule=row, day=day, tournament=tournament)
    except IntegrityError:
        return 0  # another run took the day first: its tournament stands
    return 1


# --------------------------------------------------------------------------
# Reading


def schedule_list(*, by: Any) -> list[dict[str, Any]]:
    """Every schedule, for the directors."""
    services.ensure_director(by)
    return [schedule_detail(row) for row in Schedule.objects.all()]


def schedule_view(*, by: Any, schedule_id: int) -> dict[str, Any]:
    return schedule_detail(_director_row(schedule_id, by))


def schedule_detail(row: Schedule) -> dict[str, Any]:
    """A schedule: when and what, and the tournaments it has created that
    are still to start."""
    now = timing.now()
    coming = (
        Occurrence.objects.filter(schedule=row, tournament__status__in=TAKING)
        .select_related("tournament")
        .order_by("day")
    )
    upcoming = next(occurrences(when_of(row), after=now, until=now + timedelta(days=8)), None)
    return {
        "id": row.pk,
        "name": row.name,
        "every": row.every,
        "weekdays": row.weekdays,
        "time": row.time.strftime("%H:%M"),
        "time_zone": row.time_zone,
        "horizon_days": row.horizon_days,
        "paused": row.paused,
        "problem": row.problem or None,
        "template": row.template,
        "guarantee": row.template.get("guarantee", 0),
        "next_start": None if upcoming is None else upcoming[1].isoformat(),
        "tournaments": [
            {
                "day": o.day.isoformat(),
                "tournament": o.tournament_id,
                "starts_at": iso(o.tournament.starts_at),
                "status": o.tournament.status,
                "entries": o.tournament.entries,
            }
            for o in coming
        ],
        "created_at": row.created_at.isoformat(),
    }


def coming_up(*, limit: int) -> list[dict[str, Any]]:
    """The lobby's coming up: tournaments that start at a set time and
    still take entries, soonest first (public: each with its schedule's
    name when a schedule created it)."""
    rows = (
        Tournament.objects.filter(status__in=TAKING, starts_at__gt=timing.now())
        .select_related("occurrence__schedule")
        .order_by("starts_at", "pk")[:limit]
    )
    return [{**tournament_summary(t), "schedule": _schedule_name(t)} for t in rows]


def _schedule_name(row: Tournament) -> str | None:
    occurrence = getattr(row, "occurrence", None)
    return None if occurrence is None else occurrence.schedule.name
