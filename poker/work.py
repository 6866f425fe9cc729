"""The unit of work at a table: what one command read, did and will write.

``load`` locks a table row and folds its streams (``streams``) as of the
versions read into a ``Work``; the command acts on the states through it
(``table_do``, ``hand_do``); ``settle`` plays what follows by itself (a
leaving player's turns, the end of the hand, a cash table's next deal);
``batches`` are its appends, and ``written`` runs them with the read
models' rewrites (``projections``) in one statement, sets the next clock
(``clocks``) and queues the frames (``publish``).  A ``Unit`` holds several
tables' work in one transaction (a tournament's).

``TABLE`` is the table to the one command runner
(``kernel.commands.Aggregate``; ``TABLE.run(table_id, ...)``): these steps, a cash
table's chips on the ledger (``accounts.tables``), its receipt and first
answers, and, once a command committed, whoever listens for the hands it
finished (``hand_finished``: a tournament), told in a transaction of
its own.  ``CURRENT`` holds, per process, each table's work as this
process last read it under the lock or wrote it, while a hand runs there:
the runner's one-statement path acts on it (``current``), and ``inside``
says when a command may go that way.
"""

from __future__ import annotations

import copy
import logging
import threading
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import connection, transaction
from django.dispatch import Signal
from django.utils import timezone

from accounts.errors import refusal
from accounts.tables import table_chips_moved
from kernel import clocks as kernel_clocks
from kernel import statements
from kernel.commands import Aggregate, Record, user_of
from kernel.errors import Busy, CommandIdReused
from kernel.eventstore import Appending, Batch, Feed, appending
from kernel.models import Command as CommandRow
from poker import clocks, projections, streams
from poker.engine.betting import legal_actions
from poker.engine.cards import secret_seed, shuffled
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
from poker.errors import NotFound
from poker.models import Hand, Table, hand_id
from poker.publish import publish
from poker.selectors import table_summary, view_at, work_view

log = logging.getLogger(__name__)

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
    table_start: TableState = field(init=False)
    """The table as the command found it."""
    clock_shown: tuple[tuple[object, ...], dict[str, Any] | None] | None = None
    """The clock as shown for the states it was worked out at
    (``clocks.work_clock_json``)."""

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
                self.table_do(hand_result(self.table_state, hand.state))
                self.finished = True
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
        config = self.table_state.config
        rules = config.rules
        deck, seed = shuffled(rules.variant.deck), secret_seed()
        deal = to_deal(plan, rules, deck, seed, config.rake)
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


class Unit:
    """Several tables' work in one transaction (a tournament command's).

    Each table is locked and folded the first time the unit needs it
    (``table``), in whatever order the caller asks.  That cannot deadlock:
    a command at one table locks that table alone and waits for nothing
    while it holds it, and whoever builds a unit of several tables holds a
    lock of its own first (a tournament's row), so two units over the
    same tables never run side by side.
    """

    def __init__(self) -> None:
        self.works: dict[int, Work] = {}

    def table(self, table_id: int) -> Work:
        """The work at a table, locked and folded on first use."""
        work = self.works.get(table_id)
        if work is None:
            work = load(table_id)
            self.works[table_id] = work
        return work

    def settle(self) -> None:
        """Settle every table: what follows by itself at each."""
        for work in list(self.works.values()):
            work.settle()

    def append(self, at: datetime) -> None:
        """Append every table's batches with the versions read, each with
        its table's read models (one statement), and set its timer and
        frames."""
        for work in self.works.values():
            batches = work.batches()
            if batches:
                written(
                    work, appending(batches, feed=Feed(work.table.pk, work.table.position), at=at)
                )


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


def written(work: Work, ready: Appending) -> None:
    """Append a table's events (``ready``: the append made ready) and write
    what follows from them: its read models and its clock, in the same
    statement, and, once the transaction commits, its frames."""
    recorded = ready.recorded
    CURRENT.drop(work.table.pk)  # until this command's own state is committed
    projections.write(work, recorded, [*ready.writes, *clocks.clock_writes(work)])
    transaction.on_commit(lambda: CURRENT.keep(work))
    hands = {h.row.stream: h.state for h in work.hands}
    seats = {h.row.stream: list(h.row.seats) for h in work.hands}
    seated = {n: s.player for n, s in work.table_start.seats.items()}
    seated |= {n: s.player for n, s in work.table_state.seats.items()}
    clock = clocks.work_clock_json(work)
    table = work.table.pk
    summary = table_summary(work.table) if work.table_events else None  # the row as written
    transaction.on_commit(
        lambda: publish(
            table=table,
            rows=recorded,
            hands=hands,
            seated=seated,
            clock=clock,
            seats=seats,
            summary=summary,
        )
    )


