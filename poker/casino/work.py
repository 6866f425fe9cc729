"""The unit of work at a casino table: what one command read, did and will write.

``load`` locks the table row and folds its stream and its running round's
(``casino.streams``) as of the versions read; the command acts through
``table_do`` / ``round_do``; ``settle`` plays what follows by itself (the
deal once every seated player has bet, the round's end and the seats it
frees); ``batches`` are its appends.  The dealer needs no command: the
round engine plays his part as soon as no box is to act.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from django.utils import timezone
from django.utils.translation import gettext as _

from kernel.eventstore import Batch, Recorded
from poker.casino import streams
from poker.casino.models import CasinoRound, CasinoTable, round_id
from poker.engine import casino
from poker.engine.cards import secret_seed, shuffled
from poker.engine.casino import CasinoState, Deal, Entrant
from poker.engine.casino.table import (
    BoxPaid,
    CasinoTableEvent,
    CasinoTableState,
    FinishRound,
    StartRound,
    TableCommand,
    play_table,
)
from poker.errors import NotFound


@dataclass
class RoundWork:
    """The round this command reads or deals: its row, the version read,
    the state now and the events to append."""

    row: CasinoRound
    start: int
    state: CasinoState
    events: list[casino.CasinoEvent] = field(default_factory=list)


@dataclass
class CasinoWork:
    """What one command at a casino table read and what it will write."""

    table: CasinoTable
    table_state: CasinoTableState
    round: RoundWork | None
    table_events: list[CasinoTableEvent] = field(default_factory=list)
    rounds: list[RoundWork] = field(default_factory=list)
    now: datetime = field(default_factory=timezone.now)
    dealt: bool = False
    """A round was dealt in this command (at most one a command)."""
    recorded: list[Recorded] = field(default_factory=list)
    """The events as appended, with their feed positions (the live stream's)."""
    table_start: CasinoTableState = field(init=False)

    def __post_init__(self) -> None:
        self.table_start = self.table_state
        if self.round is not None:
            self.rounds.append(self.round)

    def table_do(self, command: TableCommand) -> None:
        """Apply a table command (refusals propagate)."""
        self.table_state, events = play_table(self.table_state, command)
        self.table_events += events

    def round_do(self, command: casino.Command) -> None:
        """Apply a command to the running round (refusals propagate)."""
        assert self.round is not None
        self.round.state, events = casino.play(self.round.state, command)
        self.round.events += events

    def box_of_round(self, player: str) -> int | None:
        """The player's box in the running round (its index there), if dealt in."""
        box = self.table_state.box_of(player)
        boxes = self.table_state.round_boxes
        return boxes.index(box) if box is not None and box in boxes else None

    def settle(self) -> None:
        """What follows by itself: the round's end, then the deal when every
        seated player has bet."""
        current = self.round
        if current is not None and current.state.complete and self.table_state.round_running:
            self.table_do(FinishRound(_paid(self.table_state, current.state)))
        if self.table_state.ready:
            self.deal()

    def deal(self) -> None:
        """Deal a round to the boxes with bets (once a command)."""
        if self.dealt:
            return
        self.table_do(StartRound())
        self.dealt = True
        state = self.table_state
        number = state.round_number
        entrants = tuple(
            Entrant(state.seats[b].player, state.seats[b].held, state.seats[b].bet)
            for b in state.round_boxes
        )
        rules = state.config.rules
        deal = Deal(rules, entrants, shuffled(rules.deck), secret_seed())
        round_state, events = casino.begin(deal)
        row = CasinoRound(
            id=round_id(self.table.pk, number),
            table=self.table,
            number=number,
            boxes=list(state.round_boxes),
            players=[int(e.name) for e in entrants],
            started_at=self.now,
        )
        self.round = RoundWork(row, 0, round_state, list(events))
        self.rounds.append(self.round)

    def batches(self) -> list[Batch]:
        """The appends, table stream first."""
        out = []
        if self.table_events:
            encoded = streams.encode_table(self.table_events)
            out.append(Batch(self.table.stream, self.table.version, encoded))
        for work in self.rounds:
            if work.events:
                out.append(Batch(work.row.stream, work.start, streams.encode_round(work.events)))
        return out


def _paid(table: CasinoTableState, state: CasinoState) -> tuple[BoxPaid, ...]:
    """Each box's round in money: what the round held for it, staked and paid."""
    out = []
    for number, box in zip(table.round_boxes, state.boxes, strict=True):
        held = table.seats[number].held
        staked = held + box.won - box.stack
        out.append(BoxPaid(number, box.name, held, staked, box.won))
    return tuple(out)


def load(table_id: int) -> CasinoWork:
    """Lock the table row, then fold its stream and its running round's as
    of the versions read (the round's row is read under the table's lock:
    only a command holding that lock moves it)."""
    try:
        table = CasinoTable.objects.select_for_update().get(pk=table_id)
    except CasinoTable.DoesNotExist:
        raise NotFound(_("No such casino table.")) from None
    state = streams.tables.state(table.stream, table.version)
    current = None
    if state.round_running:
        row = CasinoRound.objects.get(pk=round_id(table.pk, state.round_number))
        current = RoundWork(row, row.version, streams.rounds.state(row.stream, row.version))
    return CasinoWork(table, state, current)
