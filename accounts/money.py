"""The money operations other apps call: wallets, tournaments, tickets.

Every money operation is one ledger transfer under the caller's
``transfer_id`` (a UUID; ``ledger.transfer_id_for(name)`` derives one from a
name your own log already makes unique): a retry with the same id returns
the first transfer and moves nothing again.  The cashier's operations take
a client's id and refuse one of the room's own kind
(``ledger.client_transfer_id``).  They run in the caller's
transaction if there is one.

``by`` is the member of staff acting, checked for the permission the
operation needs (``accounts.move_cash`` for deposits and withdrawals,
``accounts.direct_tournaments`` for tournament money).  ``by=None`` is the
system itself: another app's service that has checked its own caller
(a tournament engine paying prizes, a test seeding wallets).

Tournaments are named by a reference of the caller's choosing (its id or
slug, at most 64 characters): the ledger keeps a prize pool per reference,
and tickets per (player, target tournament).
"""

from __future__ import annotations

import uuid
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from accounts import ledger, limits
from accounts.errors import BadAmount, NotPermitted
from accounts.ledger import Move
from accounts.models import Transfer

Kind = Transfer.Kind


def _allowed(by: Any, permission: str) -> None:
    if by is not None and not by.has_perm(permission):
        raise NotPermitted()


def _positive(amount: int) -> None:
    if type(amount) is not int or amount < 1:
        raise BadAmount(
            _("An amount is a whole number of at least 1, not %(amount)s.") % {"amount": amount}
        )


def _post(transfer_id: uuid.UUID, kind: str, moves: list[Move], **more: Any) -> Transfer:
    """Post the moves; refuse a transfer that moves nothing (all amounts 0)."""
    transfer = ledger.transfer_post(transfer_id=transfer_id, kind=kind, moves=moves, **more)
    if transfer is None:
        raise BadAmount(_("Nothing to move: every amount is 0."))
    return transfer


def _tournament_post(
    kind: str, transfer_id: uuid.UUID, moves: list[Move], tournament: object, by: Any, using: str
) -> Transfer:
    """``_post`` with the transfer referenced to ``tournament``."""
    return _post(transfer_id, kind, moves, by=by, ref=f"tournament:{tournament}", using=using)


def wallet_deposit(
    *,
    transfer_id: uuid.UUID,
    user_id: int,
    amount: int,
    by: Any = None,
    memo: str = "",
    using: str = "default",
) -> Transfer:
    """Money paid in at the cashier: from outside the room to the player's
    cash; refused to a self-excluded player and past his deposit limit
    (``accounts.limits``; a retry of a deposit made is answered, not
    checked again)."""
    _allowed(by, "accounts.move_cash")
    _positive(amount)
    transfer_id = ledger.client_transfer_id(transfer_id)
    move = Move(ledger.external(), ledger.cash(user_id), amount)
    with transaction.atomic(using=using):
        if not Transfer.objects.using(using).filter(pk=transfer_id).exists():
            limits.deposit_check(user_id=user_id, amount=amount, using=using)
        return _post(transfer_id, Kind.DEPOSIT, [move], by=by, memo=memo, using=using)


def bankroll_fund(
    *,
    transfer_id: uuid.UUID,
    amount: int,
    by: Any = None,
    memo: str = "",
    using: str = "default",
) -> Transfer:
    """Money the house puts into its casino bankroll, from outside the room
    (a cashier's operation, like a deposit)."""
    return _paid_in(ledger.bankroll(), Kind.BANKROLL_FUND, transfer_id, amount, by, memo, using)


def house_fund(
    *,
    transfer_id: uuid.UUID,
    amount: int,
    by: Any = None,
    memo: str = "",
    using: str = "default",
) -> Transfer:
    """Money the house puts into its own account, from outside the room, to
    stand behind tournament guarantees and tickets it gives away (a
    cashier's operation, like funding the casino bankroll)."""
    return _paid_in(ledger.house(), Kind.HOUSE_FUND, transfer_id, amount, by, memo, using)


