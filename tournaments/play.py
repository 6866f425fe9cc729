"""A tournament's tables on the table service: opening, seating, dealing,
moving, closing.

Every tournament command's follow-up (``carry_out``, from
``work.follow_up``) turns what the rules decided into table commands
in the same transaction: ``Seated`` seats a player (opening his table when
it is new), ``Eliminated`` and ``Disqualified`` unseat, ``PlayerMoved``
unseats at one table and seats at the other with the chips he took, a
``FinalTableDrawn`` unseats everyone and seats the final table (its
``ButtonDrawn`` starts it afresh from the drawn button), rebuys and
add-ons add chips, and a broken table or the end of play closes tables.
Then every table the tournament allows deals (``deal``).

The tables' work is one ``poker.work.Unit`` (a ``work.Tables``): the
tournament row is locked first (by the tournament command), then the
tables as they are needed; the unit keeps the row and the tournament's
state current through the reports run on it, which read neither again.

A hand's end comes back up the other way without the tables calling into
the tournament: a player's command at a tournament table commits at that
table alone, and then (``poker.work.hand_finished``, registered in
``TournamentsConfig.ready``) ``hand_over`` runs a tournament command of
its own: the tournament row locked, then the table, the hand reported
with the table's final stacks (``_report_ended``), what the tournament
decided carried out, and deals.  A report lost between the two commits
(the process died) is made by the deal sweep, which finds the table
between hands with its pause over.

The pause between hands: a table whose hand just ended deals again by a
deal clock (``set_deal_timer``, a kernel clock of ``tournaments.clocks``)
at the end of its ``pause_seconds``; without timers it deals at once.  A
command deals at most one hand at a table (``Work.dealt``): a hand that
ended as it was dealt leaves the next to a deal timer, even with no pause.
"""

from __future__ import annotations

import contextlib
import copy
import uuid
from collections.abc import Callable, Mapping
from dataclasses import replace
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from kernel.clocks import SWEEP_GRACE_SECONDS
from kernel.eventstore import Batch, Feed, append
from kernel.system_ids import command_id_for
from poker import projections as table_projections
from poker import streams
from poker.engine.commands import Forfeit
from poker.engine.errors import EngineError
from poker.engine.showdown import pots
from poker.engine.state import HandState
from poker.engine.table import (
    AddChips,
    Close,
    DrawButton,
    Seat,
    TableConfig,
    Unseat,
    open_table,
    replay_table,
)
from poker.engine.table.config import setting
from poker.engine.table.events import HandBegan, UnseatReason
from poker.engine.table.state import SeatState
from poker.models import Table, hand_id, hand_stream
from poker.publish import publish
from poker.work import Unit, Work
from tournaments import payments, timing
from tournaments.models import Tournament
from tournaments.rules import (
    AddedOn,
    ButtonDrawn,
    Cancelled,
    DisqualificationQueued,
    Disqualified,
    Eliminated,
    FinalTableDrawn,
    Finished,
    PlayerMoved,
    PotResult,
    Rebought,
    Seated,
    Status,
    TableBroken,
    TournamentState,
    can_start_hand,
    evolve,
    tables_to_deal,
)
from tournaments.rules import queries as q
from tournaments.rules.structure import MINUTE
from tournaments.tables import tournament_hand_finish, tournament_hand_start
from tournaments.work import Outcome, Tables, hold


def command_id(stream: str, what: str) -> uuid.UUID:
    """The id of a table's report about a hand (``start`` or ``finish``):
    one of the room's own ids (``kernel.system_ids``), so no player's
    command can take it."""
    return command_id_for(f"report {stream}:{what}")


# --------------------------------------------------------------------------
# After every tournament command


