"""The double-entry ledger: the only code that writes transfers.

``transfer_post`` writes one movement as entries summing to zero, in the
caller's transaction: on PostgreSQL over accounts that exist in two
statements and no savepoint (``accounts.postings``), elsewhere or when it
creates accounts through the ORM under a savepoint of its own.  It

- creates the accounts it needs that do not exist yet, before it locks
  any (``accounts_lock``), then locks every account it touches in one
  statement, in id order (``SELECT ... FOR UPDATE ORDER BY id``), so two
  transfers over the same accounts queue instead of deadlocking, and a
  balance read is the balance;
- refuses (``InsufficientFunds``) to take any account below zero, except
  the two that stand for the outside world: ``external`` (money deposited
  into the room and not yet withdrawn is its negative balance) and
  ``tickets_issued`` (tickets handed out and not yet spent);
- keys the transfer by a caller-chosen id: a retry with the same id and
  the same movement returns the first transfer and moves nothing; the same
  id for a different movement is ``DuplicateTransfer``.

Ids come from two places that never meet.  The room derives the ids of its
own movements (a table's or a tournament's money) from names its logs make
unique (``transfer_id_for``), keyed by a secret so nobody can guess one,
and always as UUID version 8.  Ids chosen by a client (a cashier's deposit
or withdrawal) may be anything else: ``client_transfer_id`` refuses version
8, so a client can never take an id the room will need, and a table or
tournament can never be blocked by a clash.

Accounts come into being on first use; an account of a player who does
not exist is ``UnknownAccount``.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterable, Sequence
from contextlib import nullcontext
from dataclasses import dataclass
from typing import Any

from django.contrib.auth import get_user_model
from django.db import IntegrityError, connections, transaction
from django.urls import reverse
from django.utils.translation import gettext as _

from accounts import frames, postings
from accounts.errors import (
    BadAmount,
    DuplicateTransfer,
    InsufficientFunds,
    ReservedTransferId,
    unknown_player,
)
from accounts.models import Account, Entry, Transfer
from kernel.api_errors import ApiError
from kernel.system_ids import is_system_id, system_id

CHIPS = "chips"

Kind = Account.Kind


@dataclass(frozen=True)
class AccountRef:
    """Names one account: its kind, its player and its table or tournament."""

    kind: str
    user_id: int | None = None
    ref: str = ""

    @property
    def key(self) -> str:
        parts = [self.kind, *([str(self.user_id)] if self.user_id is not None else [])]
        return ":".join([*parts, *([self.ref] if self.ref else [])])

    @property
    def unit(self) -> str:
        tickets = self.kind in (Kind.TICKET, Kind.TICKETS_ISSUED)
        return f"ticket:{self.ref}" if tickets else CHIPS

    @property
    def may_go_negative(self) -> bool:
        return self.kind in (Kind.EXTERNAL, Kind.TICKETS_ISSUED)


def _ref(value: object) -> str:
    text = str(value)
    if not text or len(text) > 64:
        raise ValueError(f"a table or tournament reference is 1 to 64 characters: {text!r}")
    return text


def cash(user_id: int) -> AccountRef:
    return AccountRef(Kind.CASH, int(user_id))


def table(table_id: int) -> AccountRef:
    return AccountRef(Kind.TABLE, ref=_ref(int(table_id)))


def pool(tournament: object) -> AccountRef:
    return AccountRef(Kind.POOL, ref=_ref(tournament))


def house() -> AccountRef:
    return AccountRef(Kind.HOUSE)


def bankroll() -> AccountRef:
    """The house's casino bankroll: it takes what the casino boxes lose and
    pays what they win."""
    return AccountRef(Kind.BANKROLL)


def casino(table_id: int) -> AccountRef:
    """The chips a casino table's boxes hold for the round (their bets)."""
    return AccountRef(Kind.CASINO, ref=_ref(int(table_id)))


def rake() -> AccountRef:
    """The house's rake from every cash table (RULES.md 8), apart from its
    fees (``house``)."""
    return AccountRef(Kind.RAKE)


def external() -> AccountRef:
    return AccountRef(Kind.EXTERNAL)


def ticket(user_id: int, tournament: object) -> AccountRef:
    return AccountRef(Kind.TICKET, int(user_id), _ref(tournament))


def tickets_issued(tournament: object) -> AccountRef:
    return AccountRef(Kind.TICKETS_ISSUED, ref=_ref(tournament))


def ticket_reserve(tournament: object) -> AccountRef:
    return AccountRef(Kind.TICKET_RESERVE, ref=_ref(tournament))


@dataclass(frozen=True)
class Move:
    """``amount`` (a whole number, zero allowed and dropped) from ``source``
    to ``target``, in one unit."""

    source: AccountRef
    target: AccountRef
    amount: int


def transfer_id_for(name: str) -> uuid.UUID:
    """The room's transfer id for a movement its own log names uniquely
    (``table-7@12``): the same name, the same id, so a replay finds it
    (``kernel.system_ids``: keyed by ``settings.LEDGER_KEY``, version 8, so
    nobody can tell which id a table will use next, and no client id can
    be one)."""
    return system_id("ledger transfer", name)


