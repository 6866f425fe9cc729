"""One tournament command's unit of work: lock, fold, decide, pay, append,
project, and publish after commit.

``run`` carries a tournament command out through the one command runner
(``kernel.commands.Aggregate``), as ``poker.work.TABLE`` does a table's: the
tournament brings its own parts (``_tournament``): lock the ``Tournament``
row (``select_for_update``) and fold the stream as of the version it read
(a per-process cache keeps the latest folds), let the rules decide (with
what follows by itself: paying a finished tournament's prizes), plan the
ledger transfers of the money events, and rewrite the read models and its
clocks (``kernel.clocks``).  Only once it commits are the cache warmed and
the frames sent.

A command id seen before gets the tournament as it stands now (``run``
answers None), to its own sender only, and writes nothing.
"""

from __future__ import annotations

import logging
import uuid
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from django.db import connection, transaction

from kernel import commands
from kernel.eventstore import Appending, Batch, Recorded
from kernel.folds import Folds
from kernel.statements import Statement
from poker.work import Unit
from tournaments import payments, projections, selectors, timing
from tournaments.errors import Busy, NotFound, refusal
from tournaments.models import Entrant, Tournament
from tournaments.rules import (
    AwardPrizes,
    Status,
    TournamentCommand,
    TournamentError,
    TournamentEvent,
    TournamentState,
    evolve,
    play,
)

log = logging.getLogger(__name__)

folds: Folds[TournamentState] = Folds(projections.decode, evolve)
"""The latest fold of every tournament stream this process touched."""


@dataclass
class Outcome:
    """What one command did: the row (rewritten), the states before and
    after, the events appended with their record, and when it was judged."""

    row: Tournament
    before: TournamentState
    state: TournamentState
    events: list[TournamentEvent]
    recorded: list[Recorded]
    now: Any
    line_before: dict[str, Any] | None = None
    """The lobby line before the command (None: a new tournament)."""
    pending: list[payments.Planned] = field(default_factory=list)
    """The transaction's transfers still to post (``payments.settle``, at
    its end): this command's, and those of the reports its tables make."""


class Tables(Unit):
    """The tables' work of a tournament command, with the tournament row it
    holds locked and the tournament's state at that row's version, kept
    current by every report run on it (``run``): the reports and deals of
    one command read neither the row nor the stream again.  ``row`` None:
    a report failed and may have left it behind; ``current`` reads both
    afresh (the lock is held still)."""

    def __init__(
        self,
        row: Tournament,
        state: TournamentState,
        pending: list[payments.Planned] | None = None,
    ) -> None:
        super().__init__()
        self.pk = row.pk
        self.row: Tournament | None = row
        self.state = state
        self.pending: list[payments.Planned] = [] if pending is None else pending
        """The transaction's transfers still to post: its reports' (and
        those of the command whose table work it is), posted once that
        work is done (``play._standalone``: ``payments.settle``)."""

    def current(self) -> TournamentState:
        """The tournament's state as of its row's version."""
        if self.row is None:
            self.row = _lock(self.pk)
            self.state = folds.state(self.row.stream, self.row.version)
        return self.state


Decide = Callable[[TournamentState, int], TournamentCommand]
"""From the state and the time (Unix seconds), the command to carry out
(raising an ``ApiError`` refuses it before the rules are asked)."""


def run(
    tournament_id: int,
    *,
    by: Any,
    command_id: uuid.UUID | None,
    decide: Decide,
    kind: str,
    body: Mapping[str, Any] | None = None,
    ticket: bool | None = None,
    unit: Unit | None = None,
) -> Outcome | None:
    """Carry out one command (``Aggregate.run``): all of it, once, or
    nothing.  None when the command id was carried out before (the caller
    shows the tournament as it stands); ``follow_up`` runs in the
    transaction once the rows are written.  ``kind`` and ``body``: what the
    command asks, whose digest is stored with its id.  ``unit``: the
    tables' work of the table command this one reports to (a hand dealt or
    over), which carries out its decisions; a ``Tables`` holding this
    tournament's row gives the row and the state (not read again) and gets
    the state after, in the transaction of the command that holds it: no
    savepoint of its own, as a failure fails that whole command (the retry
    of a report it made cannot come under the lock it holds)."""
    held = unit if isinstance(unit, Tables) and unit.pk == tournament_id else None

    def do(outcome: Outcome) -> None:
        command = decide(outcome.before, int(outcome.now.timestamp()))
        outcome.state, outcome.events = _decide(outcome.before, command)

    return _tournament(held, ticket, unit).run(
        tournament_id,
        by=by,
        command_id=command_id,
        do=do,
        answer=lambda outcome: outcome,
        kind=kind,
        body=body,
        joined=held is not None,
    )


