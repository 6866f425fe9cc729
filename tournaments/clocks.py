"""The tournament's clocks: the scheduled start, the level clock, the
rebuy decisions and the deals at its tables.

Each is a row of the kernel's clocks (``kernel.clocks``), written in the
command's transaction and fired by the kernel's drain when due; each acts
only if still due, under the tournament lock, with a command id of its
own so two runs of one clock cannot both act (the pattern of
``poker.clocks``), derived from what the clock is about as one of the
room's own ids (``kernel.system_ids``: no client can spend one):

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

- the deal, set for the end of a table's pause (``play``): it deals at
  every table whose pause is over, and sets itself again for the tables
  still pausing.

The kernel fires them (``due``, the ``clock_due`` receiver of ``KINDS``):
a clock that fires early is set again for its time; one whose drain
failed, or whose worker died, stays a row until a drain fires it.
"""

from __future__ import annotations

import secrets
import uuid
from datetime import datetime
from typing import Any

from django.conf import settings

from kernel import clocks as kernel_clocks
from kernel.clocks import check_due
from kernel.models import Clock as KernelClock
from kernel.system_ids import command_id_for
from tournaments import timing
from tournaments.errors import ClockMoved
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
    one of the room's own ids (``kernel.system_ids``), so no player's
    command can take it."""
    return command_id_for("timer " + ":".join([stream, *map(str, key)]))


# --------------------------------------------------------------------------
# Setting clocks (as data, in the command's transaction: kernel.clocks)

START = "tournament.start"
"""The scheduled start: at ``starts_at`` (the version)."""
CLOCK = "tournament.clock"
"""The level clock: at its deadline (the version), for its period."""
REBUY = "tournament.rebuy"
"""A rebuy decision, one per player (``tournament.rebuy:<player>``): at its deadline."""
DEAL = "tournament.deal"
"""The next deal at the tables: the earliest end of a table's pause."""
KINDS = (START, CLOCK, REBUY, DEAL)


def schedule(outcome: Outcome) -> None:
    """Write the clocks a command's new state needs, in its transaction."""
    if not settings.CLOCKS_ENABLED:
        return
    pk, state = outcome.row.pk, outcome.state
    created = any(isinstance(e, TournamentCreated) for e in outcome.events)
    if created and state.starts_at is not None:
        set_start_timer(pk, state.starts_at)
    due = deadline(state)
    if due is not None and any(isinstance(e, CLOCK_EVENTS) for e in outcome.events):
        set_clock_timer(pk, state.period, due)
    for e in outcome.events:
        if isinstance(e, RebuyOffered):
            set_rebuy_timer(pk, e.player, e.until)


def _stream(tournament_id: int) -> str:
    return Tournament(pk=tournament_id).stream


def _set(tournament_id: int, kind: str, at: int, **args: object) -> None:
    """Set the clock ``kind`` for ``at`` (Unix seconds, also its version)."""
    kernel_clocks.clock_set(
        stream=_stream(tournament_id),
        kind=kind,
        version=at,
        due=moment(at),
        args={"tournament": tournament_id, **args},
    )


def set_start_timer(tournament_id: int, starts_at: int) -> None:
    """Set the start for ``starts_at``."""
    _set(tournament_id, START, starts_at)


def set_clock_timer(tournament_id: int, period: int, due: int) -> None:
    """Set the end of ``period`` at ``due``."""
    _set(tournament_id, CLOCK, due, period=period)


def set_rebuy_timer(tournament_id: int, player: str, until: int) -> None:
    """Set the end of ``player``'s rebuy decision at ``until``."""
    _set(tournament_id, f"{REBUY}:{player}", until, player=player)


def set_deal_timer(tournament_id: int, when: datetime) -> None:
    """Set a deal at the tournament's tables for ``when``, unless one is set
    for sooner: the deal then sets the next for the tables still pausing."""
    kernel_clocks.clock_set_earliest(
        stream=_stream(tournament_id),
        kind=DEAL,
        version=0,
        due=when,
        args={"tournament": tournament_id},
    )


# --------------------------------------------------------------------------
# When a timer fires


def start_due(*, tournament_id: int, starts_at: int) -> Outcome | None:
    """Start a tournament whose time has come, or cancel it with refunds
    below the minimum.  ``ClockMoved`` if it no longer waits to start,
    ``kernel.clocks.ClockEarly`` before its time."""

    def decide(state: TournamentState, now: int) -> TournamentCommand:
        if state.status is not Status.REGISTERING or state.starts_at != starts_at:
            raise ClockMoved()
        check_due(moment(now), moment(starts_at))
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
        check_due(moment(now), moment(due))
        return Tick(now, secrets.randbits(64))

    return _fire(tournament_id, (period, due), decide)


def rebuy_due(*, tournament_id: int, player: str, until: int) -> Outcome | None:
    """``player``'s time to rebuy or decline ended at ``until``: he is out,
    if he is still deciding with that deadline."""

    def decide(state: TournamentState, now: int) -> TournamentCommand:
        entrant = state.entrant(player)
        if state.status is not Status.RUNNING or entrant is None or entrant.rebuy_until != until:
            raise ClockMoved()
        check_due(moment(now), moment(until))
        return RebuyTimeout(player, now, secrets.randbits(64))

    return _fire(tournament_id, ("rebuy", player, until), decide)


def _fire(tournament_id: int, key: tuple[object, ...], decide: Any) -> Outcome | None:
    """Run a timer's command under the id its ``key`` makes, and with the
    key as its content: a timer that fires twice is the same command."""
    body = {"key": [str(part) for part in key]}
    command_id = timer_id(_stream(tournament_id), *key)
    outcome = run(
        tournament_id, by=None, command_id=command_id, decide=decide, kind="timer", body=body
    )
    if outcome is None:
        raise ClockMoved()  # the same timer already acted
    return outcome


# --------------------------------------------------------------------------
# Due clocks


def _expire(clock: KernelClock) -> None:
    """Run a due tournament clock's command, by its kind."""
    pk = clock.args["tournament"]
    kind = kernel_clocks.kind_name(clock.kind)
    if kind == START:
        start_due(tournament_id=pk, starts_at=clock.version)
    elif kind == CLOCK:
        clock_due(tournament_id=pk, period=clock.args["period"], due=clock.version)
    elif kind == REBUY:
        rebuy_due(tournament_id=pk, player=clock.args["player"], until=clock.version)
    else:
        from tournaments.play import deal_due

        deal_due(tournament_id=pk)


due = kernel_clocks.firing(KINDS, _expire)
"""The ``clock_due`` receiver of the tournaments' clocks (``TournamentsConfig.ready``)."""


def sweep() -> int:
    """Fire every due tournament clock now (the drain, of the tournaments'
    kinds), and catch up the hands whose report was lost between a table's
    commit and its tournament's (``play.sweep_late``); how many clocks acted."""
    from tournaments.play import sweep_late

    acted = kernel_clocks.drain(kinds=KINDS, now=timing.now())
    sweep_late()
    return acted
