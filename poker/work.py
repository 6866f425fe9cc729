"""One command's unit of work on a table: lock, fold, decide, append, project.

``run`` carries out a command as one transaction: it locks the table row,
folds the table's and the running hand's streams (``streams``), lets the
command act on the states through ``Work``, settles what follows by itself
(a leaving player's turns at Parole or showdown, the end of the hand, the
next deal), appends the events with the versions it read (``eventstore``),
rewrites the read models (``projections``) and stores its answer under the
command id.  Engine refusals become ``ApiError``s with the engine's code.
"""

from __future__ import annotations

import secrets
import uuid
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone

from config.api_errors import ApiError
from poker import clocks, projections, streams
from poker.engine.betting import legal_actions
from poker.engine.cards import shuffled
from poker.engine.commands import Act, Action, Command
from poker.engine.errors import EngineError
from poker.engine.events import Event as HandEvent
from poker.engine.hand import begin, play
from poker.engine.rules import Rules
from poker.engine.state import HandState
from poker.engine.table import (
    StartHand,
    TableCommand,
    TableState,
    hand_result,
    plan_hand,
    play_table,
    to_deal,
)
from poker.engine.table import TableEvent as TableEventType
from poker.engine.table.clock import Turn, turn
from poker.errors import Busy, CommandIdReused, CommandIdTaken, NotFound, refusal
from poker.eventstore import AlreadyDone, Batch, Feed, append, classify, digest
from poker.models import Command as CommandRow
from poker.models import Hand, Table, hand_id
from poker.publish import publish

# --------------------------------------------------------------------------
# One command's unit of work


@dataclass
class HandWork:
    """One hand this command reads or deals: its row, the version read, the
    state now and the events to append."""

    row: Hand
    start: int
    state: HandState
    events: list[HandEvent] = field(default_factory=list)
    turn_read: Turn | None = None
    """The turn in progress when the hand was read (None: dealt now)."""

    @property
    def turn_moved(self) -> bool:
        """This command's events began a new turn (not just any event)."""
        return self.turn_read is None or turn(self.state) != self.turn_read


@dataclass
class Work:
    """What one command read and what it will write."""

    table: Table
    table_state: TableState
    hand: HandWork | None
    table_events: list[TableEventType] = field(default_factory=list)
    hands: list[HandWork] = field(default_factory=list)
    now: datetime = field(default_factory=timezone.now)
    """When the command is judged (and its events recorded)."""
    finished: bool = False
    """A hand finished in this command (its pause starts now)."""
    dealt: bool = False
    """A hand was dealt in this command.  A command deals at most one hand
    at a table: a hand that ends as it is dealt (every player away, or all
    in from the blinds) leaves the next to a command of its own after the
    pause, never a loop of hands in one transaction that never commits."""
    unit: Unit | None = None
    """The unit of work this table's work belongs to (several tables')."""
    table_start: TableState = field(init=False)
    """The table as the command found it."""

    def __post_init__(self) -> None:
        self.table_start = self.table_state
        if self.hand is not None:
            self.hands.append(self.hand)

    def table_do(self, command: TableCommand) -> None:
        """Apply a table command (refusals propagate)."""
        self.table_state, events = play_table(self.table_state, command)
        self.table_events += events

    def hand_do(self, command: Command) -> None:
        """Apply a command to the running hand (refusals propagate)."""
        assert self.hand is not None
        self.hand.state, events = play(self.hand.state, command)
        self.hand.events += events

    def settle(self) -> None:
        """Everything that follows by itself: leaving players' turns, the end
        of the hand, the next deal."""
        while True:
            hand = self.hand
            if hand is not None and not hand.state.complete:
                command = _autopilot(self)
                if command is None:
                    return
                self.hand_do(command)
            elif hand is not None and self.table_state.hand_running:
                stored = streams.stored_hand_events(hand.row.stream, hand.start)
                events = stored + hand.events
                self.table_do(hand_result(self.table_state, hand.state, events))
                self.finished = True
                if self.table_state.config.is_tournament and self.unit is not None:
                    self.unit.hand_finished(self)
            elif not self._deal_next():
                return

    def pause_ends(self) -> datetime | None:
        """When the pause after the table's last hand ends: ``pause_seconds``
        after a hand this command finished, else as the table row says."""
        if self.finished:
            return self.now + timedelta(seconds=self.table_state.config.pause_seconds)
        return self.table.next_hand_at

    def _pause_over(self) -> bool:
        """Whether the pause after the last hand is over.  Without timers
        (``CLOCKS_ENABLED`` off) nothing would end it: no pause then."""
        if not settings.CLOCKS_ENABLED:
            return True
        due = self.pause_ends()
        return due is None or self.now >= due

    def _deal_next(self) -> bool:
        if not self.table_state.config.deals_by_itself or not self._pause_over():
            return False
        return self.deal()

    def deal(self, rules: Rules | None = None) -> bool:
        """Deal the next hand if the table can and has not dealt in this
        command (``dealt``; ``rules``: a tournament table's level); whether
        it did."""
        plan = None if self.dealt else plan_hand(self.table_state, rules)
        if plan is None:
            return False
        self.table_do(StartHand(rules))
        self.dealt = True
        number = self.table_state.hand_number
        rules = self.table_state.config.rules
        deal = to_deal(plan, rules, shuffled(rules.variant.deck), secrets.randbits(128))
        state, events = begin(deal)
        row = Hand(
            id=hand_id(self.table.pk, number),
            table=self.table,
            number=number,
            seats=list(plan.seats),
        )
        self.hand = HandWork(row, 0, state, list(events))
        self.hands.append(self.hand)
        return True

    def shown_hand(self) -> tuple[Hand, HandState, int] | None:
        """The hand an answer shows: the running or just-dealt one, else the
        table's latest (row, state, version)."""
        if self.hand is not None:
            return self.hand.row, self.hand.state, self.hand.start + len(self.hand.events)
        number = self.table_state.hand_number
        if not number:
            return None
        row = Hand.objects.get(pk=hand_id(self.table.pk, number))
        return row, streams.hands.state(row.stream, row.version), row.version

    def batches(self) -> list[Batch]:
        """The appends, table stream first."""
        out = []
        if self.table_events:
            encoded = streams.encode_table(self.table_events)
            out.append(Batch(self.table.stream, self.table.version, encoded))
        for hand in self.hands:
            if hand.events:
                out.append(Batch(hand.row.stream, hand.start, streams.encode_hand(hand.events)))
        return out


