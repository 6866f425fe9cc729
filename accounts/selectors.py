"""The read side of accounts: wallets, ledger history, balances, and the
screen names every table shows its players by."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from django.contrib.auth import get_user_model
from django.db.models import Q, QuerySet

from accounts import ledger, names, references
from accounts.errors import unknown_player
from accounts.models import Account, Entry, User
from accounts.roles import user_roles


def user_get(*, user_id: int) -> User:
    """The player, or ``UnknownAccount``."""
    user: User | None = get_user_model().objects.filter(pk=user_id).first()
    if user is None:
        raise unknown_player(user_id)
    return user


def me_view(user: User) -> dict[str, Any]:
    """The player as he sees himself."""
    return {
        "id": user.pk,
        "username": user.username,
        "screen_name": user.screen_name,
        "email": user.email,
        "roles": user_roles(user),
        "is_staff": user.is_staff,
        "date_joined": user.date_joined,
        "language": user.language or None,
    }


def account_balance(ref: ledger.AccountRef, *, using: str = "default") -> int:
    """The balance of an account (0 for one never used)."""
    balance = Account.objects.using(using).filter(key=ref.key).values_list("balance", flat=True)
    return int(balance.first() or 0)


def wallet_view(*, user_id: int, using: str = "default") -> dict[str, Any]:
    """A player's cash and tickets (he sees his chips at tables on the tables)."""
    accounts = list(Account.objects.using(using).filter(user_id=user_id).order_by("ref"))
    cash = next((a.balance for a in accounts if a.kind == Account.Kind.CASH), 0)
    tickets = [
        {"tournament": a.ref, "count": a.balance}
        for a in accounts
        if a.kind == Account.Kind.TICKET and a.balance
    ]
    holder = get_user_model().objects.using(using).filter(pk=user_id)
    screen_name = holder.values_list("screen_name", flat=True).first() or ""
    return {"user": user_id, "screen_name": screen_name, "cash": cash, "tickets": tickets}


def ledger_history(*, user_id: int, kind: str | None = None) -> QuerySet[Entry]:
    """The entries of a player's accounts (cash and tickets), newest first,
    optionally of one kind of transfer."""
    entries = Entry.objects.filter(account__user_id=user_id).select_related("transfer", "account")
    if kind:
        entries = entries.filter(transfer__kind=kind)
    return entries.order_by("-id")


def entry_view(entry: Entry, subjects: dict[str, dict[str, Any]] | None = None) -> dict[str, Any]:
    """One line of a player's history; ``subjects`` names what references
    name (``references.subjects``: looked up here when not given)."""
    transfer, account = entry.transfer, entry.account
    named = subjects if subjects is not None else references.subjects([transfer.ref])
    return {
        "id": entry.pk,
        "transfer": str(transfer.pk),
        "kind": transfer.kind,
        "account": account.kind,
        "tournament": account.ref if account.kind == Account.Kind.TICKET else None,
        "amount": entry.amount,
        "balance_after": entry.balance_after,
        "ref": transfer.ref,
        "subject": named.get(transfer.ref),
        "memo": transfer.memo,
        "at": transfer.created_at,
    }


def transfer_view(transfer: Any) -> dict[str, Any]:
    """A transfer and its entries (the answer to a staff operation)."""
    entries = transfer.entries.select_related("account").order_by("id")
    return {
        "id": str(transfer.pk),
        "kind": transfer.kind,
        "ref": transfer.ref,
        "memo": transfer.memo,
        "at": transfer.created_at,
        "entries": [
            {"account": e.account.key, "amount": e.amount, "balance_after": e.balance_after}
            for e in entries
        ],
    }


def players_find(*, query: str, limit: int = 50) -> QuerySet[User]:
    """Players whose username, screen name or email holds ``query`` (any
    case), or whose screen name reads as it (the same TR39 skeleton: a
    name typed with look-alike letters still finds him); by id."""
    text = query.strip()
    if not text:
        return get_user_model().objects.none()
    found = (
        Q(username__icontains=text)
        | Q(screen_name__icontains=text)
        | Q(email__icontains=text)
        | Q(screen_name_key=names.skeleton(text))
    )
    users: QuerySet[User] = get_user_model().objects.filter(found).order_by("id")[:limit]
    return users


@lru_cache(maxsize=4096)
def screen_name(user_id: int) -> str:
    """The name a player is shown by at tables, never his login name
    (cached: names change rarely, and a stale one only shows an old name)."""
    user = get_user_model().objects.filter(pk=user_id).only("screen_name").first()
    return "" if user is None else str(user.screen_name)


def player_name(player: str) -> str:
    """The screen name of the engine's player ``player`` (a user id)."""
    return screen_name(int(player)) if player.isdecimal() else player


def forget_screen_name(update_fields: Any = None, **_: Any) -> None:
    """A player's screen name changed (``post_save`` of a user): this
    process's cached names are dropped; others may show the old one a while.
    Connected by accounts' own ``ready``: every app showing names reads them here."""
    if update_fields is None or "screen_name" in update_fields:
        screen_name.cache_clear()