def carry_out(outcome: Outcome, unit: Unit | None = None) -> None:
    """In the tournament command's transaction: its events at the tables,
    then a deal wherever one is allowed.  Inside a hand report the tables'
    ``unit`` the report runs in carries the work; otherwise a unit of its
    own is appended here."""
    if not getattr(settings, "TOURNAMENT_TABLES", True):
        return  # the tables are driven from outside (tests of the rules' service)
    if unit is not None:
        apply(unit, outcome)
        return
    if not outcome.state.tables and not outcome.before.tables:
        return  # no tables yet, none to close
    # The outcome's row stays as written; its command posts its reports' transfers.
    unit = Tables(copy.copy(outcome.row), outcome.state, outcome.pending)
    _standalone(outcome.row.pk, unit, lambda: apply(unit, outcome), outcome.before)


def _standalone(
    tournament: int, unit: Tables, first: Callable[[], object], start: TournamentState
) -> None:
    """Table work of a tournament command of its own (the tournament row
    locked already): ``first``, then play on, appended here, and the
    transaction's transfers posted (the command's and its reports', their
    accounts locked at once: ``payments.settle``).  ``start``: the
    tournament as the transaction found it."""
    first()
    _play_on(tournament, unit, start)
    unit.append(timezone.now())
    payments.settle(unit.pending)


def _play_on(tournament: int, unit: Tables, start: TournamentState) -> None:
    """Until no table has news: settle every table, report each hand that
    ended, deal where allowed.  A table deals at most once a command
    (``Work.dealt``), so this ends."""
    unit.settle()
    _report_ended(tournament, unit)
    while True:
        deal(tournament, unit, start)
        unit.settle()
        if not _report_ended(tournament, unit):
            return


def hand_over(sender: Any, table_id: int, config: TableConfig, **_: Any) -> None:
    """A command at a table finished a hand there and committed: if it is a
    tournament's table, the tournament hears of it (the receiver of
    ``poker.work.hand_finished``, connected in ``TournamentsConfig.ready``)."""
    if config.tournament is None or not getattr(settings, "TOURNAMENT_TABLES", True):
        return
    catch_up(config.tournament, [table_id])


def catch_up(tournament_id: int, table_ids: list[int]) -> None:
    """Lock the tournament, then these of its tables: report the hands that
    ended there, carry out what follows, deal where the pause is over (a
    deal timer, a sweep or a hand over; nothing to do is no error)."""
    with transaction.atomic():
        unit = hold(tournament_id)
        if unit is None:
            return
        start = unit.state
        _standalone(
            tournament_id, unit, lambda: [unit.table(pk) for pk in sorted(table_ids)], start
        )


def deal_due(*, tournament_id: int) -> None:
    """A deal timer fired: deal wherever the pause is over and the rules
    allow (a timer may fire twice: then there is nothing to do)."""
    catch_up(tournament_id, [])


def sweep_deals(late: datetime) -> None:
    """Catch up the running tournaments with a table between hands whose
    pause ended before ``late``: its deal timer lost, or the report of its
    last hand (the process died between the table's commit and the
    tournament's).  A table's ``next_hand_at`` stays set while its next
    hand runs: such tables are left out, or every sweep would lock every
    running tournament."""
    running = Tournament.objects.filter(
        status=Tournament.Status.RUNNING, clock_running=True
    ).values_list("pk", flat=True)  # paused: no table deals
    due = (
        Table.objects.filter(tournament__in=list(running), next_hand_at__lt=late)
        .exclude(status=Table.Status.CLOSED)
        .exclude(hands__ended_at__isnull=True)
        .values_list("tournament", "pk")
    )
    tables: dict[int, list[int]] = {}
    for tournament, pk in due:
        if tournament is not None:
            tables.setdefault(tournament, []).append(pk)
    for tournament in sorted(tables):
        catch_up(tournament, tables[tournament])


def sweep_late() -> None:
    """Beat's sweep (``tasks``, ``clocks.sweep``): the tables whose pause
    ended longer ago than the kernel's grace for a lost clock."""
    if getattr(settings, "TOURNAMENT_TABLES", True):
        sweep_deals(timing.now() - timedelta(seconds=SWEEP_GRACE_SECONDS))


