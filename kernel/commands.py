"""The one command runner: a command carried out once, all of it or nothing.

Every stream's commands (each app's own ``Aggregate``: the cash tables'
``poker.work.TABLE``, the casino's, the tournaments') go
through ``Aggregate.run``, which owns what they share: one transaction; the
command id with the digest of what it asks (a retry gets its first answer, the
same id with other content is refused); refusals as ``ApiError``s; a lost
race as the aggregate's ``busy``; the append of its events with its id and
receipt (``eventstore.appending``); the log context and metrics
(``kernel.telemetry``).  An ``Aggregate`` brings only what is its own: how
it locks and folds its streams, what follows a command by itself and the
money it moves, its appends, its read models, clocks and frames, and its
answers.

One statement for a command inside a hand.  An aggregate may also give
``current``: the work of a target as this process last wrote or read it,
held in the process (``poker.work.CURRENT``).  On PostgreSQL, in
autocommit (not inside another transaction, not ``joined``), ``run``
first acts on that work; when the aggregate's ``inside`` says the command
stays inside the running hand and moves no money between accounts, its
append, read models and clocks go as ONE statement (data-modifying CTEs,
atomic on their own): no BEGIN, no ``SELECT ... FOR UPDATE``, no COMMIT.
No lock is needed because the store's unique keys are the check: the
events take the next versions of their stream and the next positions of
their table's feed, so if any other command (of any process) wrote there
since this process's work was current, the statement hits a unique key
and fails whole, writing nothing.  Then the command runs again on the
locked path, which reads the rows under their lock (``conflict``).  A
command id seen before fails the same statement on the command's key
instead (told apart by the constraint's name), and gets its first answer.
A refusal, or a command that moves money or leaves the hand (a buy-in, a
cash-out, a hand's end with its rake, a deal), also goes the locked way:
the state it acted on might be stale, and where money moves between
accounts the accounts' rows are locked.  SQLite (the embedded default)
always takes the locked path.  ``kernel.telemetry.one_statement`` counts
each outcome (``poker_one_statement_total``).

It needs nothing but the event store (with its statements and command
rows) and the command-id refusals of ``kernel.errors``.
"""

from __future__ import annotations

import logging
import uuid
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any, Generic, TypeVar

from django.db import DatabaseError, IntegrityError, connection, transaction
from django.utils.translation import gettext as _

from kernel import telemetry
from kernel.api_errors import ApiError
from kernel.errors import CommandIdReused, CommandIdTaken
from kernel.eventstore import (
    AlreadyDone,
    Appending,
    Batch,
    Feed,
    appending,
    classify,
    command_id_clash,
    conflict,
    digest,
)
from kernel.models import Command as CommandRow
from kernel.statements import Statement

W = TypeVar("W")
"""An aggregate's unit of work: what one command read and will write."""
R = TypeVar("R")
"""What a command answers."""


@dataclass(frozen=True)
class Record:
    """What a command appends: its batches (versions as read), the receipt
    stored under its id (enough to show its answer again), when it is
    recorded, and the feed its events take positions in (if any)."""

    batches: Sequence[Batch]
    receipt: dict[str, Any]
    at: datetime
    feed: Feed | None = None


