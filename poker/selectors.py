"""The read side: tables and hands as one viewer may see them.

Every hand view goes through ``engine.view`` / ``engine.view.redact``, the
one gate for hidden cards: a seated player sees his own cards, everyone
sees shown hands, nobody sees the deck or another player's cards.  The deck
order and seed are never revealed, not even once the hand is over: each
viewer gets the roots the deck was committed to and the openings of the
cards he may see, which prove them against those roots one card at a time
(docs/fair-deal.md).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from datetime import datetime
from typing import TYPE_CHECKING, Any

from django.db.models import QuerySet
from django.utils import timezone

from accounts.selectors import player_name, screen_name
from kernel.clocks import stamp
from kernel.eventstore import load
from poker import clocks, streams
from poker.engine.betting import legal_actions
from poker.engine.fairdeal import openings
from poker.engine.history import to_phh
from poker.engine.state import HandState
from poker.engine.table import DealtIn, SeatState, TableState, dealt_in
from poker.engine.table.clock import legal_at
from poker.engine.table.config import SETTINGS
from poker.engine.view import redact, view
from poker.models import Hand, Table
from poker.present import event_by_seat, hand_by_seat

if TYPE_CHECKING:
    from poker.work import Work


def table_list() -> QuerySet[Table]:
    """The lobby: open tables first, newest last."""
    return Table.objects.order_by("-status", "id")  # "open" > "closing" > "closed"


def table_summary(table: Table) -> dict[str, Any]:
    """A table's settings and where it stands (public)."""
    return {
        "id": table.pk,
        **{s.name: getattr(table, s.name) for s in SETTINGS},
        "status": table.status,
        "players_seated": table.players_seated,
        "hand_number": table.hand_number,
        "average_pot": table.pots_total // table.hands_ended if table.hands_ended else None,
    }


def table_view(table: Table, viewer: Any) -> dict[str, Any]:
    """Everything about a table that ``viewer`` (a user or None) may see."""
    state, hand = table_now(table)
    return _view(table, state, hand, viewer, table_clock(table, state, hand), timezone.now())


def table_now(table: Table) -> tuple[TableState, tuple[Hand, HandState, int] | None]:
    """The table's state and its latest hand (row, state, version), as
    stored.  The hand row must come from the same read as the table row
    (``select_related("current_hand")`` or under the table lock): read
    later, it may show a command the table row predates, such as a hand
    ended by a timer whose seat changes the table row does not yet show."""
    state = streams.tables.state(table.stream, table.version)
    hand = None
    if state.hand_number:
        row = table.current_hand
        assert row is not None
        hand = (row, streams.hands.state(row.stream, row.version), row.version)
    return state, hand


def table_clock(
    table: Table, state: TableState, hand: tuple[Hand, HandState, int] | None
) -> dict[str, Any] | None:
    """The clock running at the table, as clients see it."""
    return clocks.as_json(clocks.table_clock(table, state, hand))


def work_view(work: Work, viewer: Any) -> dict[str, Any]:
    """The same view from a command's unit of work, before it commits."""
    clock = clocks.work_clock_json(work)
    return _view(work.table, work.table_state, work.shown_hand(), viewer, clock, work.now)


def view_at(receipt: dict[str, Any], viewer: Any, at: datetime) -> dict[str, Any]:
    """The view a command answered with at ``at``, from its receipt (the
    versions it showed), for its retries."""
    table = Table.objects.get(pk=receipt["table"])
    state = streams.tables.state(table.stream, receipt["table_version"])
    hand = None
    if receipt["hand"] is not None:
        row = Hand.objects.get(pk=receipt["hand"])
        version = receipt["hand_version"]
        hand = (row, streams.hands.state(row.stream, version), version)
    return _view(table, state, hand, viewer, receipt.get("clock"), at)


def _view(
    table: Table,
    state: TableState,
    hand: tuple[Hand, HandState, int] | None,
    viewer: Any,
    clock: dict[str, Any] | None,
    now: datetime,
) -> dict[str, Any]:
    """The table view as of ``now`` (the legal actions follow the clock)."""
    player = str(viewer.pk) if viewer is not None else None
    you = state.seat_of(player) if player is not None else None
    upcoming = _dealt_in(state)
    summary = table_summary(table)
    summary.update(
        version=state.version,
        status="closed" if state.closed else "closing" if state.closing else "open",
        button=state.button,
        hand_number=state.hand_number,
        players_seated=len(state.seats),
    )
    return {
        "table": summary,
        "seats": [_seat(n, s, upcoming.get(n)) for n, s in sorted(state.seats.items())],
        "you": {"seat": you},
        "clock": clock,
        "hand": None if hand is None else _hand(*hand, viewer, clocks.bet_until(clock), now),
    }