def _deal_later(work: Work) -> datetime | None:
    """When a deal timer is to deal at the table, if this command may not
    (None: deal now): while the pause after its last hand lasts, and at
    once, but in a command of its own, when this command dealt there
    already (a hand that ended as it was dealt: a table of away players is
    blinded off one committed hand a pause).  Without timers
    (``CLOCKS_ENABLED`` off) no pause."""
    if not settings.CLOCKS_ENABLED:
        return None
    due = work.pause_ends()
    if work.dealt:
        return max(due or work.now, work.now)
    return due if due is not None and work.now < due else None


def set_deal_timer(tournament_id: int, when: datetime) -> None:
    """Set a deal for ``when`` (the end of a table's pause), in the
    command's transaction (``tournaments.clocks``)."""
    from tournaments.clocks import set_deal_timer as deal_clock_set

    deal_clock_set(tournament_id, when)


def apply(unit: Unit, outcome: Outcome) -> None:
    """The outcome's events as table commands (closes last)."""
    tournament = outcome.row.pk
    state = outcome.before
    closing: set[int] = set()
    for event in outcome.events:
        _event(unit, tournament, state, event, closing)
        state = evolve(state, event)
    for number in sorted(closing):
        work = _work(unit, tournament, number, outcome.state)
        if not (work.table_state.closed or work.table_state.closing):
            with contextlib.suppress(EngineError):  # closed already
                work.table_do(Close())


def _event(
    unit: Unit, tournament: int, state: TournamentState, event: object, closing: set[int]
) -> None:
    if isinstance(event, Seated):
        work = _work(unit, tournament, event.table, state)
        work.table_do(Seat(event.seat, event.player, event.stack))
    elif isinstance(event, Eliminated | Disqualified):
        entrant = state.entrants[event.player]
        if entrant.table is None or entrant.seat is None:
            return
        work = _work(unit, tournament, entrant.table, state)
        if work.table_state.seats.get(entrant.seat) is None:
            return
        reason = UnseatReason.BUSTED if isinstance(event, Eliminated) else UnseatReason.DISQUALIFIED
        work.table_do(Unseat(entrant.seat, reason))
    elif isinstance(event, DisqualificationQueued):
        _forfeit(unit, tournament, state, event.player)
    elif isinstance(event, PlayerMoved):
        old = _work(unit, tournament, event.from_table, state)
        new = _work(unit, tournament, event.table, state)
        held = old.table_state.seats[event.from_seat]
        old.table_do(Unseat(event.from_seat, UnseatReason.MOVED))
        new.table_do(_moved_in(event.seat, held))
    elif isinstance(event, FinalTableDrawn):
        seats: dict[str, SeatState] = {}
        for number in sorted(state.tables):
            work = _work(unit, tournament, number, state)
            for seat, held in sorted(work.table_state.seats.items()):
                seats[held.player] = held
                work.table_do(Unseat(seat, UnseatReason.MOVED))
        final = _work(unit, tournament, event.table, state)
        for placed in event.seats:
            final.table_do(_moved_in(placed.seat, seats[placed.player]))
        closing.update(n for n in state.tables if n != event.table)
    elif isinstance(event, ButtonDrawn):
        _work(unit, tournament, event.table, state).table_do(DrawButton(event.seat))
    elif isinstance(event, TableBroken):
        closing.add(event.table)
    elif isinstance(event, Rebought | AddedOn):
        entrant = state.entrants[event.player]
        if entrant.table is None or entrant.seat is None:
            return
        work = _work(unit, tournament, entrant.table, state)
        work.table_do(AddChips(entrant.seat, event.chips))
    elif isinstance(event, Finished | Cancelled):
        closing.update(_open_numbers(tournament))


def _moved_in(seat: int, held: SeatState) -> Seat:
    """A moved player sits down with everything that was his at the seat
    he left: his chips, being away, what is left of his time bank (a move
    must neither bring an away player back nor refill his bank)."""
    return Seat(seat, held.player, held.stack, held.sitting_out, held.bank)


