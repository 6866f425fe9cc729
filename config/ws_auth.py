"""Who opens a WebSocket, and how a socket is refused or ended.

A client says who he is with a ticket (``?ticket=<ticket>``, from
``POST /api/ws-ticket/``: short-lived and single-use, ``accounts.tickets``)
or with the session cookie (``SocketSession``, then channels'
``AuthMiddleware``).  No long-lived secret travels in a URL: servers and
proxies log URLs.

The Origin check protects cookie sessions only: a browser sends the cookie
to this host whatever page opened the socket, so without a ticket the
handshake must come from a page of this site: the Origin's scheme, host
and port are the socket's own (its Host, one of ``ALLOWED_HOSTS``, with
``ws``/``wss`` as ``http``/``https``) or one of ``CSRF_TRUSTED_ORIGINS``.
A ticket is never sent by the browser on its own (getting one takes the
token, or the session and its CSRF token), so a client that brings one
needs no Origin header; with a ticket the session is never used, even when
the ticket is wrong (the client is then anonymous).

Each logged-in socket keeps the credential it opened with (``scope
["credential"]``: which API token, or which session).  When one of the
player's credentials is revoked (a logout, logout everywhere, a password
change), his sockets are told (``accounts.frames.announce_revoked``) and
each whose credential no longer works ends with 4401 (``credential_valid``).

A refused socket is accepted and closed at once, with an error frame
(``kernel.consumers.refuse``).
"""

from __future__ import annotations

import contextlib
import json
from importlib import import_module
from typing import Any
from urllib.parse import parse_qsl, urlparse

from channels.generic.websocket import AsyncJsonWebsocketConsumer
from channels.middleware import BaseMiddleware
from django.conf import settings
from django.contrib.auth import HASH_SESSION_KEY, SESSION_KEY, get_user_model
from django.contrib.auth.models import AnonymousUser
from django.http.request import split_domain_port, validate_host
from django.utils import timezone
from django.utils.crypto import constant_time_compare
from django.utils.translation import gettext_lazy as _
from knox.models import AuthToken

from accounts import second_factor
from accounts.tickets import SESSION, TOKEN, Credential, ticket_redeem
from kernel import outage
from kernel.consumers import Refusal, refuse
from kernel.dbthreads import database

UNAVAILABLE = Refusal(
    1013, "unavailable", _("the service is briefly unavailable: connect again in a moment")
)
ORIGIN_REFUSED = Refusal(
    4403, "origin_refused", _("origin refused: open the socket from this site, or send a ticket")
)
NO_ROUTE = Refusal(4404, "not_found", _("no such stream"))


class _Refused(AsyncJsonWebsocketConsumer):  # type: ignore[misc]
    """The whole application for a socket refused before routing."""

    refusal: Refusal = ORIGIN_REFUSED

    async def connect(self) -> None:
        await refuse(self, self.refusal)


class Unrouted(_Refused):
    """A path no route has (``config.routing``'s last route)."""

    refusal = NO_ROUTE


def query_ticket(scope: dict[str, Any]) -> str | None:
    """The ``ticket`` of the query string, if one is given (not empty)."""
    query = scope.get("query_string", b"").decode(errors="replace")
    tickets = [value for name, value in parse_qsl(query) if name == "ticket" and value]
    return tickets[-1] if tickets else None


def credential_user(credential: Credential) -> Any:
    """The active user ``credential`` still proves, else anonymous: a live
    API token of his (not revoked, not expired), or a session still his
    (not logged out, its password hash current); a staff member's only with
    his second factor, as the API asks (``accounts.second_factor``)."""
    if credential.kind == TOKEN:
        row = (
            AuthToken.objects.select_related("user")
            .filter(digest=credential.key, user_id=credential.user_id)
            .first()
        )
        live = row is not None and (row.expiry is None or row.expiry > timezone.now())
        if not live or not row.user.is_active or not second_factor.token_passes(row.user, row):
            return AnonymousUser()
        return row.user
    if credential.kind == SESSION:
        return _session_user(credential) or AnonymousUser()
    return AnonymousUser()


def _session_user(credential: Credential) -> Any:
    """The active user whose session ``credential`` names, if the session
    is still there, still his, and made with his current password (read
    only: unlike ``django.contrib.auth.get_user``, it never flushes nor
    cycles the session of a browser)."""
    session = import_module(settings.SESSION_ENGINE).SessionStore(credential.key)
    if str(session.get(SESSION_KEY)) != str(credential.user_id):
        return None
    user = get_user_model().objects.filter(pk=credential.user_id, is_active=True).first()
    if user is None or not constant_time_compare(
        session.get(HASH_SESSION_KEY, ""), user.get_session_auth_hash()
    ):
        return None
    return user if second_factor.stored_session_passes(user, session) else None


@database
def _redeem(ticket: str) -> tuple[Any, Credential | None]:
    """The user a ticket stands for and his credential (anonymous and None:
    a ticket unknown, expired or spent, or its credential revoked since)."""
    credential = ticket_redeem(ticket)
    user = AnonymousUser() if credential is None else credential_user(credential)
    return (user, credential) if user.is_authenticated else (user, None)


