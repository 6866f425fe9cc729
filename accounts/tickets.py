"""Tickets: how a client proves who he is when he opens a WebSocket,
without a long-lived secret in the URL (servers and proxies log URLs).

A client that is logged in (an API token, or a session) asks
``POST /api/ws-ticket/`` for a ticket and opens the socket with
``?ticket=<ticket>`` within ``TICKET_SECONDS``.  The ticket is random,
kept in the cache (Redis when configured: every server process sees it)
under its digest only, and redeemed once: the cache's delete says which
of two racers took it.  It carries the credential the client asked with
(``Credential``: which token, or which session), and the socket keeps
that credential, so that revoking it closes the socket
(``config.ws_auth.credential_user``).
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass

from django.conf import settings
from django.core.cache import cache
from django.utils.translation import gettext_lazy as _

from kernel.consumers import Refusal

TICKET_BYTES = 32

NOT_AUTHENTICATED = Refusal(
    4401, "not_authenticated", _("not authenticated: log in or send a ticket")
)
"""How a socket that needs a logged-in player is refused without one."""


@dataclass(frozen=True)
class Credential:
    """What a logged-in client proved who he is with."""

    user_id: int
    kind: str
    """``token`` (an API token, by its stored digest) or ``session``."""
    key: str
    """The token's digest (``knox.models.AuthToken.digest``) or the session key."""


TOKEN = "token"
SESSION = "session"


def cache_key(ticket: str) -> str:
    """Where a ticket is kept: under its digest, never the ticket itself."""
    return "ws-ticket:" + hashlib.sha256(ticket.encode()).hexdigest()


def ticket_issue(credential: Credential) -> str:
    """A new ticket for ``credential``, good once for ``WS_TICKET_SECONDS``."""
    ticket = secrets.token_urlsafe(TICKET_BYTES)
    value = (credential.user_id, credential.kind, credential.key)
    cache.set(cache_key(ticket), value, timeout=settings.WS_TICKET_SECONDS)
    return ticket


def ticket_redeem(ticket: str) -> Credential | None:
    """The credential of a live ticket, which it spends; None for a ticket
    that is unknown, expired or spent (by this call's racer too)."""
    key = cache_key(ticket)
    value = cache.get(key)
    if value is None or not cache.delete(key):
        return None
    user_id, kind, secret = value
    return Credential(int(user_id), str(kind), str(secret))
