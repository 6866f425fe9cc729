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
finished (``on_hand_finished``: a tournament), told in a transaction of
its own.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from accounts.tables import table_chips_moved
from kernel import clocks as kernel_clocks
from kernel import statements
from kernel.commands import Aggregate, Record, user_of
from kernel.errors import CommandIdReused
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
    TableConfig,
    TableState,
    hand_result,
    plan_hand,
    play_table,
    to_deal,
)
from poker.engine.table import TableEvent as TableEventType
from poker.engine.table.clock import Turn, turn
from poker.errors import Busy, NotFound, refusal
from poker.models import Hand, Table, hand_id
from poker.publish import publish
from poker.selectors import table_summary, view_at

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
    projections.write(work, recorded, [*ready.writes, *clocks.clock_writes(work)])
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
    return _fold(table, table.current_hand if both is not None else None)


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
# The table as an aggregate of the command runner

HandFinished = Callable[[int, TableConfig], None]
"""Told, after a table command committed, that a hand at that table (by
id, with its configuration) finished in it."""

_hand_listeners: list[HandFinished] = []


def on_hand_finished(listener: HandFinished) -> None:
    """Have ``listener`` told of every hand a table command finishes (a
    higher app registers in its ``ready``: the tables never call up into
    it, nor wait for it inside their transaction)."""
    if listener not in _hand_listeners:
        _hand_listeners.append(listener)


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
    """Tell the listeners of the hand ``work`` finished.  The command has
    committed and its answer stands whatever they do: a listener that
    fails is logged, and what it missed is caught up by its own sweep."""
    for listener in _hand_listeners:
        try:
            listener(work.table.pk, work.table_state.config)
        except Exception:
            log.exception("hand-finished listener %r failed at table %s", listener, work.table.pk)


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
)
"""A table (cash or a tournament's) to ``kernel.commands.Aggregate.run``."""
