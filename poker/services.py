"""The write side of the cash tables: every command, as one transaction.

A command locks its table row, folds the table's and the running hand's
streams (``streams``), asks the engines to decide, appends the events with
the versions it read (``eventstore``), rewrites the read models from the new
states (``projections``) and stores its answer under the command id, all in
one transaction.  What follows by itself is done in the same command: a
leaving player's hand is folded when his turn comes, a finished hand is
settled on the table and the next hand is dealt.

Services take keyword arguments and raise ``ApiError`` subclasses: engine
refusals keep their code.
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
from poker.engine.cards import Card, card, shuffled
from poker.engine.commands import Act, Action, Command, Forfeit
from poker.engine.errors import EngineError, ErrorCode
from poker.engine.events import Event as HandEvent
from poker.engine.hand import begin, play
from poker.engine.rules import AnteBy, Betting, Game, Rules, TieBreak
from poker.engine.state import HandState, Phase
from poker.engine.table import (
    Close,
    Leave,
    Sit,
    SitIn,
    SitOut,
    StartHand,
    TableCommand,
    TableConfig,
    TableState,
    TopUp,
    hand_result,
    open_table,
    plan_hand,
    play_table,
    replay_table,
    to_deal,
)
from poker.engine.table import TableEvent as TableEventType
from poker.eventstore import AlreadyDone, Batch, append, classify
from poker.models import Command as CommandRow
from poker.models import Hand, Table, hand_id

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

    def __post_init__(self) -> None:
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

    A command id seen before gets its first answer.  The check runs under
    the table lock, so a retry racing its first run waits for it and then
    finds its answer; the Command row's primary key backs that up.
    """
    try:
        with transaction.atomic():
            work = _load(table_id)
            if command_id is not None:
                stored = CommandRow.objects.filter(id=command_id).first()
                if stored is not None:
                    return _stored_answer(stored.answer, stored.by_id, by)
            try:
                do(work)
                work.settle()
            except EngineError as error:
                raise refusal(error) from error
            reply = answer(work)
            recorded = append(work.batches(), command_id=command_id, answer=reply, by=_user(by))
            projections.write(work, recorded)
    except IntegrityError as error:
        outcome = classify(error, command_id)
        if isinstance(outcome, AlreadyDone):
            stored = CommandRow.objects.get(id=command_id)
            return _stored_answer(stored.answer, stored.by_id, by)
        raise Busy() from error
    return reply


def _stored_answer(answer: dict[str, Any], owner: int | None, by: Any) -> dict[str, Any]:
    user = _user(by)
    if owner is not None and (user is None or user.pk != owner):
        raise CommandIdTaken()
    return answer


def _user(by: Any) -> Any:
    return by if getattr(by, "is_authenticated", False) else None


def _load(table_id: int) -> Work:
    """Lock the table row and fold its streams as of the versions read."""
    table = Table.objects.select_for_update().filter(pk=table_id).first()
    if table is None:
        raise NotFound()
    table_state = streams.tables.state(table.stream, table.version)
    hand = None
    if table_state.hand_running:
        row = Hand.objects.get(pk=hand_id(table.pk, table_state.hand_number))
        hand = HandWork(row, row.version, streams.hands.state(row.stream, row.version))
    return Work(table, table_state, hand)


# --------------------------------------------------------------------------
# Tables


def table_create(
    *,
    by: Any,
    name: str,
    game: str,
    betting: str,
    small_blind: int,
    big_blind: int,
    ante: int = 0,
    ante_by: str = "all",
    tie_break: str = "suit",
    seats: int | None = None,
    min_buy_in: int | None = None,
    max_buy_in: int | None = None,
    action_seconds: int = 30,
    draw_seconds: int = 30,
) -> Table:
    """Open a cash table (staff only)."""
    if not getattr(by, "is_staff", False):
        raise Forbidden("Only staff open tables.")
    try:
        rules = Rules(
            Game(game),
            Betting(betting),
            small_blind,
            big_blind,
            ante,
            AnteBy(ante_by),
            TieBreak(tie_break),
        )
        low, high = TableConfig.default_buy_ins(rules)
        config = TableConfig(
            rules,
            rules.variant.max_players if seats is None else seats,
            low if min_buy_in is None else min_buy_in,
            high if min_buy_in is None and max_buy_in is None else max_buy_in,
            name=name,
            action_seconds=action_seconds,
            draw_seconds=draw_seconds,
        )
        events = open_table(config)
    except ValueError as error:
        raise ApiError(str(error), code="invalid") from error
    except EngineError as error:
        raise refusal(error) from error
    with transaction.atomic():
        table = Table.objects.create(**projections.config_fields(config))
        recorded = append([Batch(table.stream, 0, streams.encode_table(events))], by=_user(by))
        at = recorded[-1].recorded_at
        projections.write_table(table, replay_table(events), at, opened=at)
    return table


