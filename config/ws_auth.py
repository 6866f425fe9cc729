"""WebSocket authentication by API token (``?token=<key>``), beside the
session that ``channels.auth.AuthMiddlewareStack`` reads from the cookie."""

from __future__ import annotations

from typing import Any

from channels.db import database_sync_to_async
from channels.middleware import BaseMiddleware


@database_sync_to_async
def _user_for(key: str) -> Any:
    from django.contrib.auth.models import AnonymousUser
    from rest_framework.authtoken.models import Token

    token = Token.objects.select_related("user").filter(key=key).first()
    if token is None or not token.user.is_active:
        return AnonymousUser()
    return token.user


class TokenAuthMiddleware(BaseMiddleware):  # type: ignore[misc]
    """With ``token`` in the query string, the scope's user is that token's
    (an unknown token makes the client anonymous, never someone else)."""

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        query = scope.get("query_string", b"").decode(errors="replace")
        for part in query.split("&"):
            name, _, value = part.partition("=")
            if name == "token" and value:
                scope = {**scope, "user": await _user_for(value)}
        return await super().__call__(scope, receive, send)