@database
def _session_login(scope: dict[str, Any]) -> tuple[Any, Credential | None]:
    """The user the session cookie logged the socket in as and the session
    as his credential (anonymous and None: no session login, or a staff
    member's without his second factor)."""
    user, session = scope.get("user"), scope.get("session")
    if user is None or not user.is_authenticated or session is None or not session.session_key:
        return user or AnonymousUser(), None
    if not second_factor.stored_session_passes(user, session):
        return AnonymousUser(), None
    return user, Credential(int(user.pk), SESSION, session.session_key)


class SocketSession:
    """``scope["session"]``: the session of the socket's cookie, read (by
    ``channels.auth.AuthMiddleware``, ``_session_login``) and never saved:
    a socket sends no cookie back.  In the place of channels'
    ``SessionMiddleware``, whose wrapper of ``send`` asks the session
    whether it changed for every frame a socket sends, to save it only
    with an HTTP response."""

    def __init__(self, application: Any) -> None:
        self.application = application
        self.store = import_module(settings.SESSION_ENGINE).SessionStore

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        key = scope["cookies"].get(settings.SESSION_COOKIE_NAME)
        return await self.application({**scope, "session": self.store(key)}, receive, send)


class TicketAuthMiddleware(BaseMiddleware):  # type: ignore[misc]
    """With ``ticket`` in the query string, the scope's user is the one the
    ticket stands for (a bad ticket makes the client anonymous, never the
    session's user); the scope's ``credential`` is what the socket opened
    with (None: anonymous)."""

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        ticket = query_ticket(scope)
        user, credential = await (_session_login(scope) if ticket is None else _redeem(ticket))
        return await super().__call__(
            {**scope, "user": user, "credential": credential}, receive, send
        )


async def credential_valid(sender: Any, scope: dict[str, Any], **kwargs: Any) -> bool:
    """The answer to ``kernel.signals.credentials_checked``: whether the
    credential a socket opened with still works (an anonymous socket has
    none to lose)."""
    credential = scope.get("credential")
    if credential is None:
        return True
    user = await database(credential_user)(credential)
    return bool(user.is_authenticated)


class OriginGuard:
    """Sockets without a ticket must come from this site (the module's
    docstring); others are refused with 4403."""

    def __init__(self, application: Any) -> None:
        self.application = application
        self.refused = _Refused.as_asgi()

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        if query_ticket(scope) is not None or origin_allowed(scope):
            return await self.application(scope, receive, send)
        return await self.refused(scope, receive, send)


DEFAULT_PORTS = {"http": 80, "https": 443}

Origin = tuple[str, str, int]
"""(scheme, host, port): what two origins must share to be one."""


def origin_allowed(scope: dict[str, Any]) -> bool:
    """Whether the handshake's Origin is a trusted one or the socket's own
    (that of the page this site serves at its Host, if one of
    ``ALLOWED_HOSTS``), scheme, host and port alike."""
    origin = _origin_of(_header(scope, b"origin"))
    allowed = {_origin_of(url) for url in settings.CSRF_TRUSTED_ORIGINS}
    host = _header(scope, b"host")
    if host is not None and validate_host(split_domain_port(host)[0], settings.ALLOWED_HOSTS):
        scheme = "https" if scope.get("scheme") == "wss" else "http"
        allowed.add(_origin_of(f"{scheme}://{host}"))
    return origin is not None and origin in allowed


def _origin_of(url: str | None) -> Origin | None:
    """The origin of ``url`` (None: no URL, or none a page could have)."""
    try:
        parsed = urlparse(url or "")
        port = parsed.port
    except ValueError:
        return None
    if parsed.scheme not in DEFAULT_PORTS or not parsed.hostname:
        return None
    return parsed.scheme, parsed.hostname, port or DEFAULT_PORTS[parsed.scheme]


def _header(scope: dict[str, Any], wanted: bytes) -> str | None:
    for name, value in scope.get("headers", []):
        if name == wanted:
            return str(value.decode("latin1"))
    return None


class OutageGuard:
    """A socket whose handshake meets PostgreSQL or Redis out of reach (the
    token or session looked up, the consumer's first reads) is closed with
    1013, "try again later", after an error frame, instead of an ASGI
    error; an open socket handles outages itself (``kernel.consumers``)."""

    def __init__(self, application: Any) -> None:
        self.application = application

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        accepted = False

        async def send_seen(message: dict[str, Any]) -> None:
            nonlocal accepted
            accepted = accepted or message["type"] == "websocket.accept"
            await send(message)

        try:
            return await self.application(scope, receive, send_seen)
        except outage.OUTAGE_ERRORS:
            with contextlib.suppress(Exception):  # the client may be gone
                await _close_unavailable(send, accepted, scope)
            return None


async def _close_unavailable(send: Any, accepted: bool, scope: dict[str, Any]) -> None:
    """``refuse`` (or ``end``) with ``UNAVAILABLE``, in bare ASGI messages
    (the frame's language not asked of the account: the database is away)."""
    why = UNAVAILABLE
    if not accepted:
        await send({"type": "websocket.accept"})
    frame = why.frame(scope, account=False)
    await send({"type": "websocket.send", "text": json.dumps(frame)})
    await send({"type": "websocket.close", "code": why.close_code, "reason": why.reason})
