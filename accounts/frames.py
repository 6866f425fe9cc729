"""Wallet frames on a player's own stream (``ws/me/``): after a transfer
commits, each player whose cash or tickets it moved gets his wallet as it
stands and the entry that changed it.

Only the owner's group hears it; the frames are a convenience, the ledger
(``GET /api/me/wallet/``, ``/api/me/ledger/``) is the truth.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal, TypedDict

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction

from accounts.models import Entry
from kernel.consumers import SessionMessage, session_group
from kernel.layer import send_all


def player_group(user: int) -> str:
    """A player's own group (``ws/me/``): his hidden cards, his seats, his
    wallet."""
    return f"player.{user}"


LOCKED: Literal["account.locked"] = "account.locked"
"""The message that closes a locked player's sockets (``account_locked``)."""
REVOKED: Literal["credentials.revoked"] = "credentials.revoked"
"""The message that has a player's sockets check the credential each
opened with (``credentials_revoked``)."""


class WalletFrame(TypedDict):
    """A player's wallet (``accounts.selectors.wallet_view``) on his own
    stream, and the entry that changed it (None on connect)."""

    type: Literal["wallet"]
    wallet: dict[str, Any]
    entry: dict[str, Any] | None


def announce_locked(user_id: int, *, using: str = "default") -> None:
    """Once the lock has committed, close every socket the player has open
    (a socket keeps the user it opened with, so it would outlive the lock)."""
    transaction.on_commit(lambda: _send(user_id, LOCKED), using=using)


def announce_revoked(user_id: int, *, using: str = "default") -> None:
    """Once the revocation of one or more of the player's tokens or
    sessions has committed, have each of his sockets check the one it
    opened with: those it revoked close (``config.ws_auth.credential_valid``)."""
    transaction.on_commit(lambda: _send(user_id, REVOKED), using=using)


def _send(user_id: int, kind: Literal["account.locked", "credentials.revoked"]) -> None:
    layer = get_channel_layer()
    if layer is not None:
        message: SessionMessage = {"type": kind}
        async_to_sync(layer.group_send)(session_group(user_id), message)


def announce(entries: Sequence[Entry], *, using: str = "default") -> None:
    """Send each player's wallet frame once the transfer has committed."""
    owned = [(e.account.user_id, e) for e in entries if e.account.user_id is not None]
    if owned:
        transaction.on_commit(lambda: publish(owned, using=using), using=using)


def wallet_frame(
    user_id: int, entry: Entry | None = None, *, using: str = "default"
) -> WalletFrame:
    """A player's wallet now, and the entry that changed it (None on connect)."""
    from accounts.selectors import entry_view, wallet_view

    line = None
    if entry is not None:
        line = entry_view(entry) | {"at": entry.transfer.created_at.isoformat()}
    return {"type": "wallet", "wallet": wallet_view(user_id=user_id, using=using), "entry": line}


def publish(owned: Sequence[tuple[int, Entry]], *, using: str = "default") -> None:
    """Each player's wallet frame, with the entry (of his account) that changed it."""
    send_all([(player_group(user), wallet_frame(user, e, using=using)) for user, e in owned])