@dataclass(frozen=True)
class Aggregate(Generic[W, R]):
    """A kind of stream, with only what is its own; ``run`` is the rest."""

    log: logging.Logger
    """Its commands' log lines (``kernel.telemetry``)."""
    target: str
    """What its target id is called in the log context (``table_id``)."""
    load: Callable[[int], W]
    """Lock the target's rows and fold its streams as of the versions read."""
    follow: Callable[[W, Any], Sequence[Statement]]
    """After the command acted (``work``, ``by``): what follows by itself
    and the money it moves; the ledger's writes it leaves to go with the
    append, in its statement (refusals propagate)."""
    record: Callable[[W], Record]
    write: Callable[[W, Appending], None]
    """Run the append (``Appending``) with its read models' writes, set its
    clocks and queue its frames for the commit."""
    first_answer: Callable[[CommandRow, Any], R]
    """The answer to a retry of a command carried out before (``by`` its sender)."""
    refused: type[Exception]
    """Its rules' refusal, turned into an ``ApiError`` by ``refusal``."""
    refusal: Callable[[Any], ApiError]
    busy: type[ApiError]
    """Raised when another command wrote the same stream first."""
    committed: Callable[[W], None] | None = None
    """Told of the work once the command committed."""
    current: Callable[[int, str], W | None] | None = None
    """For a command of a kind (``target``, ``kind``) that may stay inside
    a hand: the target's work as this process last wrote or read it (taken
    out of the process's keeping: no other thread acts on the same
    objects); else None, the locked path.  See the module: one statement."""
    inside: Callable[[W], bool] | None = None
    """After the command acted on ``current``'s work: whether, with what
    follows by itself, it stays inside the running hand and moves no
    money between accounts, so that it may go as one statement."""
    view: Callable[[W, Any], R] | None = None
    """The work as a user (or None, anyone) may see it: the answer of a
    sender's command (``command``)."""

    def command(
        self,
        kind: str,
        target: int,
        by: Any,
        command_id: uuid.UUID | None,
        do: Callable[[W], None],
        /,
        **body: Any,
    ) -> R:
        """``run`` a command of ``by`` (``body``: what it asks, by name),
        answered with the work as he may see it (``shown``)."""
        return self.run(
            target,
            by=by,
            command_id=command_id,
            do=do,
            answer=lambda work: self.shown(work, by),
            kind=kind,
            body=body,
        )

    def shown(self, work: W, by: Any) -> R:
        """The work as ``by`` may see it (``view``)."""
        assert self.view is not None
        return self.view(work, user_of(by))

    def run(
        self,
        target: int,
        *,
        by: Any,
        command_id: uuid.UUID | None,
        do: Callable[[W], None],
        answer: Callable[[W], R],
        kind: str,
        body: Mapping[str, Any] | None = None,
        joined: bool = False,
    ) -> R:
        """Carry out one command on ``target``: ``do`` acts on its work, and
        ``answer`` tells the caller how it left it.

        A command id seen before gets its first answer, at no cost to the
        commands that are new: a retry that the state now refuses looks its
        id up before refusing, and one that would succeed again collides
        with its first run's Command row and rolls back.  The id is stored
        with the digest of the command's ``kind``, target and ``body`` (what
        it asks, without the id): the same id with other content is another
        command, refused (``command_id_reused``) rather than answered.
        ``joined``: the caller's transaction holds the target's lock
        already, so no savepoint of its own (a failure fails the caller's
        command whole).
        """
        with telemetry.command(kind, command_id, self.log, **{self.target: target}):
            content = None if command_id is None else digest(kind, target, body or {})
            done = None
            if not joined and self.current is not None and _autocommit_on_postgresql():
                done = self._one_statement(target, kind, by, command_id, content, do, answer)
            reply, work = done or self._attempt(target, by, command_id, content, do, answer, joined)
            if work is not None and self.committed is not None:
                self.committed(work)
            return reply

    def _one_statement(
        self,
        target: int,
        kind: str,
        by: Any,
        command_id: uuid.UUID | None,
        content: str | None,
        do: Callable[[W], None],
        answer: Callable[[W], R],
    ) -> tuple[R, W | None] | None:
        """The command as one statement in autocommit, on the work this
        process holds as current: its answer (and its work if it wrote),
        or None when it must run on the locked path (see the module)."""
        assert self.current is not None and self.inside is not None
        work = self.current(target, kind)
        if work is None:
            return None
        inside, joins = False, []
        try:
            do(work)
            inside = self.inside(work)
            joins = list(self.follow(work, by)) if inside else []
        except (self.refused, ApiError):
            pass  # judged again under the lock: the state it refused may be stale
        if not inside or joins:
            telemetry.one_statement(kind, "declined")
            return None
        ready = self._appending(work, by, command_id, content)
        try:
            self.write(work, ready)  # the one statement; frames once it succeeded
        except IntegrityError as error:
            done = command_done(command_id, by, content) if command_id_clash(error) else None
            if done is not None:  # a retry: its first answer
                telemetry.one_statement(kind, "answered")
                return self.first_answer(done, by), None
            telemetry.one_statement(kind, "conflict")
            return None
        except DatabaseError as error:
            if not conflict(error):
                raise
            telemetry.one_statement(kind, "conflict")
            return None
        telemetry.one_statement(kind, "written")
        return answer(work), work

    def _appending(
        self,
        work: W,
        by: Any,
        command_id: uuid.UUID | None,
        content: str | None,
        joins: Sequence[Statement] = (),
    ) -> Appending:
        """The append of what the command recorded, under its id and
        receipt, with ``joins`` (the ledger's writes) in its statement."""
        record = self.record(work)
        ready = appending(
            record.batches,
            command_id=command_id,
            answer=record.receipt,
            content=content,
            by=user_of(by),
            feed=record.feed,
            at=record.at,
        )
        if joins:
            ready = replace(ready, writes=[*ready.writes, *joins])
        return ready

    def _attempt(
        self,
        target: int,
        by: Any,
        command_id: uuid.UUID | None,
        content: str | None,
        do: Callable[[W], None],
        answer: Callable[[W], R],
        joined: bool,
    ) -> tuple[R, W | None]:
        """The command's transaction: its answer, and its work if it wrote."""
        try:
            with transaction.atomic(savepoint=not joined):
                work = self.load(target)
                try:
                    try:
                        do(work)
                        joins = self.follow(work, by)
                    except self.refused as error:
                        raise self.refusal(error) from error
                except ApiError:
                    done = command_done(command_id, by, content)
                    if done is None:
                        raise
                    return self.first_answer(done, by), None
                ready = self._appending(work, by, command_id, content, joins)
                self.write(work, ready)
                # After the read models are written: the answer shows the
                # rows as a retry, reading them back, will.
                reply = answer(work)
        except IntegrityError as error:
            # Joined, the caller's transaction can read nothing more: busy.
            if not joined and isinstance(classify(error, command_id), AlreadyDone):
                done = command_done(command_id, by, content)
                assert done is not None
                return self.first_answer(done, by), None
            raise self.busy() from error
        return reply, work


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


def _autocommit_on_postgresql() -> bool:
    """Whether a statement now commits by itself, on PostgreSQL: no
    transaction is open (none of the caller's, no clock drain's)."""
    return (
        connection.vendor == "postgresql"
        and not connection.in_atomic_block
        and transaction.get_autocommit()
    )


def user_of(by: Any) -> Any:
    """The authenticated user behind ``by``, or None."""
    return by if getattr(by, "is_authenticated", False) else None


def player_id(by: Any) -> str:
    """The id of the player behind ``by`` (a table's commands name him by
    it); refused (401) to anyone not logged in."""
    if user_of(by) is None:
        raise ApiError(_("Log in to play."), code="not_authenticated", status=401)
    return str(by.pk)