class TournamentLockNeeded(Exception):
    """A command at a tournament table that holds the tournament row only
    shared reached work that needs it alone (a hand's end reported to the
    tournament, another of its tables): ``run`` rolls it back and runs it
    again holding the row exclusively."""


class Unit:
    """Several tables' work in one transaction (a tournament's tables).

    The lock order is fixed: the tournament row first, then the tables by
    ascending id (``lock``).  A table loaded later (``table``) is locked
    then: every command at a tournament table holds the tournament row
    before any of its tables, so the tournament lock keeps that safe.

    A player's command at one table takes the tournament row ``shared``:
    commands at different tables of a tournament run side by side, and
    only what touches the tournament (its own commands, a hand's end) takes
    the row alone and waits for them (``TournamentLockNeeded``).
    """

    def __init__(self, tournament: int | None = None, shared: bool = False) -> None:
        self.tournament = tournament
        self.shared = shared
        self.works: dict[int, Work] = {}

    @classmethod
    def lock(
        cls, table_ids: Sequence[int], tournament: int | None = None, shared: bool = False
    ) -> Unit:
        """Lock the tournament row (if any), then the tables in ascending id."""
        unit = cls(tournament, shared)
        if tournament is not None:
            lock_tournament(tournament, shared)
        for table_id in sorted(set(table_ids)):
            unit.table(table_id)
        return unit

    def table(self, table_id: int) -> Work:
        """The work at a table, locked and folded on first use."""
        work = self.works.get(table_id)
        if work is None and self.shared and self.works:
            raise TournamentLockNeeded()
        if work is None:
            work = _fold(_lock_table(table_id))
            work.unit = self
            self.works[table_id] = work
        return work

    def settle(self) -> None:
        """Settle every table (a hand finished at one may deal at others)."""
        for work in list(self.works.values()):
            work.settle()

    def hand_finished(self, work: Work) -> None:
        """A tournament table's hand is over: the tournament hears of it."""
        from tournaments.play import hand_finished

        if self.shared:
            raise TournamentLockNeeded()
        hand_finished(self, work)

    def append(
        self,
        *,
        command_id: uuid.UUID | None,
        answer: dict[str, Any],
        by: Any,
        at: datetime,
        content: str | None = None,
    ) -> dict[int, list[Any]]:
        """Append every table's batches with the versions read (the command
        id, with its ``content`` digest, with the first table that has any),
        then write each table's read models and set its timer and frames;
        the records by table."""
        out: dict[int, list[Any]] = {}
        first = True
        for table_id, work in self.works.items():
            batches = work.batches()
            if not batches and not (first and command_id is not None):
                continue
            recorded = append(
                batches,
                command_id=command_id if first else None,
                answer=answer if first else None,
                content=content if first else None,
                by=user_of(by),
                feed=Feed(work.table.pk, work.table.position),
                at=at,
            )
            first = False
            out[table_id] = recorded
            _written(work, recorded)
        if first and command_id is not None:
            append([], command_id=command_id, answer=answer, content=content, by=user_of(by), at=at)
        return out


