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

from accounts import ledger
from accounts.ledger import Move
from accounts.models import Transfer
from accounts.tables import Planned, player_cash
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
) -> list[Planned]:
    """The transfers ``events`` call for (see the module docstring)."""
    account, stream = ledger.casino(table_id), f"casino-{table_id}"
    state = before
    plans: list[Planned] = []
    for event in events:
        version = state.version + 1
        if isinstance(event, BetPlaced):
            cash = player_cash(state.seats[event.box].player)
            plans.append(
                Planned(stream, version, Kind.CASINO_BET, [Move(cash, account, event.held)])
            )
        elif isinstance(event, BetWithdrawn):
            cash = player_cash(state.seats[event.box].player)
            move = Move(account, cash, event.held)
            plans.append(Planned(stream, version, Kind.CASINO_REFUND, [move]))
        elif isinstance(event, RoundFinished):
            for paid in event.paid:
                cash = player_cash(paid.player)
                moves = [
                    Move(account, cash, paid.held - paid.staked),
                    Move(account, ledger.bankroll(), paid.staked),
                    Move(ledger.bankroll(), cash, paid.won),
                ]
                plans.append(Planned(stream, version, Kind.CASINO_SETTLE, moves, f":{paid.box}"))
        state = evolve_table(state, event)
    return [p for p in plans if any(m.amount for m in p.moves)]


def casino_chips_post(
    *, plans: Sequence[Planned], by: Any = None, using: str = "default"
) -> list[Transfer]:
    """Post ``plans`` in the caller's transaction (which locked their
    accounts first).  Raises ``InsufficientFunds``: the caller's
    transaction must roll back whole."""
    posted = []
    for plan in plans:
        transfer = ledger.named_transfer_post(
            plan.name, kind=plan.kind, moves=plan.moves, by=by, using=using
        )
        if transfer is not None:
            posted.append(transfer)
    return posted