def client_transfer_id(transfer_id: uuid.UUID) -> uuid.UUID:
    """``transfer_id`` as chosen by a client, refused (``ReservedTransferId``)
    if it is of the kind the room keeps for itself."""
    if is_system_id(transfer_id):
        raise ReservedTransferId(extra={"transfer_id": str(transfer_id)})
    return transfer_id


def net_of(moves: Iterable[Move]) -> dict[AccountRef, int]:
    """Each account's net change (zero changes left out)."""
    net: dict[AccountRef, int] = {}
    for move in moves:
        if type(move.amount) is not int or move.amount < 0:
            raise BadAmount(
                _("an amount is a whole number of at least 0, not %(amount)s")
                % {"amount": move.amount}
            )
        if move.source.unit != move.target.unit:
            raise ValueError(f"a move stays in one unit: {move.source.key} -> {move.target.key}")
        net[move.source] = net.get(move.source, 0) - move.amount
        net[move.target] = net.get(move.target, 0) + move.amount
    return {ref: amount for ref, amount in net.items() if amount}


def transfer_post(
    *,
    transfer_id: uuid.UUID,
    kind: str,
    moves: Sequence[Move],
    by: Any = None,
    ref: str = "",
    memo: str = "",
    using: str = "default",
    defer: list[postings.Statement] | None = None,
) -> Transfer | None:
    """Write one transfer (None when nothing moves), or its first write.

    Raises ``InsufficientFunds``, ``DuplicateTransfer`` or ``UnknownAccount``
    and writes nothing then.

    With ``defer`` a transfer that can go in two statements and moves no
    player's account (his wallet frame shows its entry's id, which the
    database gives) is decided now, its accounts locked, and its writes
    added to ``defer`` (``postings.parts``) for the caller to run in one
    statement of its own, before anything reads those accounts again: the
    action that ends a raked hand writes the rake with its events.
    """
    net = net_of(moves)
    if not net:
        return None
    by_id = by.pk if getattr(by, "is_authenticated", False) else None
    transfer = Transfer(id=transfer_id, kind=kind, ref=ref, memo=memo[:200], by_id=by_id)
    transfer._state.db = using  # its entries' accounts come from there
    connection = connections[using]
    if connection.vendor == "postgresql":
        # The caller's transaction, no savepoint: a refusal comes before any write.
        if not connection.in_atomic_block:  # its own transaction: nothing to defer to
            defer = None
        with nullcontext() if connection.in_atomic_block else transaction.atomic(using=using):
            posted = _post_in_two(transfer, net, using, defer)
        if posted is not None:
            return posted
    try:
        with transaction.atomic(using=using):
            accounts = accounts_lock(net, using=using)
            first = Transfer.objects.using(using).filter(pk=transfer_id).first()
            if first is not None:
                return _same_or_refuse(first, kind, net, using)
            return _write(transfer, net, accounts, using)
    except IntegrityError:
        # A racer wrote this id first over other accounts (so no lock
        # queued us behind it): its row is committed now.
        first = Transfer.objects.using(using).filter(pk=transfer_id).first()
        if first is None:
            raise
        return _same_or_refuse(first, kind, net, using)


def _post_in_two(
    transfer: Transfer,
    net: dict[AccountRef, int],
    using: str,
    defer: list[postings.Statement] | None = None,
) -> Transfer | None:
    """``transfer_post`` of the unsaved ``transfer`` on PostgreSQL: two
    statements when its accounts exist (``accounts.postings``; None,
    nothing locked or written, when one does not), and no savepoint: a refusal is
    decided before anything is written, and a racer on the same id makes
    the write write nothing."""
    wanted = {ref.key: ref for ref in net}
    rows, taken = postings.lock(list(wanted), transfer.pk, using)
    if len(rows) < len(wanted):
        return None  # accounts to create: the savepoint's way (a refusal undoes them)
    if taken:
        first = Transfer.objects.using(using).get(pk=transfer.pk)
        return _same_or_refuse(first, transfer.kind, net, using)
    entries = _entries(transfer, net, {wanted[a.key]: a for a in rows})
    if defer is not None and all(e.account.user_id is None for e in entries):
        defer += postings.parts(transfer, entries, using)  # nothing to announce
        return transfer
    if not postings.write(transfer, entries, using):
        first = Transfer.objects.using(using).get(pk=transfer.pk)  # the racer's, committed
        return _same_or_refuse(first, transfer.kind, net, using)
    frames.announce(entries, using=using)
    return transfer


def named_transfer_post(
    name: str,
    *,
    kind: str,
    moves: Sequence[Move],
    by: Any = None,
    using: str = "default",
    defer: list[postings.Statement] | None = None,
) -> Transfer | None:
    """``transfer_post`` of a movement the room's own log names uniquely
    (``table-7@12``): its id derived from ``name`` (``transfer_id_for``) and
    ``name`` its ref, so a replay finds the first write."""
    transfer_id = transfer_id_for(name)
    return transfer_post(
        transfer_id=transfer_id, kind=kind, moves=moves, by=by, ref=name, using=using, defer=defer
    )


