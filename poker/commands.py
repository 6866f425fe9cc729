"""Carrying out one command at a table: all of it, once, or nothing.

``run`` is the table's write path from end to end: in one transaction it
loads the table (``work.load``: lock, fold), lets the command act on the
``Work``, settles what follows, moves a cash table's chips on the ledger
(``accounts.tables``), appends the events with the command id and its
answer (``eventstore.appending``) and writes what follows from them
(``work.written``: read models in the same statement, the next clock,
frames on commit).  Engine
refusals become ``ApiError``s with the engine's code.  Once it has
committed, whoever listens for hands that end (``on_hand_finished``: a
tournament) hears of each hand it finished, in a transaction of its own.
"""

from __future__ import annotations

import logging
import uuid
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import Any

from django.db import IntegrityError, transaction

from accounts.tables import table_chips_moved
from config import telemetry
from config.api_errors import ApiError
from kernel import clocks as kernel_clocks
from poker import clocks
from poker.engine.errors import EngineError
from poker.engine.table import TableConfig
from poker.errors import Busy, CommandIdReused, CommandIdTaken, refusal
from poker.eventstore import AlreadyDone, Feed, appending, classify, digest
from poker.models import Command as CommandRow
from poker.selectors import view_at
from poker.statements import Statement
from poker.work import Work, load, written

log = logging.getLogger(__name__)

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


@dataclass(frozen=True)
class Key:
    """A command's id and the digest of its content, stored together."""

    id: uuid.UUID | None
    content: str | None


@telemetry.observed("table_id")  # its log context (command id, table) and metrics
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
    """
    key = Key(command_id, None if command_id is None else digest(kind, table_id, body or {}))
    reply, work = _attempt(table_id, by, key, do, answer)
    if work is not None and work.finished:
        if kernel_clocks.in_drain():  # committed with the drain's transaction
            transaction.on_commit(lambda: _hand_finished(work))
        else:
            _hand_finished(work)
    return reply


def _attempt(
    table_id: int,
    by: Any,
    key: Key,
    do: Callable[[Work], None],
    answer: Callable[[Work], dict[str, Any]],
) -> tuple[dict[str, Any], Work | None]:
    """The command's transaction: its answer, and its work if it wrote."""
    try:
        with transaction.atomic():
            work = load(table_id)
            ledger_writes: list[Statement] = []  # a transfer's, run with the append
            try:
                try:
                    do(work)
                    work.settle()
                    if not work.table_state.config.is_tournament:  # its chips are the tournament's
                        table_chips_moved(
                            table_id=work.table.pk,
                            before=work.table_start,
                            events=work.table_events,
                            by=user_of(by),
                            defer=ledger_writes,
                        )
                except EngineError as error:
                    raise refusal(error) from error
            except ApiError:
                done = command_done(key.id, by, key.content)
                if done is None:
                    raise
                return _first_answer(done, by), None
            ready = appending(
                work.batches(),
                command_id=key.id,
                answer=receipt(work),
                content=key.content,
                by=user_of(by),
                feed=Feed(work.table.pk, work.table.position),
                at=work.now,
            )
            ready = replace(ready, writes=[*ready.writes, *ledger_writes])
            written(work, ready)  # the append, the ledger's and the read models: one statement
            # After the read models are written: the answer shows the rows
            # as a retry, reading them back, will (the lobby's running totals too).
            reply = answer(work)
    except IntegrityError as error:
        if isinstance(classify(error, key.id), AlreadyDone):
            done = command_done(key.id, by, key.content)
            assert done is not None
            return _first_answer(done, by), None
        raise Busy() from error
    return reply, work


def _hand_finished(work: Work) -> None:
    """Tell the listeners of the hand ``work`` finished.  The command has
    committed and its answer stands whatever they do: a listener that
    fails is logged, and what it missed is caught up by its own sweep."""
    for listener in _hand_listeners:
        try:
            listener(work.table.pk, work.table_state.config)
        except Exception:
            log.exception("hand-finished listener %r failed at table %s", listener, work.table.pk)


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
    if "table" not in done.answer:
        raise CommandIdReused()
    return view_at(done.answer, user_of(by), done.recorded_at)


def user_of(by: Any) -> Any:
    """The authenticated user behind ``by``, or None."""
    return by if getattr(by, "is_authenticated", False) else None
