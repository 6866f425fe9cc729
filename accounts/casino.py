"""Casino tables and the ledger: a table's round account always holds its bets.

A casino table command's events say when chips move
(``poker.engine.casino.table``):

- ``BetPlaced``: the chips the round holds for the box (``held``: every
  stake the round may take from it) go from the player's cash to the
  table's round account (``ledger.casino``);
- ``BetWithdrawn``: they go back;
- ``RoundFinished``: each box is settled in ONE transfer of three legs:
  its ``held`` chips leave the round account, the bankroll takes what it
  ``staked`` and pays what it ``won``, and the wallet gets the rest
  (``held - staked + won``).

So between commands a table's round account equals the chips its open
bets hold (``CasinoTableState.held``).  Each transfer's id derives from
the table stream, the event's version (and the box), so a replay of the
same events finds the same transfers.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.utils.translation import gettext as _

from accounts import ledger
from accounts.errors import UnknownAccount
from accounts.ledger import AccountRef, Move
from accounts.models import Transfer
from accounts.tables import Planned
from poker.engine.casino.table import (
    BetPlaced,
    BetWithdrawn,
    CasinoTableEvent,
    CasinoTableState,
    RoundFinished,
    evolve_table,
)

Kind = Transfer.Kind


def casino_money_plan(
    *, table_id: int, before: CasinoTableState, events: Sequence[CasinoTableEvent]
) -> list[tuple[str, Planned]]:
    """The transfers ``events`` call for, each with its name (the ledger
    ``ref`` its id derives from)."""
    account = ledger.casino(table_id)
    state = before
    plans: list[tuple[str, Planned]] = []
    for event in events:
        version = state.version + 1
        name = f"casino-{table_id}@{version}"
        if isinstance(event, BetPlaced):
            player = state.seats[event.box].player
            move = Move(ledger.cash(_user_id(player)), account, event.held)
            plans.append((name, Planned(version, Kind.CASINO_BET, [move])))
        elif isinstance(event, BetWithdrawn):
            player = state.seats[event.box].player
            move = Move(account, ledger.cash(_user_id(player)), event.held)
            plans.append((name, Planned(version, Kind.CASINO_REFUND, [move])))
        elif isinstance(event, RoundFinished):
            for paid in event.paid:
                cash = ledger.cash(_user_id(paid.player))
                moves = [
                    Move(account, cash, paid.held - paid.staked),
                    Move(account, ledger.bankroll(), paid.staked),
                    Move(ledger.bankroll(), cash, paid.won),
                ]
                box = f"{name}:{paid.box}"
                plans.append((box, Planned(version, Kind.CASINO_SETTLE, moves)))
        state = evolve_table(state, event)
    return [(n, p) for n, p in plans if any(m.amount for m in p.moves)]


def casino_accounts(plans: Sequence[tuple[str, Planned]]) -> set[AccountRef]:
    """Every account the plans touch (to lock them all at once, first)."""
    return {ref for _, p in plans for m in p.moves for ref in (m.source, m.target)}


def casino_chips_post(
    *, plans: Sequence[tuple[str, Planned]], by: Any = None, using: str = "default"
) -> list[Transfer]:
    """Post ``plans`` in the caller's transaction (which locked their
    accounts first).  Raises ``InsufficientFunds``: the caller's
    transaction must roll back whole."""
    posted = []
    for name, plan in plans:
        transfer = ledger.named_transfer_post(
            name, kind=plan.kind, moves=plan.moves, by=by, using=using
        )
        if transfer is not None:
            posted.append(transfer)
    return posted


def _user_id(player: str) -> int:
    if not (player.isascii() and player.isdigit()):
        raise UnknownAccount(_("No player with id %(player)s.") % {"player": player})
    return int(player)