_DEALT_KEPT = 256
_dealt: OrderedDict[int, tuple[TableState, dict[int, DealtIn]]] = OrderedDict()
_dealt_lock = threading.Lock()


def _dealt_in(state: TableState) -> dict[int, DealtIn]:
    """``dealt_in(state)``, worked out once per state: a table's state
    stays the same object (the folds' cache) through every action of a
    hand that moves no seat, and every answer and view shows it."""
    kept = _dealt.get(id(state))
    if kept is not None and kept[0] is state:
        return kept[1]
    upcoming = dealt_in(state)
    with _dealt_lock:
        _dealt[id(state)] = (state, upcoming)
        while len(_dealt) > _DEALT_KEPT:
            _dealt.popitem(last=False)
    return upcoming


def _seat(number: int, seat: SeatState, dealt: DealtIn | None) -> dict[str, Any]:
    """One seat; ``dealt_in`` says when the rules will deal its player in
    (a player who sat down mid-hand sees whether the next hand takes him,
    or he waits for the big blind or for the button to pass), None while
    he is not to be dealt in at all."""
    return {
        "seat": number,
        "player": int(seat.player),
        "screen_name": screen_name(int(seat.player)),
        "stack": seat.stack,
        "sitting_out": seat.sitting_out,
        "waiting_for_big_blind": seat.waiting,
        "in_hand": seat.in_hand,
        "top_up_queued": seat.queued_top_up,
        "leaving": seat.leaving,
        "missed_blinds": sorted(b.value for b in seat.missed),
        "time_bank": seat.bank,
        "dealt_in": None if dealt is None else dealt.value,
    }


def _hand(
    row: Hand,
    state: HandState,
    version: int,
    viewer: Any,
    bet_until: float | None,
    now: datetime,
) -> dict[str, Any]:
    seats = list(row.seats)
    # By player, never by seat: whoever sits in a seat now may not see the
    # cards its earlier occupant held.
    position = hand_position(state, viewer)
    # The menu as the clock allows it now: a bet or raise is not offered
    # once the 32 Card Draw bet window has closed, as it would be refused.
    legal = legal_actions(state)
    if legal is not None:
        legal = legal_at(legal, bet_until, stamp(now))
    seen = hand_by_seat(view(state, position, legal), seats, player_name)
    seen.update(
        id=row.pk,
        number=row.number,
        version=version,
        seats=seats,
        your_seat=None if position is None else seats[position],
        commitment=state.roots[0],
    )
    return seen


# --------------------------------------------------------------------------
# Hand histories


def hands_of(table: Table) -> QuerySet[Hand]:
    """The hands of a table, newest first."""
    return Hand.objects.filter(table=table).order_by("-number")


def hand_position(state: HandState, viewer: Any) -> int | None:
    """The viewer's position in a hand (None: not dealt in, or anonymous);
    the engine's player names are player ids."""
    if viewer is None:
        return None
    names = [p.name for p in state.players]
    player = str(viewer.pk)
    return names.index(player) if player in names else None


def hand_detail(hand: Hand, viewer: Any) -> dict[str, Any]:
    """A hand's history as ``viewer`` may see it: every event, redacted, and
    the openings of the cards he may see (what ``verify_hand`` checks)."""
    state = streams.hands.state(hand.stream, hand.version)
    position = hand_position(state, viewer)
    seats = hand.seats
    events = [
        event_by_seat(redact(streams.decode_hand(r), position), seats, player_name)
        for r in load(hand.stream)
    ]
    return {
        "id": hand.pk,
        "table": hand.table_id,
        "table_name": hand.table.name,
        "number": hand.number,
        "seats": seats,
        "your_seat": None if position is None else seats[position],
        "version": hand.version,
        "phase": hand.phase,
        "started_at": hand.started_at,
        "ended_at": hand.ended_at,
        "commitment": hand.deck_commitment,
        "roots": list(state.roots),
        "openings": [o.to_json() for o in openings(state, position)],
        "result": hand.result,
        "events": events,
    }


def hand_phh(hand: Hand, viewer: Any) -> str:
    """The hand in PokerKit's PHH format, as ``viewer`` may see it: its
    players by screen name, with their seats (PHH ``seats``)."""
    state = streams.hands.state(hand.stream, hand.version)
    position = hand_position(state, viewer)
    events = [streams.decode_hand(r) for r in load(hand.stream)]
    return to_phh(
        events,
        position,
        hand_id=hand.pk,
        table=str(hand.table_id),
        seats=hand.seats,
        seat_count=hand.table.seats,
        names=[player_name(p.name) for p in state.players],
    )


def table_names(ids: set[int]) -> dict[int, str]:
    """The names of the tables ``ids`` (for the ledger's references)."""
    return dict(Table.objects.filter(pk__in=ids).values_list("pk", "name"))
