"""Carrying out one command at a casino table: all of it, once, or nothing.

The pot tables' path (``poker.commands.run``) for a casino table: in one
transaction, lock the table and fold its streams (``work.load``), let the
command act, settle what follows by itself, move the chips on the ledger
against the bankroll (``house``), append the events with the command's id,
content digest and receipt (``poker.eventstore.append``), rewrite the read
models (``projections``) and set the next clock (``clocks``).  A refusal,
the engine's (``poker.errors.refusal``) or the service's, rolls the whole
transaction back and writes nothing; a command id carried out before gets
its first answer (``poker.commands.command_done``: the same sender and
the same content, else refused), a stale version is a conflict.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Mapping
from typing import Any

from django.db import IntegrityError, transaction

from config import telemetry
from config.api_errors import ApiError
from poker.casino import clocks, projections, publish
from poker.casino.house import casino_money_move
from poker.casino.models import casino_feed
from poker.casino.selectors import casino_receipt, casino_view_at
from poker.casino.work import CasinoWork, load
from poker.commands import command_done, user_of
from poker.engine.errors import EngineError
from poker.errors import Busy, CommandIdReused, refusal
from poker.eventstore import AlreadyDone, Feed, append, classify, digest
from poker.models import Command as CommandRow


@telemetry.observed("table_id")  # its log context (command id, table) and metrics
def run(
    table_id: int,
    *,
    by: Any,
    command_id: uuid.UUID | None,
    do: Callable[[CasinoWork], None],
    answer: Callable[[CasinoWork], dict[str, Any]],
    kind: str,
    body: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """Carry out one command on a casino table: all of it, once, or nothing.

    ``kind`` and ``body`` (what the command asks, without its id) make the
    digest stored with the id, so the same id with other content is refused
    (``command_id_reused``) rather than answered.
    """
    content = None if command_id is None else digest(kind, table_id, body or {})
    try:
        with transaction.atomic():
            work = load(table_id)
            try:
                do(work)
                work.settle()
            except EngineError as error:
                raise refusal(error) from error
            casino_money_move(work, by=user_of(by))
            work.recorded = append(
                work.batches(),
                command_id=command_id,
                answer=casino_receipt(work),
                content=content,
                by=user_of(by),
                feed=Feed(casino_feed(table_id), work.table.position),
                at=work.now,
            )
            projections.write(work)
            reply = answer(work)
            clocks.schedule(work)
            publish.after_commit(work)
    except ApiError:
        # Nothing was written.  A retry of a command carried out before
        # (which the table now refuses) gets its first answer.
        done = command_done(command_id, by, content)
        if done is None:
            raise
        return _first_answer(done, by)
    except IntegrityError as error:
        if isinstance(classify(error, command_id), AlreadyDone):
            done = command_done(command_id, by, content)
            assert done is not None
            return _first_answer(done, by)
        raise Busy() from error
    return reply


def _first_answer(done: CommandRow, by: Any) -> dict[str, Any]:
    """The answer of a command carried out before: the table as it left it.
    An id a pot table's command took is another command."""
    if "casino_table" not in done.answer:
        raise CommandIdReused()
    return casino_view_at(done.answer, user_of(by))
