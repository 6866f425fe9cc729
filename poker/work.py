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
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.db import IntegrityError, transaction

from config.api_errors import ApiError
from poker import projections, streams
from poker.engine.betting import legal_actions
from poker.engine.cards import shuffled
from poker.engine.commands import Act, Action, Command
from poker.engine.errors import EngineError, ErrorCode
from poker.engine.events import Event as HandEvent
from poker.engine.hand import begin, play
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
from poker.eventstore import AlreadyDone, Batch, Feed, append, classify
from poker.models import Command as CommandRow
from poker.models import Hand, Table, hand_id
from poker.publish import publish

# --------------------------------------------------------------------------
# Errors


class NotFound(ApiError):
    status = 404
    code = "not_found"
    message = "No such table or hand."


class Forbidden(ApiError):
    status = 403
    code = "forbidden"
    message = "You may not do that."


class StaleVersion(ApiError):
    status = 409
    code = "stale_version"
    message = "The hand has moved on since the version you saw."


class Busy(ApiError):
    status = 409
    code = "conflict"
    message = "Another command changed the table at the same moment; try again."


class CommandIdTaken(ApiError):
    status = 409
    code = "command_id_taken"
    message = "This command id was used by someone else."


_STATUS = {
    ErrorCode.OUT_OF_TURN: 409,
    ErrorCode.ILLEGAL_ACTION: 409,
    ErrorCode.SEAT_TAKEN: 409,
    ErrorCode.TABLE_CLOSED: 409,
    ErrorCode.NOT_SEATED: 409,
}


def refusal(error: EngineError) -> ApiError:
    """An engine refusal as an API error with the same code."""
    return ApiError(error.message, code=error.code.value, status=_STATUS.get(error.code, 400))


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


@dataclass
class Work:
    """What one command read and what it will write."""

    table: Table
    table_state: TableState
    hand: HandWork | None
    table_events: list[TableEventType] = field(default_factory=list)
    hands: list[HandWork] = field(default_factory=list)
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
            elif not self._deal_next():
                return

    def _deal_next(self) -> bool:
        plan = plan_hand(self.table_state)
        if plan is None:
            return False
        self.table_do(StartHand())
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


def _autopilot(work: Work) -> Command | None:
    """The command a player who is leaving makes by himself when his turn
    comes (check or fold, stand pat, refuse Parole, show), else None."""
    assert work.hand is not None
    legal = legal_actions(work.hand.state)
    if legal is None:
        return None
    seat = work.table_state.hand_seats[legal.player]
    leaving = work.table_state.seats.get(seat)
    if leaving is None or not leaving.leaving:
        return None
    return Act(legal.player, passive_action(legal.actions))


def passive_action(actions: Sequence[Action]) -> Action:
    """The least committal of the legal actions."""
    for action in (Action.CHECK, Action.FOLD, Action.STAND, Action.DECLINE, Action.SHOW):
        if action in actions:
            return action
    return actions[0]


def run(
    table_id: int,
    *,
    by: Any,
    command_id: uuid.UUID | None,
    do: Callable[[Work], None],
    answer: Callable[[Work], dict[str, Any]],
) -> dict[str, Any]:
    """Carry out one command on a table: all of it, once, or nothing.

    A command id seen before gets its first answer, at no cost to the
    commands that are new: a retry that the state now refuses (the hand has
    moved on) looks its id up before refusing, and one that would succeed
    again collides with its first run's Command row and rolls back.  Both
    happen under the table lock, after the first run committed.
    """
    try:
        with transaction.atomic():
            work = _load(table_id)
            try:
                try:
                    do(work)
                    work.settle()
                except EngineError as error:
                    raise refusal(error) from error
            except ApiError:
                done = _done(command_id)
                if done is None:
                    raise
                return _first_answer(done, by)
            reply = answer(work)
            recorded = append(
                work.batches(),
                command_id=command_id,
                answer=receipt(work),
                by=user_of(by),
                feed=Feed(work.table.pk, work.table.position),
            )
            projections.write(work, recorded)
            names = {h.row.stream: [p.name for p in h.state.players] for h in work.hands}
            seated = {n: s.player for n, s in work.table_start.seats.items()}
            seated |= {n: s.player for n, s in work.table_state.seats.items()}
            transaction.on_commit(lambda: publish(work.table.pk, recorded, names, seated))
    except IntegrityError as error:
        if isinstance(classify(error, command_id), AlreadyDone):
            done = _done(command_id)
            assert done is not None
            return _first_answer(done, by)
        raise Busy() from error
    return reply


def receipt(work: Work) -> dict[str, Any]:
    """What a command's answer showed, as versions: enough to show it again."""
    hand = work.shown_hand()
    return {
        "table": work.table.pk,
        "table_version": work.table_state.version,
        "hand": None if hand is None else hand[0].pk,
        "hand_version": None if hand is None else hand[2],
    }


def _done(command_id: uuid.UUID | None) -> CommandRow | None:
    if command_id is None:
        return None
    return CommandRow.objects.filter(id=command_id).first()


def _first_answer(done: CommandRow, by: Any) -> dict[str, Any]:
    """The answer of a command carried out before, to its own sender only."""
    from poker.selectors import view_at

    user = user_of(by)
    if done.by_id is not None and (user is None or user.pk != done.by_id):
        raise CommandIdTaken()
    return view_at(done.answer, user)


def user_of(by: Any) -> Any:
    """The authenticated user behind ``by``, or None."""
    return by if getattr(by, "is_authenticated", False) else None


def _load(table_id: int) -> Work:
    """Lock the table row, then fold its streams as of the versions read.

    The hand row is read in a statement of its own after the lock is held:
    a join in the locking statement would show it as it was before the
    command this one queued behind committed (READ COMMITTED re-reads only
    the locked row).
    """
    try:
        table = Table.objects.select_for_update().get(pk=table_id)
    except Table.DoesNotExist:
        raise NotFound() from None
    table_state = streams.tables.state(table.stream, table.version)
    hand = None
    if table_state.hand_running:
        row = Hand.objects.get(pk=hand_id(table.pk, table_state.hand_number))
        hand = HandWork(row, row.version, streams.hands.state(row.stream, row.version))
    return Work(table, table_state, hand)