def _tournament(
    held: Tables | None, ticket: bool | None, unit: Unit | None
) -> commands.Aggregate[Outcome, Outcome | None]:
    """A tournament to the command runner, its work an ``Outcome`` (the
    state before and after, its events); ``held``: the tables' work holding
    its row locked already, with its state, and the transaction's transfers
    still to post (posted by that work, not here); ``ticket``: whether an
    entry is paid with a ticket."""

    def load(tournament_id: int) -> Outcome:
        if held is not None and held.row is not None:
            row, state = held.row, held.state
            held.row = None  # until written: a failure or a retry may leave it behind
        else:
            row = _lock(tournament_id)
            state = folds.state(row.stream, row.version)
        pending = [] if held is None else held.pending
        return Outcome(row, state, state, [], [], timing.now(), pending=pending)

    def pay(outcome: Outcome, by: Any) -> list[Statement]:
        """Plan the transfers of its money events (added to ``pending``)."""
        if outcome.events:
            row = outcome.row
            payments.post(
                tournament=row.pk,
                stream=row.stream,
                state=outcome.before,
                events=outcome.events,
                ticket=ticket,
                tickets_into=row.tickets_into,
                pending=outcome.pending,
            )
        return []

    def write(outcome: Outcome, ready: Appending) -> None:
        """Append and project in one statement (with events: else nothing),
        then ``follow_up``, then post the transaction's transfers (unless
        its tables' work posts them)."""
        row, new = outcome.row, outcome.state
        outcome.line_before = selectors.tournament_summary(row)
        if outcome.events:
            projections.write_tournament(row, new, before=outcome.before, writes=ready.writes)
            outcome.recorded = ready.recorded
            stream, version = row.stream, new.version
            transaction.on_commit(lambda: folds.remember(stream, version, new))
        follow_up(outcome, unit)
        if held is None:
            payments.settle(outcome.pending)
        else:  # the next report's row and state
            held.row, held.state = row, new

    return commands.Aggregate(
        log=log,
        target="tournament_id",
        load=load,
        follow=pay,
        record=_record,
        write=write,
        first_answer=lambda done, by: None,
        refused=TournamentError,
        refusal=refusal,
        busy=Busy,
    )


def _record(outcome: Outcome) -> commands.Record:
    """Its events after the version read (none: no append), and its receipt."""
    row, events = outcome.row, outcome.events
    batch = Batch(row.stream, outcome.before.version, projections.encode(events))
    receipt = {"tournament": row.pk, "version": outcome.state.version}
    return commands.Record([batch] if events else [], receipt, outcome.now)


def follow_up(outcome: Outcome, unit: Unit | None = None) -> None:
    """After the rows are written, in the command's transaction: the clocks
    it calls for, written now, and its frames, set up to go once it
    commits; and at the tables, what it decided (``play.carry_out``:
    seating, moves, deals, closes), in ``unit`` if a table command's; a
    starting flight that stopped or was called off is carried into its
    Day 2 once it commits."""
    from tournaments import clocks, flights, publish
    from tournaments.play import carry_out

    clocks.schedule(outcome)
    publish.on_commit(outcome)
    carry_out(outcome, unit)
    flights.carry_later(outcome)


def _decide(
    state: TournamentState, command: TournamentCommand
) -> tuple[TournamentState, list[TournamentEvent]]:
    """The state after the command and its events, with the prizes once
    play is over: a finished tournament pays in the command that finished it."""
    new, events = play(state, command)
    if new.status is Status.FINISHED and new.awards is None:
        new, awarded = play(new, AwardPrizes(in_target(new)))
        events += awarded
    return new, events


def in_target(state: TournamentState) -> frozenset[str]:
    """A satellite's winners-to-be already in its target (RULES.md 6: they
    get the seat's value in cash): players with an entry still in there."""
    satellite = state.definition.satellite
    if satellite is None or not satellite.target.isdigit():
        return frozenset()
    players = [int(s.player) for s in state.standings]
    entered = Entrant.objects.filter(
        tournament_id=int(satellite.target), player_id__in=players, status=Entrant.Status.IN
    ).values_list("player_id", flat=True)
    return frozenset(str(p) for p in entered)


def _lock(tournament_id: int) -> Tournament:
    try:
        return Tournament.objects.select_for_update().get(pk=tournament_id)
    except Tournament.DoesNotExist:
        raise NotFound() from None


def hold(tournament_id: int) -> Tables | None:
    """The tournament row locked, with its state, for a command at its
    tables (None: no such tournament)."""
    row = Tournament.objects.select_for_update().filter(pk=tournament_id).first()
    return None if row is None else Tables(row, folds.state(row.stream, row.version))


def lock(tournament_id: int, shared: bool = False) -> bool:
    """Lock the tournament row, alone or shared (PostgreSQL's FOR SHARE:
    Django has no way to say it; SQLite locks the whole database anyway);
    whether it exists.  Shared holders (a snapshot being read) keep its
    commands out, not each other."""
    if shared and connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            table = Tournament._meta.db_table
            cursor.execute(f"SELECT 1 FROM {table} WHERE id = %s FOR SHARE", [tournament_id])
            return cursor.fetchone() is not None
    return Tournament.objects.select_for_update().filter(pk=tournament_id).exists()