def _forfeit(unit: Unit, tournament: int, state: TournamentState, player: str) -> None:
    """A player disqualified during his hand folds it at once."""
    entrant = state.entrants[player]
    if entrant.table is None:
        return
    work = _work(unit, tournament, entrant.table, state)
    if work.hand is None or work.hand.state.complete:
        return
    seats = work.table_state.hand_seats
    if entrant.seat not in seats:
        return
    with contextlib.suppress(EngineError):  # all in: his hand plays on to the showdown
        work.hand_do(Forfeit(seats.index(entrant.seat)))


# --------------------------------------------------------------------------
# Dealing


def deal(tournament: int, unit: Tables, start: TournamentState) -> None:
    """Deal at every table of the tournament the rules let deal now
    (``tables_to_deal``) whose pause is over.  Only those are locked: a
    field of hundreds has a table or two to deal after a hand, not
    hundreds.  A table of the unit (locked already) deals, or sets its
    deal timer (``_deal_at``).  Any other table still in its pause is left
    alone: the command that ended its hand set its deal timer, unless the
    rules held the table back then and let it deal only now (it could not
    deal at ``start``, the tournament as this transaction found it: a
    break over, a hand-for-hand round done): its timer is set here."""
    state = unit.current()
    numbers = tables_to_deal(state)
    pausing = _pausing(tournament, unit, numbers)
    held: set[int] | None = None
    dealt = False
    for number in numbers:
        due = pausing.get(number)
        if due is not None:
            held = set(tables_to_deal(start)) if held is None else held
            if number not in held:
                set_deal_timer(tournament, due)
            continue
        if dealt and not can_start_hand(state, number):
            continue  # hand-for-hand: the hand just dealt makes it wait
        _deal_at(tournament, unit, state, number)  # reports the hand: a new version
        state, dealt = unit.current(), True


def _pausing(tournament: int, unit: Unit, numbers: list[int]) -> dict[int, datetime]:
    """When the pause ends at each of these tables that is not in ``unit``
    and still in its pause (its row read, not locked: its pause ends when
    its last hand did, which committed before this command saw the hand
    over).  Without timers (``CLOCKS_ENABLED`` off) no pause."""
    locked = {w.table_state.config.tournament_table for w in unit.works.values()}
    others = [n for n in numbers if n not in locked]
    if not others or not settings.CLOCKS_ENABLED:
        return {}
    now = timezone.now()
    rows = (
        Table.objects.filter(
            tournament=tournament, tournament_table__in=others, next_hand_at__gt=now
        )
        .exclude(status=Table.Status.CLOSED)
        .values_list("tournament_table", "next_hand_at")
    )
    return {n: due for n, due in rows if n is not None and due is not None}


def _deal_at(tournament: int, unit: Unit, state: TournamentState, number: int) -> None:
    work = _work(unit, tournament, number, state)
    if work.table_state.hand_running:
        return
    due = _deal_later(work)
    if due is not None:
        set_deal_timer(tournament, due)
        return
    rules = state.definition.rules_at(q.level(state))
    if not work.deal(rules):
        return
    began = next(e for e in reversed(work.table_events) if isinstance(e, HandBegan))
    assert work.hand is not None
    tournament_hand_start(
        tournament_id=tournament,
        table=number,
        big_blind=began.big,
        over_blind=began.over,
        seats=began.dealt_in,
        command_id=command_id(work.hand.row.stream, "start"),
        unit=unit,
    )


# --------------------------------------------------------------------------
# A hand over


def _report_ended(tournament: int, unit: Tables) -> bool:
    """Report every hand the tournament thinks running at a table of
    ``unit`` that is over there, with the table's final stacks, and carry
    out what the tournament decided; whether any was."""
    reported = False
    state = unit.current()
    for work in list(unit.works.values()):
        if state.status is not Status.RUNNING:
            return reported
        number = work.table_state.config.tournament_table
        if number is None:
            continue
        table = state.tables.get(number)
        if table is None or table.hand is None or work.table_state.hand_running:
            continue
        at_table = {s.player: s.stack for s in work.table_state.seats.values()}
        players = state.hands[table.hand].players
        stacks = {p.player: at_table.get(p.player, p.stack) for p in players}
        stream = hand_stream(hand_id(work.table.pk, work.table_state.hand_number))
        tournament_hand_finish(
            tournament_id=tournament,
            table=number,
            stacks=stacks,
            pots=_pots(work) if state.definition.bounty is not None else (),
            command_id=command_id(stream, "finish"),
            unit=unit,
        )
        reported = True
        state = unit.current()  # the report moved the tournament on
    return reported


