"""Who opens a WebSocket, and how a socket is refused.

A client says who he is with an API token (``?token=<key>``, a knox token
as the REST API takes them) or with the session cookie that
``channels.auth.AuthMiddlewareStack`` reads.

The Origin check protects cookie sessions only: a browser sends the cookie
to this host whatever page opened the socket, so without a token the
handshake must come from a page of ``ALLOWED_HOSTS``.  A token is never
sent by the browser on its own, so a client that brings one (a script, an
app, a server) needs no Origin header; with a token the session is never
used, even when the token is wrong (the client is then anonymous).

A refused socket is accepted and closed at once, with an error frame
(``{"type": "error", "code", "message"}``) and a close code and reason
saying why: ASGI servers answer a handshake refused before acceptance with
a bare HTTP 403, and daphne drops close reasons, so the frame is what every
client can read.
"""

from __future__ import annotations

import contextlib
import json
from dataclasses import dataclass
from typing import Any
from urllib.parse import ParseResult, parse_qsl, urlparse

from channels.generic.websocket import AsyncJsonWebsocketConsumer
from channels.middleware import BaseMiddleware
from channels.security.websocket import AllowedHostsOriginValidator

from config import outage
from config.dbthreads import database


@dataclass(frozen=True)
class Refusal:
    """Why a socket is closed as it opens."""

    close_code: int
    code: str
    """The error frame's code (the REST API's code for the same refusal)."""
    reason: str


NOT_AUTHENTICATED = Refusal(4401, "not_authenticated", "not authenticated: log in or send a token")
ACCOUNT_LOCKED = Refusal(4401, "account_locked", "account locked: this session has ended")
UNAVAILABLE = Refusal(
    1013, "unavailable", "the service is briefly unavailable: connect again in a moment"
)
ORIGIN_REFUSED = Refusal(
    4403, "origin_refused", "origin refused: open the socket from this site, or send a token"
)


async def refuse(consumer: AsyncJsonWebsocketConsumer, refusal: Refusal) -> None:
    """Accept, say why, and close (see the module's docstring)."""
    await consumer.accept()
    await consumer.send_json({"type": "error", "code": refusal.code, "message": refusal.reason})
    await consumer.close(code=refusal.close_code, reason=refusal.reason)


async def end(consumer: AsyncJsonWebsocketConsumer, refusal: Refusal) -> None:
    """Say why and close a socket accepted before."""
    await consumer.send_json({"type": "error", "code": refusal.code, "message": refusal.reason})
    await consumer.close(code=refusal.close_code, reason=refusal.reason)


class _Refused(AsyncJsonWebsocketConsumer):  # type: ignore[misc]
    """The whole application for a socket refused before routing."""

    refusal: Refusal = ORIGIN_REFUSED

    async def connect(self) -> None:
        await refuse(self, self.refusal)


def query_token(scope: dict[str, Any]) -> str | None:
    """The ``token`` of the query string, if one is given (not empty)."""
    query = scope.get("query_string", b"").decode(errors="replace")
    tokens = [value for name, value in parse_qsl(query) if name == "token" and value]
    return tokens[-1] if tokens else None


@database
def _user_for(key: str) -> Any:
    """The active user of a live knox token, else anonymous (an expired
    token is deleted on the way, as the REST API does)."""
    from django.contrib.auth.models import AnonymousUser
    from knox.auth import TokenAuthentication
    from rest_framework.exceptions import AuthenticationFailed

    try:
        user, _ = TokenAuthentication().authenticate_credentials(key.encode())
    except AuthenticationFailed:
        return AnonymousUser()
    return user


class TokenAuthMiddleware(BaseMiddleware):  # type: ignore[misc]
    """With ``token`` in the query string, the scope's user is that token's
    (an unknown token makes the client anonymous, never someone else)."""

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        key = query_token(scope)
        if key is not None:
            scope = {**scope, "user": await _user_for(key)}
        return await super().__call__(scope, receive, send)


class OriginGuard:
    """Sockets without a token must come from an allowed origin
    (``ALLOWED_HOSTS``, as channels' ``AllowedHostsOriginValidator`` says);
    others are refused with 4403."""

    def __init__(self, application: Any) -> None:
        self.application = application
        self.validator = AllowedHostsOriginValidator(application)
        self.refused = _Refused.as_asgi()

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        if query_token(scope) is not None or self.validator.valid_origin(_origin(scope)):
            return await self.application(scope, receive, send)
        return await self.refused(scope, receive, send)


def _origin(scope: dict[str, Any]) -> ParseResult | None:
    for name, value in scope.get("headers", []):
        if name == b"origin":
            try:
                return urlparse(value.decode("latin1"))
            except (UnicodeDecodeError, ValueError):
                return None
    return None


class OutageGuard:
    """A socket whose handshake meets PostgreSQL or Redis out of reach (the
    token or session looked up, the consumer's first reads) is closed with
    1013, "try again later", after an error frame, instead of an ASGI
    error; an open socket handles outages itself (``poker.consumers``)."""

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
                await _close_unavailable(send, accepted)
            return None


async def _close_unavailable(send: Any, accepted: bool) -> None:
    """``refuse`` (or ``end``) with ``UNAVAILABLE``, in bare ASGI messages."""
    why = UNAVAILABLE
    if not accepted:
        await send({"type": "websocket.accept"})
    frame = {"type": "error", "code": why.code, "message": why.reason}
    await send({"type": "websocket.send", "text": json.dumps(frame)})
    await send({"type": "websocket.close", "code": why.close_code, "reason": why.reason})