def accounts_lock(
    refs: Iterable[AccountRef], *, using: str = "default"
) -> dict[AccountRef, Account]:
    """Create the accounts missing, then lock them all in id order.

    Nothing is locked before the accounts are created: creating one waits
    for another transaction creating the same one to end, and a
    transaction that held account locks while it waited could wait on one
    that waits for those locks (a deadlock).  So every transaction creates
    first (in key order, so two creating several wait for each other in
    one order) and locks after (in id order, in one statement).

    Callers that post several transfers in one transaction lock the union
    first, so they never hold some locks while waiting for others, nor
    create an account while holding a lock.
    """
    wanted = {ref.key: ref for ref in refs}
    if connections[using].vendor == "postgresql":
        locked, _taken = postings.lock(list(wanted), None, using)
        if locked:  # all there: locked in one statement
            return {wanted[a.key]: a for a in locked}
    accounts = Account.objects.using(using)
    known = set(accounts.filter(key__in=wanted).values_list("key", flat=True))
    missing = [wanted[key] for key in sorted(wanted.keys() - known)]
    if missing:
        _create(missing, using)
    rows = accounts.select_for_update().order_by("pk").filter(key__in=wanted)
    found = {a.key: a for a in rows}
    return {ref: found[key] for key, ref in wanted.items()}


def _create(refs: list[AccountRef], using: str) -> None:
    """Insert the accounts of ``refs`` (in that order) that nobody has yet."""
    users = {ref.user_id for ref in refs if ref.user_id is not None}
    known = set(
        get_user_model().objects.using(using).filter(pk__in=users).values_list("pk", flat=True)
    )
    if users - known:
        raise unknown_player(min(users - known))
    Account.objects.using(using).bulk_create(
        [
            Account(
                key=ref.key,
                kind=ref.kind,
                user_id=ref.user_id,
                ref=ref.ref,
                unit=ref.unit,
                may_go_negative=ref.may_go_negative,
            )
            for ref in refs
        ],
        ignore_conflicts=True,
    )


def _write(
    transfer: Transfer, net: dict[AccountRef, int], accounts: dict[AccountRef, Account], using: str
) -> Transfer:
    entries = _entries(transfer, net, accounts)
    transfer.save(using=using, force_insert=True)
    for entry in entries:
        account = entry.account
        Account.objects.using(using).filter(pk=account.pk).update(balance=account.balance)
    Entry.objects.using(using).bulk_create(entries)
    frames.announce(entries, using=using)
    return transfer


def _entries(
    transfer: Transfer, net: dict[AccountRef, int], accounts: dict[AccountRef, Account]
) -> list[Entry]:
    """The entries of ``transfer`` in account id order, each account's
    ``balance`` moved by its entry; ``InsufficientFunds`` (nothing moved)
    if an account that may not go negative would."""
    for account_ref, amount in net.items():
        account = accounts[account_ref]
        if account.balance + amount < 0 and not account.may_go_negative:
            raise short_of(account, -amount)
    entries = []
    for account_ref, amount in sorted(net.items(), key=lambda item: accounts[item[0]].pk):
        account = accounts[account_ref]
        account.balance += amount
        entries.append(
            Entry(transfer=transfer, account=account, amount=amount, balance_after=account.balance)
        )
    return entries


def short_of(account: Account, needed: int) -> ApiError:
    """The refusal of a transfer that needs ``needed`` from ``account``.

    A player told only that he is short cannot do anything about it: for a
    wallet it says how much is missing and where chips come from (a
    cashier's deposit; players do not deposit themselves), with the paths
    of the wallet and of the deposit.
    """
    extra: dict[str, Any] = {
        "account": account.key,
        "balance": account.balance,
        "needed": needed,
        "short": needed - account.balance,
    }
    if account.kind != Kind.CASH or account.user_id is None:
        unit = _("tickets") if account.kind == Kind.TICKET else _("chips")
        message = _("%(account)s holds %(balance)s %(unit)s; this needs %(needed)s.")
        return InsufficientFunds(message % {**extra, "unit": unit}, extra=extra)
    extra["wallet"] = reverse("wallet", kwargs={"user_id": account.user_id})
    extra["deposit"] = reverse("wallet-deposit", kwargs={"user_id": account.user_id})
    message = _(
        "The wallet holds %(balance)s chips and this needs %(needed)s: %(short)s more. "
        "Chips come in by a deposit, which a cashier makes (POST %(deposit)s); "
        "the wallet is at GET %(wallet)s."
    )
    return InsufficientFunds(message % extra, extra=extra)


def _same_or_refuse(first: Transfer, kind: str, net: dict[AccountRef, int], using: str) -> Transfer:
    """The first transfer under this id, if it moved the same; else refuse."""
    rows = Entry.objects.using(using).filter(transfer=first).values_list("account__key", "amount")
    if first.kind != kind or dict(rows) != {ref.key: amount for ref, amount in net.items()}:
        raise DuplicateTransfer(extra={"transfer_id": str(first.pk)})
    return first
