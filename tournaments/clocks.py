"""The tournament's timers: the scheduled start and the level clock.

Two kinds of Celery ETA task, both acting only if still due, under the
tournament lock, with a command id of their own so two runs of one timer
cannot both act (the pattern of ``poker.clocks``), derived from what the
timer is about as one of the room's own ids (``config.system_ids``: no
client can spend one):

- the start, set when a scheduled tournament is created, for its
  ``starts_at``: play starts then, or the tournament is cancelled with
  refunds when fewer than the minimum have registered.  Due while the
  tournament still takes entries and its start has come; command id
  ``stream:start``.
- the level clock, set whenever a command leaves the clock running toward
  a new deadline (the start, a level or break reached, a resume, added
  time), for the end of the level or break in force.  It carries the
  tournament, the period and that deadline: the clock's own version.  A
  tournament's stream moves with every registration and hand while its
  clock does not, so the timer is still due exactly when the clock is
  still in that period with that deadline; a pause, a resume or added time
  moves the deadline and sets a new timer, and the old one finds nothing
  to do.  Command id ``stream:period:deadline``.
- the rebuy decision, set when a player out of chips may rebuy
  (``RebuyOffered``), for the end of his time: he is out as if he declined
  (``RebuyTimeout``), if he is still deciding with that deadline (a rebuy,
  a decline or a later deadline leave it nothing to do).  Command id
  ``stream:rebuy:player:deadline``.

A timer that fires early is set again for its time; one lost (a worker
killed before acknowledging it, an in-memory broker restarted) is fired by
beat's ``sweep`` once overdue by more than a grace.
"""

from __future__ import annotations

import secrets
import uuid
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import transaction

from config import timers
from config.api_errors import ApiError
from config.system_ids import command_id_for
from poker.clocks import SWEEP_GRACE_SECONDS
from tournaments import timing
from tournaments.errors import ClockEarly, ClockMoved
from tournaments.models import Tournament
from tournaments.rules import (
    BreakStarted,
    Cancel,
    LevelChanged,
    RebuyOffered,
    RebuyTimeout,
    Resumed,
    Start,
    Started,
    Status,
    Tick,
    TimeAdded,
    TournamentCommand,
    TournamentCreated,
    TournamentState,
)
from tournaments.timing import deadline, moment
from tournaments.work import Outcome, run

CLOCK_EVENTS = (Started, LevelChanged, BreakStarted, Resumed, TimeAdded)
"""Events after which the clock runs toward a new deadline."""
TOO_FEW = "fewer players registered than the minimum"


def timer_id(stream: str, *key: object) -> uuid.UUID:
    """The command id of one timer: one per start, one per clock deadline;
    one of the room's own ids (``config.system_ids``), so no player's
    command can take it."""
    return command_id_for("timer " + ":".join([stream, *map(str, key)]))


# --------------------------------------------------------------------------
# Setting timers (after commit, sent off the command's thread: config.timers)


def schedule(outcome: Outcome) -> None:
    """Set the timers a command's new state needs, once it commits."""
    if not settings.CLOCKS_ENABLED:
        return
    pk, state = outcome.row.pk, outcome.state
    created = any(isinstance(e, TournamentCreated) for e in outcome.events)
    if created and state.starts_at is not None:
        starts = state.starts_at
        transaction.on_commit(lambda: set_start_timer(pk, starts))
    due = deadline(state)
    if due is not None and any(isinstance(e, CLOCK_EVENTS) for e in outcome.events):
        period = state.period
        transaction.on_commit(lambda: set_clock_timer(pk, period, due))
    for e in outcome.events:
        if isinstance(e, RebuyOffered):
            player, until = e.player, e.until
            transaction.on_commit(lambda p=player, u=until: set_rebuy_timer(pk, p, u))


def set_start_timer(tournament_id: int, starts_at: int) -> None:
    """Set the start for ``starts_at``."""
    from tournaments.tasks import tournament_start_due

    timers.send(tournament_start_due, (tournament_id, starts_at), moment(starts_at))


def set_clock_timer(tournament_id: int, period: int, due: int) -> None:
    """Set the end of ``period`` at ``due``."""
    from tournaments.tasks import tournament_clock_due

    timers.send(tournament_clock_due, (tournament_id, period, due), moment(due))


def set_rebuy_timer(tournament_id: int, player: str, until: int) -> None:
    """Set the end of ``player``'s rebuy decision at ``until``."""
    from tournaments.tasks import tournament_rebuy_due

    timers.send(tournament_rebuy_due, (tournament_id, player, until), moment(until))


# --------------------------------------------------------------------------
# When a timer fires