def _autopilot(work: Work) -> Command | None:
    """The command a player who is leaving, or away from a tournament
    table, makes by himself when his turn comes (check or fold, stand pat,
    refuse Parole, show), else None."""
    assert work.hand is not None
    legal = legal_actions(work.hand.state)
    if legal is None:
        return None
    table = work.table_state
    seat = table.hand_seats[legal.player]
    held = table.seats.get(seat)
    if held is None or not (held.leaving or table.away(seat)):
        return None
    return Act(legal.player, passive_action(legal.actions))


def passive_action(actions: Sequence[Action]) -> Action:
    """The least committal of the legal actions."""
    for action in (Action.CHECK, Action.FOLD, Action.STAND, Action.DECLINE, Action.SHOW):
        if action in actions:
            return action
    return actions[0]


@dataclass(frozen=True)
class Key:
    """A command's id and the digest of its content, stored together."""

    id: uuid.UUID | None
    content: str | None


def run(
    table_id: int,
    *,
    by: Any,
    command_id: uuid.UUID | None,
    do: Callable[[Work], None],
    answer: Callable[[Work], dict[str, Any]],
    kind: str,
    body: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """Carry out one command on a table: all of it, once, or nothing.

    A command id seen before gets its first answer, at no cost to the
    commands that are new: a retry that the state now refuses (the hand has
    moved on) looks its id up before refusing, and one that would succeed
    again collides with its first run's Command row and rolls back.  Both
    happen under the table lock, after the first run committed.  The id is
    stored with the digest of the command's ``kind``, table and ``body``
    (what it asks, without the id): the same id with other content is
    another command, refused (``command_id_reused``) rather than answered.

    At a tournament table the command first runs with the tournament row
    shared; one that turns out to need it alone runs again (nothing of the
    first run is kept: its transaction rolled back).
    """
    key = Key(command_id, None if command_id is None else digest(kind, table_id, body or {}))
    try:
        return _attempt(table_id, by, key, do, answer, shared=True)
    except TournamentLockNeeded:
        return _attempt(table_id, by, key, do, answer, shared=False)


def _attempt(
    table_id: int,
    by: Any,
    key: Key,
    do: Callable[[Work], None],
    answer: Callable[[Work], dict[str, Any]],
    shared: bool,
) -> dict[str, Any]:
    try:
        with transaction.atomic():
            work = _load(table_id, shared)
            try:
                try:
                    do(work)
                    work.settle()
                    if work.unit is not None:  # a tournament table: its others too
                        work.unit.settle()  # no cash moves: its chips are the tournament's
                    else:
                        from accounts.tables import table_chips_moved

                        table_chips_moved(
                            table_id=work.table.pk,
                            before=work.table_start,
                            events=work.table_events,
                            by=user_of(by),
                        )
                except EngineError as error:
                    raise refusal(error) from error
            except ApiError:
                done = command_done(key.id, by, key.content)
                if done is None:
                    raise
                return _first_answer(done, by)
            reply = answer(work)
            if work.unit is not None and len(work.unit.works) > 1:
                _append_unit(work, key, by)
                return reply
            recorded = append(
                work.batches(),
                command_id=key.id,
                answer=receipt(work),
                content=key.content,
                by=user_of(by),
                feed=Feed(work.table.pk, work.table.position),
                at=work.now,
            )
            _written(work, recorded)
    except IntegrityError as error:
        if isinstance(classify(error, key.id), AlreadyDone):
            done = command_done(key.id, by, key.content)
            assert done is not None
            return _first_answer(done, by)
        raise Busy() from error
    return reply


def _append_unit(work: Work, key: Key, by: Any) -> None:
    """Append a command that wrote at several tables, this table's first."""
    assert work.unit is not None
    others = {k: w for k, w in work.unit.works.items() if k != work.table.pk}
    work.unit.works = {work.table.pk: work, **others}
    work.unit.append(
        command_id=key.id, answer=receipt(work), by=by, at=work.now, content=key.content
    )


def _written(work: Work, recorded: list[Any]) -> None:
    """After a table's events are appended: its read models, its timer and,
    once the transaction commits, its frames."""
    projections.write(work, recorded)
    clocks.schedule(work)
    hands = {h.row.stream: h.state for h in work.hands}
    seated = {n: s.player for n, s in work.table_start.seats.items()}
    seated |= {n: s.player for n, s in work.table_state.seats.items()}
    clock = clocks.as_json(clocks.work_clock(work))
    table = work.table.pk
    transaction.on_commit(lambda: publish(table, recorded, hands, seated, clock))


def receipt(work: Work) -> dict[str, Any]:
    """What a command's answer showed, as versions: enough to show it again."""
    hand = work.shown_hand()
    return {
        "table": work.table.pk,
        "table_version": work.table_state.version,
        "hand": None if hand is None else hand[0].pk,
        "hand_version": None if hand is None else hand[2],
        "clock": clocks.as_json(clocks.work_clock(work)),
    }


def command_done(
    command_id: uuid.UUID | None, by: Any, content: str | None = None
) -> CommandRow | None:
    """The command carried out before under ``command_id``, if any; refused
    when another sender carried it out (``command_id_taken``) or when it
    asked something else (``command_id_reused``: its stored digest is not
    ``content``; a row stored without one is taken for the same command)."""
    if command_id is None:
        return None
    done = CommandRow.objects.filter(id=command_id).first()
    if done is not None and done.by_id is not None:
        user = user_of(by)
        if user is None or user.pk != done.by_id:
            raise CommandIdTaken()
    if done is not None and None not in (done.digest, content) and done.digest != content:
        raise CommandIdReused()
    return done


def _first_answer(done: CommandRow, by: Any) -> dict[str, Any]:
    """The answer of a command carried out before (to its own sender:
    ``command_done`` checked).  An id a tournament command took, stored
    before digests were, has no table view to show: another command."""
    from poker.selectors import view_at

    if "table" not in done.answer:
        raise CommandIdReused()
    return view_at(done.answer, user_of(by))


def user_of(by: Any) -> Any:
    """The authenticated user behind ``by``, or None."""
    return by if getattr(by, "is_authenticated", False) else None


def _load(table_id: int, shared: bool) -> Work:
    """Lock the table row, then fold its streams as of the versions read.

    A tournament table's tournament row is locked first (the lock order is
    the tournament, then its tables), and its work joins a ``Unit`` (a hand
    that ends there may move players to, or deal at, other tables).

    The hand row is read in a statement of its own after the lock is held:
    a join in the locking statement would show it as it was before the
    command this one queued behind committed (READ COMMITTED re-reads only
    the locked row).
    """
    tournament = Table.objects.filter(pk=table_id).values_list("tournament", flat=True).first()
    if tournament is not None:
        return Unit.lock([table_id], tournament, shared).table(table_id)
    return _fold(_lock_table(table_id))


def lock_tournament(tournament_id: int, shared: bool = False) -> None:
    """Lock the tournament row, alone or shared (PostgreSQL's FOR SHARE:
    Django has no way to say it; SQLite locks the whole database anyway).
    Shared holders keep its commands out while they read or act at one
    table; they do not keep each other out."""
    from django.db import connection

    from tournaments.models import Tournament

    if shared and connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            table = Tournament._meta.db_table
            cursor.execute(f"SELECT 1 FROM {table} WHERE id = %s FOR SHARE", [tournament_id])
        return
    list(Tournament.objects.select_for_update().filter(pk=tournament_id).values_list("pk"))


def _lock_table(table_id: int) -> Table:
    try:
        return Table.objects.select_for_update().get(pk=table_id)
    except Table.DoesNotExist:
        raise NotFound() from None


def _fold(table: Table) -> Work:
    table_state = streams.tables.state(table.stream, table.version)
    hand = None
    if table_state.hand_running:
        row = Hand.objects.get(pk=hand_id(table.pk, table_state.hand_number))
        state = streams.hands.state(row.stream, row.version)
        hand = HandWork(row, row.version, state, turn_read=turn(state))
    return Work(table, table_state, hand)