def _paid_in(
    account: ledger.AccountRef,
    kind: Kind,
    transfer_id: uuid.UUID,
    amount: int,
    by: Any,
    memo: str,
    using: str,
) -> Transfer:
    """A cashier's payment from outside the room into one of the house's accounts."""
    _allowed(by, "accounts.move_cash")
    _positive(amount)
    transfer_id = ledger.client_transfer_id(transfer_id)
    move = Move(ledger.external(), account, amount)
    return _post(transfer_id, kind, [move], by=by, memo=memo, using=using)


def wallet_withdraw(
    *,
    transfer_id: uuid.UUID,
    user_id: int,
    amount: int,
    by: Any = None,
    memo: str = "",
    using: str = "default",
) -> Transfer:
    """Money paid out at the cashier: never more than the player's cash."""
    _allowed(by, "accounts.move_cash")
    _positive(amount)
    transfer_id = ledger.client_transfer_id(transfer_id)
    move = Move(ledger.cash(user_id), ledger.external(), amount)
    return _post(transfer_id, Kind.WITHDRAWAL, [move], by=by, memo=memo, using=using)


def _entry_moves(
    source: ledger.AccountRef, tournament: object, amount: int, fee: int
) -> list[Move]:
    """``amount`` into the tournament's pool and ``fee`` to the house."""
    return [Move(source, ledger.pool(tournament), amount), Move(source, ledger.house(), fee)]


def tournament_register(
    *,
    transfer_id: uuid.UUID,
    user_id: int,
    tournament: object,
    buy_in: int,
    fee: int = 0,
    by: Any = None,
    using: str = "default",
) -> Transfer:
    """Register with cash: the buy-in to the prize pool, the fee to the house."""
    _allowed(by, "accounts.direct_tournaments")
    moves = _entry_moves(ledger.cash(user_id), tournament, buy_in, fee)
    return _tournament_post(Kind.REGISTRATION, transfer_id, moves, tournament, by, using)


def tournament_unregister(
    *,
    transfer_id: uuid.UUID,
    user_id: int,
    tournament: object,
    buy_in: int,
    fee: int = 0,
    ticket: bool = False,
    tickets_into: object | None = None,
    by: Any = None,
    using: str = "default",
) -> Transfer:
    """Undo a registration: buy-in and fee back to the player's cash, or,
    for one made with a ticket (``ticket=True``), the ticket back to him and
    the money back to the tickets' reserve (the tickets ``tickets_into`` a
    step, or, None, into the tournament)."""
    _allowed(by, "accounts.direct_tournaments")
    into = tournament if tickets_into is None else tickets_into
    back = ledger.ticket_reserve(into) if ticket else ledger.cash(user_id)
    moves = [
        Move(ledger.pool(tournament), back, buy_in),
        Move(ledger.house(), back, fee),
    ]
    if ticket:
        moves.append(Move(ledger.tickets_issued(into), ledger.ticket(user_id, into), 1))
    return _tournament_post(Kind.UNREGISTRATION, transfer_id, moves, tournament, by, using)


def tournament_chips_in(
    *,
    kind: Kind,
    transfer_id: uuid.UUID,
    user_id: int,
    tournament: object,
    amount: int,
    fee: int = 0,
    by: Any = None,
    using: str = "default",
) -> Transfer:
    """More chips in a tournament (``kind``: a rebuy or an add-on):
    ``amount`` to the prize pool, ``fee`` to the house."""
    if kind not in (Kind.REBUY, Kind.ADD_ON):
        raise ValueError(f"chips are bought in by a rebuy or an add-on, not {kind!r}")
    _allowed(by, "accounts.direct_tournaments")
    _positive(amount)
    moves = _entry_moves(ledger.cash(user_id), tournament, amount, fee)
    return _tournament_post(kind, transfer_id, moves, tournament, by, using)


def tournament_prize(
    *,
    transfer_id: uuid.UUID,
    user_id: int,
    tournament: object,
    amount: int,
    by: Any = None,
    using: str = "default",
) -> Transfer:
    """A prize paid from the tournament's pool to the player's cash."""
    _allowed(by, "accounts.direct_tournaments")
    _positive(amount)
    move = Move(ledger.pool(tournament), ledger.cash(user_id), amount)
    return _tournament_post(Kind.PRIZE, transfer_id, [move], tournament, by, using)