def start_due(*, tournament_id: int, starts_at: int) -> Outcome | None:
    """Start a tournament whose time has come, or cancel it with refunds
    below the minimum.  ``ClockMoved`` if it no longer waits to start,
    ``ClockEarly`` before its time."""

    def decide(state: TournamentState, now: int) -> TournamentCommand:
        if state.status is not Status.REGISTERING or state.starts_at != starts_at:
            raise ClockMoved()
        if now < starts_at:
            raise ClockEarly(starts_at)
        if len(state.entrants) < state.definition.min_players:
            return Cancel(TOO_FEW)
        return Start(now, secrets.randbits(64))

    return _fire(tournament_id, ("start",), decide)


def clock_due(*, tournament_id: int, period: int, due: int) -> Outcome | None:
    """The level or break ``period`` ended at ``due``: move the clock on, if
    it is still in that period with that deadline."""

    def decide(state: TournamentState, now: int) -> TournamentCommand:
        if state.period != period or deadline(state) != due:
            raise ClockMoved()
        if now < due:
            raise ClockEarly(due)
        return Tick(now, secrets.randbits(64))

    return _fire(tournament_id, (period, due), decide)


def rebuy_due(*, tournament_id: int, player: str, until: int) -> Outcome | None:
    """``player``'s time to rebuy or decline ended at ``until``: he is out,
    if he is still deciding with that deadline."""

    def decide(state: TournamentState, now: int) -> TournamentCommand:
        entrant = state.entrant(player)
        if state.status is not Status.RUNNING or entrant is None or entrant.rebuy_until != until:
            raise ClockMoved()
        if now < until:
            raise ClockEarly(until)
        return RebuyTimeout(player, now, secrets.randbits(64))

    return _fire(tournament_id, ("rebuy", player, until), decide)


def _fire(tournament_id: int, key: tuple[object, ...], decide: Any) -> Outcome | None:
    """Run a timer's command under the id its ``key`` makes, and with the
    key as its content: a timer that fires twice is the same command."""
    stream = Tournament(pk=tournament_id).stream
    body = {"key": [str(part) for part in key]}
    command_id = timer_id(stream, *key)
    outcome = run(
        tournament_id, by=None, command_id=command_id, decide=decide, kind="timer", body=body
    )
    if outcome is None:
        raise ClockMoved()  # the same timer already acted
    return outcome


# --------------------------------------------------------------------------
# Lost timers


def overdue(now: datetime | None = None) -> list[tuple[str, int, int, int]]:
    """("start", "clock" or "rebuy", tournament, key, time) of every timer
    overdue by more than the grace: lost ones (the key: the period, or the
    player deciding on a rebuy)."""
    late = (now or timing.now()) - timedelta(seconds=SWEEP_GRACE_SECONDS)
    out: list[tuple[str, int, int, int]] = []
    scheduled = Tournament.objects.filter(
        status=Tournament.Status.REGISTERING, sit_and_go=False, starts_at__lt=late
    )
    for pk, starts in scheduled.values_list("pk", "starts_at"):
        out.append(("start", pk, 0, int(starts.timestamp())))
    running = Tournament.objects.filter(status=Tournament.Status.RUNNING, level_ends_at__lt=late)
    for row in running.order_by("pk"):
        from tournaments.work import folds

        state = folds.state(row.stream, row.version)
        due = deadline(state)
        if due is not None:
            out.append(("clock", row.pk, state.period, due))
    return out + _overdue_rebuys(int(late.timestamp()))


def _overdue_rebuys(late: int) -> list[tuple[str, int, int, int]]:
    """("rebuy", tournament, player, deadline) of every rebuy decision whose
    time ended before ``late`` (the tournaments with rebuys only)."""
    from tournaments.work import folds

    out: list[tuple[str, int, int, int]] = []
    running = Tournament.objects.filter(status=Tournament.Status.RUNNING)
    for row in running.exclude(definition__rebuys=None).order_by("pk"):
        state = folds.state(row.stream, row.version)
        for player, e in sorted(state.entrants.items()):
            if e.alive and e.rebuy_until is not None and e.rebuy_until < late:
                out.append(("rebuy", row.pk, int(player), e.rebuy_until))
    return out


def sweep() -> int:
    """Fire every overdue timer now; how many acted."""
    acted = 0
    for kind, pk, key, when in overdue():
        try:
            if kind == "start":
                start_due(tournament_id=pk, starts_at=when)
            elif kind == "rebuy":
                rebuy_due(tournament_id=pk, player=str(key), until=when)
            else:
                clock_due(tournament_id=pk, period=key, due=when)
        except ApiError:
            continue
        acted += 1
    if getattr(settings, "TOURNAMENT_TABLES", True):  # lost deal timers
        from tournaments.play import sweep_deals

        sweep_deals(timing.now() - timedelta(seconds=SWEEP_GRACE_SECONDS))
    return acted