def load(table_id: int) -> Work:
    """Lock the table row and its current hand's row in one statement, then
    fold their streams as of the versions read.

    Both rows are locked (``FOR UPDATE OF`` both): after waiting for the
    command ahead of it, PostgreSQL re-reads every locked row at its newest
    version and checks the join again, so neither row can be stale.  When
    that command moved the table to another hand the join finds nothing,
    and so does a table between hands or never dealt: then the table is
    locked alone and its hand read after.
    """
    both = statements.lock_pair(Table, table_id, "current_hand")
    table = both or _lock_table(table_id)
    work = _fold(table, table.current_hand if both is not None else None)
    CURRENT.keep(work)  # read under the lock: current until a command writes
    return work


def _lock_table(table_id: int) -> Table:
    try:
        return Table.objects.select_for_update().get(pk=table_id)
    except Table.DoesNotExist:
        raise NotFound() from None


def _fold(table: Table, current: Hand | None) -> Work:
    """The work at ``table`` (``current``: its current hand's row, if read)."""
    table_state = streams.tables.state(table.stream, table.version)
    hand = None
    if table_state.hand_running:
        number = hand_id(table.pk, table_state.hand_number)
        row = current if current is not None and current.pk == number else None
        row = row or Hand.objects.get(pk=number)
        state = streams.hands.state(row.stream, row.version)
        hand = HandWork(row, row.version, state, turn_read=turn(state))
    return Work(table, table_state, hand)


# --------------------------------------------------------------------------
# The process's current work at each table (the one-statement path)

CURRENT_SIZE = 1024
"""Tables whose running hand a process keeps current (a server's live
tables): the least recently used goes first."""


@dataclass(frozen=True)
class _Held:
    """A table's work as committed: its rows (copies, as read or written)
    and its folded states, immutable."""

    table: Table
    table_state: TableState
    hand: Hand
    hand_state: HandState


class Current:
    """Each table's work as this process last read it under the lock or
    wrote it, while a hand runs there (the runner's ``current``).

    What is held is only ever committed data: a read under the lock
    (``load``) or a command's own rows and states, kept once it committed
    (``written``, through ``on_commit``).  It is current as far as this
    process knows; another process's command since makes the
    one-statement append hit the next version's unique key and fail, and
    the command runs again under the lock, which keeps what it reads.
    The store never goes back (events are never deleted), so a held
    version is never ahead of it: a test that empties the database
    forgets what is held (``forget``).  ``take`` hands a table's work out
    to one command at a time; another thread of the process meanwhile
    takes the locked path.  Only on PostgreSQL (the one-statement path's
    database): elsewhere nothing is held.
    """

    def __init__(self, size: int = CURRENT_SIZE) -> None:
        self._size = size
        self._held: OrderedDict[int, _Held] = OrderedDict()
        self._lock = threading.Lock()

    def keep(self, work: Work) -> None:
        """Hold ``work`` (committed, or read under the lock) as its
        table's current work, if a hand runs there; copies of its rows,
        so the command's own later changes to them are not held."""
        hand = work.hand
        if hand is None or hand.state.complete or connection.vendor != "postgresql":
            return
        held = _Held(copy.copy(work.table), work.table_state, copy.copy(hand.row), hand.state)
        key = work.table.pk
        with self._lock:
            before = self._held.get(key)
            if before is not None and before.table.position > held.table.position:
                return  # a later command's, kept first
            self._held[key] = held
            self._held.move_to_end(key)
            while len(self._held) > self._size:
                self._held.popitem(last=False)

    def take(self, table_id: int) -> Work | None:
        """The table's current work for one command, no longer held (the
        command keeps its own once it committed), or None."""
        with self._lock:
            held = self._held.pop(table_id, None)
        if held is None:
            return None
        row = held.hand
        hand = HandWork(row, row.version, held.hand_state, turn_read=turn(held.hand_state))
        return Work(held.table, held.table_state, hand)

    def drop(self, table_id: int) -> None:
        """Hold nothing for the table (a command is writing it)."""
        with self._lock:
            self._held.pop(table_id, None)

    def forget(self) -> None:
        """Hold nothing (tests that empty or rebuild the store)."""
        with self._lock:
            self._held.clear()


