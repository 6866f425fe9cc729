"""Cash tables and the ledger: the table's chips always equal its escrow.

A table command's events say when chips move (``poker.engine.table.events``):

- ``PlayerSeated``: the buy-in goes from the player's cash to the table's
  escrow account;
- ``TopUpQueued``: the top-up is taken from cash at once (reserved), so a
  player cannot spend it elsewhere while his hand runs;
- ``ToppedUp``: applies a queued top-up (nothing moves; what the maximum
  buy-in cut off goes back to cash), or, with nothing queued, moves the
  top-up from cash to escrow;
- ``PlayerLeft``: the cash-out, and any queued top-up he never got, go
  back to cash;
- ``HandFinished`` drops the queued top-ups that no ``ToppedUp`` or
  ``PlayerLeft`` of the same command applies: they go back to cash; and
  its ``rake`` (RULES.md 8) goes from the escrow to the house's rake
  account, in a transfer of its own (``table-7@12/rake``).

So between commands a table's escrow equals its seats' stacks (as each
hand began: during a hand the pot is still the table's) plus its queued
top-ups, and the rake account holds every table's rake.  Each movement
is one transfer whose id derives from the table stream and the event's
version, so it is unique and a replay of the same events finds the same
transfers.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from accounts import ledger, postings
from accounts.errors import unknown_player
from accounts.ledger import Move
from accounts.models import Transfer
from poker.engine.table import (
    HandBegan,
    HandFinished,
    PlayerLeft,
    PlayerSeated,
    TableState,
    ToppedUp,
    TopUpQueued,
    evolve_table,
)
from poker.engine.table import TableEvent as TableEventType

Kind = Transfer.Kind


@dataclass
class Planned:
    """One transfer to post: made by the event at ``version`` of the stream
    ``stream``, what kind, which moves; ``part`` tells apart two transfers
    of one event (``/rake`` after a hand's top-up refunds, ``:<box>`` for
    each casino box settled)."""

    stream: str
    version: int
    kind: str
    moves: list[Move] = field(default_factory=list)
    part: str = ""

    @property
    def name(self) -> str:
        """The transfer's name, from which its id derives: unique per event
        (and part), the same on a replay."""
        return f"{self.stream}@{self.version}{self.part}"


def plans_accounts(plans: Sequence[Planned]) -> set[ledger.AccountRef]:
    """Every account the plans touch (to lock them all at once, first)."""
    return {ref for p in plans for m in p.moves for ref in (m.source, m.target)}


def player_cash(player: str) -> ledger.AccountRef:
    """The cash account of the engine's player ``player`` (a user id)."""
    if not (player.isascii() and player.isdigit()):
        raise unknown_player(player)
    return ledger.cash(int(player))


def table_chips_moved(
    *,
    table_id: int,
    before: TableState,
    events: Sequence[TableEventType],
    by: Any = None,
    using: str = "default",
) -> list[postings.Statement]:
    """Post the money the table ``events`` move, in the caller's
    transaction; the writes the last transfer leaves to the caller, who
    runs them in a statement of its own (with its append) before anything
    reads those accounts again (``ledger.transfer_post``'s ``defer``: none
    after it reads its accounts' balances).

    ``before`` is the table as the command found it (its ``version`` is the
    stream's version before ``events``).  Raises ``InsufficientFunds`` (the
    caller's transaction must roll back whole) or ``UnknownAccount``.
    """
    plans = table_money_plan(table_id=table_id, before=before, events=events)
    if not plans:
        return []
    if len(plans) > 1:  # one transfer locks its own accounts, in one statement
        ledger.accounts_lock(plans_accounts(plans), using=using)
    left: list[postings.Statement] = []
    for plan in plans:
        ledger.named_transfer_post(
            plan.name,
            kind=plan.kind,
            moves=plan.moves,
            by=by,
            using=using,
            defer=left if plan is plans[-1] else None,
        )
    return left


def table_chips(state: TableState) -> int:
    """What a table's escrow must hold: its stacks (as the running hand
    began) and its queued top-ups."""
    return state.chips + sum(seat.queued_top_up for seat in state.seats.values())


def table_money_plan(
    *, table_id: int, before: TableState, events: Sequence[TableEventType]
) -> list[Planned]:
    """The transfers ``events`` call for (see the module docstring)."""
    escrow, stream = ledger.table(table_id), f"table-{table_id}"
    state = before
    plans: list[Planned] = []
    queued: dict[int, tuple[str, int]] = {}  # top-ups a HandFinished let go, by seat
    dropped: Planned | None = None  # ... and the transfer that gives back the rest
    for event in events:
        version = state.version + 1
        if isinstance(event, HandBegan) and dropped is not None:
            dropped.moves += [_out(p, escrow, q) for p, q in queued.values()]
            queued, dropped = {}, None
        if isinstance(event, PlayerSeated):
            plans.append(
                Planned(stream, version, Kind.BUY_IN, [_in(event.player, escrow, event.buy_in)])
            )
        elif isinstance(event, TopUpQueued):
            player = state.seats[event.seat].player
            plans.append(Planned(stream, version, Kind.TOP_UP, [_in(player, escrow, event.amount)]))
        elif isinstance(event, ToppedUp):
            kind, moves = _topped_up(state, event, queued.pop(event.seat, None), escrow)
            plans.append(Planned(stream, version, kind, moves))
        elif isinstance(event, PlayerLeft):
            player = state.seats[event.seat].player
            back = event.cash_out + queued.pop(event.seat, ("", 0))[1]
            plans.append(Planned(stream, version, Kind.CASH_OUT, [_out(player, escrow, back)]))
        elif isinstance(event, HandFinished):
            queued = {
                n: (s.player, s.queued_top_up) for n, s in state.seats.items() if s.queued_top_up
            }
            dropped = Planned(stream, version, Kind.TOP_UP_REFUND)
            plans.append(dropped)
            raked = Move(escrow, ledger.rake(), event.rake)
            plans.append(Planned(stream, version, Kind.RAKE, [raked], part="/rake"))
        state = evolve_table(state, event)
    if dropped is not None:
        dropped.moves += [_out(p, escrow, q) for p, q in queued.values()]
    return [p for p in plans if any(m.amount for m in p.moves)]


def _topped_up(
    state: TableState, event: ToppedUp, queued: tuple[str, int] | None, escrow: ledger.AccountRef
) -> tuple[str, list[Move]]:
    """A queued top-up applied (the part cut off goes back), or a fresh one."""
    player = state.seats[event.seat].player
    if queued is None:
        return Kind.TOP_UP, [_in(player, escrow, event.amount)]
    return Kind.TOP_UP_REFUND, [_out(player, escrow, queued[1] - event.amount)]


def _in(player: str, escrow: ledger.AccountRef, amount: int) -> Move:
    return Move(player_cash(player), escrow, amount)


def _out(player: str, escrow: ledger.AccountRef, amount: int) -> Move:
    return Move(escrow, player_cash(player), amount)