def _pots(work: Work) -> tuple[PotResult, ...]:
    """How the pots of the table's last hand went (none if the hand is not
    at hand: the rules then go by the chips each won)."""
    hand = work.hand
    return () if hand is None or not hand.state.complete else pot_results(hand.state)


def pot_results(hand: HandState) -> tuple[PotResult, ...]:
    """How the pots of a finished hand went, by player: who contested each
    and what each winner took from it."""
    players = hand.players
    eligible = {k: pot.eligible for k, pot in enumerate(pots(hand))}
    out = []
    for awarded in sorted(hand.awards, key=lambda a: a.pot):
        shares: dict[str, int] = {}
        for share in awarded.shares:
            name = players[share.player].name
            shares[name] = shares.get(name, 0) + share.amount
        contested = tuple(players[i].name for i in eligible.get(awarded.pot, ()))
        out.append(PotResult(contested, shares))
    return tuple(out)


# --------------------------------------------------------------------------
# The tables


def _open_numbers(tournament: int) -> list[int]:
    numbers = (
        Table.objects.filter(tournament=tournament)
        .exclude(status=Table.Status.CLOSED)
        .values_list("tournament_table", flat=True)
    )
    return [n for n in numbers if n is not None]  # a tournament's tables are numbered


def _work(unit: Unit, tournament: int, number: int, state: TournamentState) -> Work:
    """The work at table ``number`` (opened now if it is new): the unit's
    own if it holds it, else looked up."""
    for work in unit.works.values():
        if work.table_state.config.tournament_table == number:
            return work
    table_id = (
        Table.objects.filter(tournament=tournament, tournament_table=number)
        .values_list("pk", flat=True)
        .first()
    )
    if table_id is None:
        table_id = open_tournament_table(tournament, number, state)
    return unit.table(table_id)


def open_tournament_table(tournament: int, number: int, state: TournamentState) -> int:
    """A new table of the tournament: its row and its ``TableOpened``."""
    definition = state.definition
    config = TableConfig.for_tournament(
        tournament, definition.rules_at(1), definition.seats_per_table, table=number
    )
    config = _named(config, state, number)
    structure = definition.structure
    config = replace(
        config, pause_seconds=config.pause_seconds * structure.minute_seconds // MINUTE
    )
    config = _clocked(config, definition.clocks.given())
    events = open_table(config)
    table = Table.objects.create(**table_projections.config_fields(config))
    batch = Batch(table.stream, 0, streams.encode_table(events))
    recorded = append([batch], feed=Feed(table.pk, 0))
    table.position = len(recorded)
    at = recorded[-1].recorded_at
    table_projections.write_table(table, replay_table(events), at, opened=at)
    table_id = table.pk
    transaction.on_commit(lambda: publish(table=table_id, rows=recorded, hands={}))
    return table_id


def _clocked(config: TableConfig, clocks: dict[str, int]) -> TableConfig:
    """The table with the tournament's clocks instead of the defaults (the
    bet window, 32 Card Draw's, kept within a shorter action clock)."""
    if not clocks:
        return config
    action = clocks.get("action_seconds", config.action_seconds)
    by_name: Mapping[str, Any] = clocks  # the fields ``clocks`` names, each an int
    return replace(config, **by_name, bet_seconds=min(config.bet_seconds, action))


def _named(config: TableConfig, state: TournamentState, number: int) -> TableConfig:
    """The table named after its tournament and its number, the tournament's
    name cut so the whole fits a table name (a tournament name may be as
    long as a table name: whole, the number would not fit)."""
    if not state.name:
        return replace(config, name=f"Table {number}")
    suffix = f" #{number}"
    longest = setting("name").bounds.high or len(state.name) + len(suffix)
    return replace(config, name=state.name[: longest - len(suffix)] + suffix)