CURRENT = Current()
"""This process's current work at each table where a hand runs."""


IN_HAND = frozenset({"hand.act"})
"""The kinds of table command that may go as one statement: a player's
action in the running hand.  A seat's commands move money or change the
table (table events); a clock's runs inside the drain's transaction."""


def current(table_id: int, kind: str) -> Work | None:
    """The table's current work for a command of ``kind`` that may stay
    inside the hand (``IN_HAND``), taken; else None."""
    return CURRENT.take(table_id) if kind in IN_HAND else None


def inside(work: Work) -> bool:
    """Whether the command ``work`` carries, with what follows by itself
    (``settle``), stays inside the running hand and moves no money: no
    table event (every move of chips between accounts is one: a buy-in, a
    top-up, a player leaving, a hand's end with its rake; and so is a
    deal or a time bank used) and the hand it acted in is still running.
    Such a command writes its events, command row, the hand's row, the
    table's feed position and the turn's clock, nothing else: one
    statement (``kernel.commands``)."""
    work.settle()
    hand = work.hand
    return (
        not work.table_events
        and hand is not None
        and work.hands == [hand]
        and hand.start > 0
        and bool(hand.events)
        and not hand.state.complete
    )


# --------------------------------------------------------------------------
# The table as an aggregate of the command runner

hand_finished = Signal()
"""Sent after a table command committed that finished a hand at that table
(``table_id``, its ``config``): a higher app (a tournament) connects in its
``ready``, so the tables never call up into it, nor wait for it inside
their transaction."""


def _follow(work: Work, by: Any) -> list[statements.Statement]:
    """What follows the command by itself, and a cash table's chips on the
    ledger: the writes of its last transfer, left to go with the append."""
    work.settle()
    if work.table_state.config.is_tournament:  # its chips are the tournament's
        return []
    return table_chips_moved(
        table_id=work.table.pk,
        before=work.table_start,
        events=work.table_events,
        by=user_of(by),
    )


def _record(work: Work) -> Record:
    return Record(work.batches(), receipt(work), work.now, Feed(work.table.pk, work.table.position))


def receipt(work: Work) -> dict[str, Any]:
    """What a command's answer showed, as versions: enough to show it again."""
    hand = work.shown_hand()
    return {
        "table": work.table.pk,
        "table_version": work.table_state.version,
        "hand": None if hand is None else hand[0].pk,
        "hand_version": None if hand is None else hand[2],
        "clock": clocks.work_clock_json(work),
    }


def _first_answer(done: CommandRow, by: Any) -> dict[str, Any]:
    """The answer of a command carried out before (to its own sender:
    ``command_done`` checked).  An id a tournament command took, stored
    before digests were, has no table view to show: another command."""
    if "table" not in done.answer:
        raise CommandIdReused()
    return view_at(done.answer, user_of(by), done.recorded_at)


def _committed(work: Work) -> None:
    """Once the command committed: the hand it finished, told."""
    if not work.finished:
        return
    if kernel_clocks.in_drain():  # committed with the drain's transaction
        transaction.on_commit(lambda: _hand_finished(work))
    else:
        _hand_finished(work)


def _hand_finished(work: Work) -> None:
    """Send ``hand_finished`` for the hand ``work`` finished.  The command
    has committed and its answer stands whatever the receivers do: one
    that fails is logged, and what it missed is caught up by its own sweep."""
    table = work.table.pk
    answers = hand_finished.send_robust(sender=Work, table_id=table, config=work.table_state.config)
    for receiver, answer in answers:
        if isinstance(answer, Exception):
            log.error(
                "hand-finished receiver %r failed at table %s", receiver, table, exc_info=answer
            )


TABLE: Aggregate[Work, dict[str, Any]] = Aggregate(
    log=log,
    target="table_id",
    load=load,
    follow=_follow,
    record=_record,
    write=written,
    first_answer=_first_answer,
    refused=EngineError,
    refusal=refusal,
    busy=Busy,
    committed=_committed,
    current=current,
    inside=inside,
    view=work_view,
)
"""A table (cash or a tournament's) to ``kernel.commands.Aggregate.run``."""