def table_close(*, by: Any, table_id: int, command_id: uuid.UUID | None = None) -> dict[str, Any]:
    """Close a table between hands: everyone leaves with his chips (staff only)."""
    if not getattr(by, "is_staff", False):
        raise Forbidden("Only staff close tables.")
    return run(
        table_id,
        by=by,
        command_id=command_id,
        do=lambda w: w.table_do(Close()),
        answer=_answer_for(by),
    )


# --------------------------------------------------------------------------
# Seats


def _seat_of(work: Work, by: Any) -> int:
    seat = work.table_state.seat_of(_player_id(by))
    if seat is None:
        raise ApiError("You do not sit at this table.", code="not_seated", status=409)
    return seat


def _player_id(by: Any) -> str:
    if _user(by) is None:
        raise ApiError("Log in to play.", code="not_authenticated", status=401)
    return str(by.pk)


def seat_sit(
    *,
    by: Any,
    table_id: int,
    seat: int,
    buy_in: int,
    wait_for_big_blind: bool = False,
    command_id: uuid.UUID | None = None,
) -> dict[str, Any]:
    """Take a seat with a buy-in; dealt in at once by posting, or on the big blind."""
    player = _player_id(by)
    return run(
        table_id,
        by=by,
        command_id=command_id,
        do=lambda w: w.table_do(Sit(seat, player, buy_in, wait_for_big_blind)),
        answer=_answer_for(by),
    )


def seat_leave(*, by: Any, table_id: int, command_id: uuid.UUID | None = None) -> dict[str, Any]:
    """Leave with the stack.  During a hand he is in, his hand is folded at
    once (an all-in hand, or one at Parole or showdown, plays on by itself)
    and he leaves with what he has when the hand ends."""

    def do(work: Work) -> None:
        seat = _seat_of(work, by)
        work.table_do(Leave(seat))
        hand = work.hand
        if hand is None or seat not in work.table_state.hand_seats:
            return
        position = work.table_state.hand_seats.index(seat)
        player = hand.state.players[position]
        foldable = hand.state.phase in (Phase.BETTING, Phase.DRAW)
        if foldable and player.in_hand and player.stack > 0:
            work.hand_do(Forfeit(position))

    return run(table_id, by=by, command_id=command_id, do=do, answer=_answer_for(by))


def seat_top_up(
    *, by: Any, table_id: int, amount: int, command_id: uuid.UUID | None = None
) -> dict[str, Any]:
    """Add chips (queued until the end of a hand he is in)."""
    return run(
        table_id,
        by=by,
        command_id=command_id,
        do=lambda w: w.table_do(TopUp(_seat_of(w, by), amount)),
        answer=_answer_for(by),
    )


def seat_sit_out(*, by: Any, table_id: int, command_id: uuid.UUID | None = None) -> dict[str, Any]:
    """Sit out from the next hand on."""
    return run(
        table_id,
        by=by,
        command_id=command_id,
        do=lambda w: w.table_do(SitOut(_seat_of(w, by))),
        answer=_answer_for(by),
    )


def seat_sit_in(
    *,
    by: Any,
    table_id: int,
    wait_for_big_blind: bool = False,
    command_id: uuid.UUID | None = None,
) -> dict[str, Any]:
    """Come back: post what is owed, or wait for the big blind."""
    return run(
        table_id,
        by=by,
        command_id=command_id,
        do=lambda w: w.table_do(SitIn(_seat_of(w, by), wait_for_big_blind)),
        answer=_answer_for(by),
    )


# --------------------------------------------------------------------------
# Acting in a hand


def hand_act(
    *,
    by: Any,
    table_id: int,
    hand: str,
    version: int,
    action: str,
    amount: int | None = None,
    cards: Sequence[str] = (),
    command_id: uuid.UUID | None = None,
) -> dict[str, Any]:
    """One action of the player in his seat, at the hand version he saw."""
    try:
        verb = Action(action)
        thrown = tuple(card(c) for c in cards)
    except ValueError as error:
        raise ApiError(str(error), code="malformed") from error

    def do(work: Work) -> None:
        seat = _seat_of(work, by)
        if work.hand is None or work.hand.row.pk != hand:
            raise ApiError("That hand is not running at this table.", code="not_found", status=404)
        if version != work.hand.row.version:
            raise StaleVersion(extra={"current": _answer_for(by)(work)})
        seats = work.table_state.hand_seats
        if seat not in seats:
            raise ApiError("You are not in this hand.", code="not_in_hand", status=409)
        work.hand_do(Act(seats.index(seat), verb, amount=amount, cards=thrown))

    return run(table_id, by=by, command_id=command_id, do=do, answer=_answer_for(by))


def _answer_for(by: Any) -> Callable[[Work], dict[str, Any]]:
    from poker.selectors import work_view

    return lambda work: work_view(work, _user(by))


def cards_of(codes: Sequence[str]) -> tuple[Card, ...]:
    """Card codes from a client, or a malformed-input error."""
    try:
        return tuple(card(c) for c in codes)
    except ValueError as error:
        raise ApiError(str(error), code="malformed") from error