def tournament_guarantee(
    *,
    transfer_id: uuid.UUID,
    tournament: object,
    amount: int,
    back: bool = False,
    by: Any = None,
    using: str = "default",
) -> Transfer:
    """A guaranteed tournament's guarantee held from the house in its pool
    (``back``: what of it the pool did not need, given back to the house)."""
    _allowed(by, "accounts.direct_tournaments")
    _positive(amount)
    house, pool = ledger.house(), ledger.pool(tournament)
    move = Move(pool, house, amount) if back else Move(house, pool, amount)
    return _tournament_post(Kind.OVERLAY, transfer_id, [move], tournament, by, using)


def tournament_pool_carry(
    *,
    transfer_id: uuid.UUID,
    tournament: object,
    into: object,
    amount: int,
    by: Any = None,
    using: str = "default",
) -> Transfer:
    """A starting flight's prize pool moved whole into its Day 2's pool
    (``into``): the event's prize pool is the sum of its flights'."""
    _allowed(by, "accounts.direct_tournaments")
    _positive(amount)
    move = Move(ledger.pool(tournament), ledger.pool(into), amount)
    return _tournament_post(Kind.FLIGHT_CARRY, transfer_id, [move], into, by, using)


def ticket_award(
    *,
    transfer_id: uuid.UUID,
    user_id: int,
    target: object,
    value: int,
    paid_from: object | None = None,
    count: int = 1,
    by: Any = None,
    using: str = "default",
) -> Transfer:
    """``count`` entries into tournament ``target`` for the player, each
    backed by ``value`` (the target's buy-in plus fee), paid from the prize
    pool of tournament ``paid_from`` (a satellite) or, with None, by the house
    (a promotional ticket).  The money waits in the target's ticket reserve."""
    _allowed(by, "accounts.direct_tournaments")
    _positive(count)
    payer = ledger.house() if paid_from is None else ledger.pool(paid_from)
    moves = [
        Move(ledger.tickets_issued(target), ledger.ticket(user_id, target), count),
        Move(payer, ledger.ticket_reserve(target), value * count),
    ]
    referred = target if paid_from is None else paid_from
    return _tournament_post(Kind.TICKET_AWARD, transfer_id, moves, referred, by, using)


def ticket_refund(
    *,
    transfer_id: uuid.UUID,
    user_id: int,
    tournament: object,
    value: int,
    count: int = 1,
    by: Any = None,
    using: str = "default",
) -> Transfer:
    """``count`` of the player's entries into ``tournament``, which was
    called off, handed back for the money behind them: ``value`` each from
    the tournament's ticket reserve to the player's cash."""
    _allowed(by, "accounts.direct_tournaments")
    _positive(count)
    moves = [
        Move(ledger.ticket(user_id, tournament), ledger.tickets_issued(tournament), count),
        Move(ledger.ticket_reserve(tournament), ledger.cash(user_id), value * count),
    ]
    return _tournament_post(Kind.TICKET_REFUND, transfer_id, moves, tournament, by, using)


def ticket_spend(
    *,
    transfer_id: uuid.UUID,
    user_id: int,
    tournament: object,
    buy_in: int,
    fee: int = 0,
    tickets_into: object | None = None,
    by: Any = None,
    using: str = "default",
) -> Transfer:
    """Register with a ticket: one of the player's tickets into
    ``tournament`` (or into its step, ``tickets_into``) is handed back, and
    its reserve pays the buy-in to the pool and the fee to the house."""
    _allowed(by, "accounts.direct_tournaments")
    into = tournament if tickets_into is None else tickets_into
    moves = [
        Move(ledger.ticket(user_id, into), ledger.tickets_issued(into), 1),
        *_entry_moves(ledger.ticket_reserve(into), tournament, buy_in, fee),
    ]
    return _tournament_post(Kind.TICKET_SPEND, transfer_id, moves, tournament, by, using)
