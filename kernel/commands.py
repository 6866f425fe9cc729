"""The one command runner: a command carried out once, all of it or nothing.

Every stream's commands (cash tables: ``poker.work.TABLE``; casino tables:
``poker.casino.commands.CASINO``; tournaments: ``tournaments.work``) go
through ``Aggregate.run``, which owns what they share: one transaction; the
command id with the digest of what it asks (a retry gets its first answer, the
same id with other content is refused); refusals as ``ApiError``s; a lost
race as the aggregate's ``busy``; the append of its events with its id and
receipt (``eventstore.appending``); the log context and metrics
(``kernel.telemetry``).  An ``Aggregate`` brings only what is its own: how
it locks and folds its streams, what follows a command by itself and the
money it moves, its appends, its read models, clocks and frames, and its
answers.

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

from django.db import IntegrityError, transaction

from kernel import telemetry
from kernel.api_errors import ApiError
from kernel.errors import CommandIdReused, CommandIdTaken
from kernel.eventstore import AlreadyDone, Appending, Batch, Feed, appending, classify, digest
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
            reply, work = self._attempt(target, by, command_id, content, do, answer, joined)
            if work is not None and self.committed is not None:
                self.committed(work)
            return reply

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
                if joins:  # the ledger's writes go in the append's statement
                    ready = replace(ready, writes=[*ready.writes, *joins])
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


def user_of(by: Any) -> Any:
    """The authenticated user behind ``by``, or None."""
    return by if getattr(by, "is_authenticated", False) else None
