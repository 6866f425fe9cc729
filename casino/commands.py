"""A casino table to the one command runner (``kernel.commands.Aggregate``;
``CASINO.run(table_id, ...)``).

What is the casino's own: lock the table and fold its streams
(``work.load``), settle what follows by itself, move the chips on the
ledger against the bankroll (``house``), its receipt, its read models
(``projections``), its next clock (``clocks``), its frames on commit
(``publish``) and the answer to a retry.
"""

from __future__ import annotations

import logging
from typing import Any

from accounts.errors import refusal
from casino import clocks, projections, publish
from casino.house import casino_money_move
from casino.models import casino_feed
from casino.selectors import casino_receipt, casino_view_at, casino_work_view
from casino.work import CasinoWork, load
from kernel import statements
from kernel.commands import Aggregate, Record, user_of
from kernel.errors import Busy, CommandIdReused
from kernel.eventstore import Appending, Feed
from kernel.models import Command as CommandRow
from poker.engine.errors import EngineError


def _follow(work: CasinoWork, by: Any) -> list[statements.Statement]:
    """What follows by itself, then the chips against the bankroll."""
    work.settle()
    casino_money_move(work, by=user_of(by))
    return []


def _record(work: CasinoWork) -> Record:
    feed = Feed(casino_feed(work.table.pk), work.table.position)
    return Record(work.batches(), casino_receipt(work), work.now, feed)


def _write(work: CasinoWork, ready: Appending) -> None:
    """The append with the read models' and the clock's writes in one
    statement, then (on commit) the frames."""
    work.recorded = ready.recorded
    projections.write(work, [*ready.writes, *clocks.clock_writes(work)], ready.using)
    publish.after_commit(work)


def _first_answer(done: CommandRow, by: Any) -> dict[str, Any]:
    """The answer of a command carried out before: the table as it left it.
    An id a pot table's command took is another command."""
    if "casino_table" not in done.answer:
        raise CommandIdReused()
    return casino_view_at(done.answer, user_of(by))


CASINO: Aggregate[CasinoWork, dict[str, Any]] = Aggregate(
    log=logging.getLogger(__name__),
    target="table_id",
    load=load,
    follow=_follow,
    record=_record,
    write=_write,
    first_answer=_first_answer,
    refused=EngineError,
    refusal=refusal,
    busy=Busy,
    view=casino_work_view,
)
"""A casino table to ``kernel.commands.Aggregate.run``."""
