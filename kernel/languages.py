"""Which of the room's languages (``LANGUAGES``) a WebSocket speaks.

A request's comes from ``LocaleMiddleware``; a socket has no middleware
that picks one, so its consumer asks ``socket_language``: the ``lang`` of
its query string (the client's page language), else the logged-in
player's account language, else the handshake's ``Accept-Language``,
else ``LANGUAGE_CODE``.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import parse_qs

from django.conf import settings
from django.utils.translation import get_supported_language_variant


def _supported(tag: str) -> str | None:
    tag = tag.strip()
    if not tag or tag == "*" or len(tag) > 35:
        return None
    try:
        return str(get_supported_language_variant(tag.lower()))
    except LookupError:
        return None


def _accepted(header: str) -> list[str]:
    """The tags of an ``Accept-Language`` header, most wanted first (q=0 dropped)."""
    weighted: list[tuple[float, int, str]] = []
    for i, part in enumerate(header.split(",")[:20]):
        tag, _, rest = part.partition(";")
        q = 1.0
        if rest.strip().startswith("q="):
            try:
                q = float(rest.strip()[2:])
            except ValueError:
                q = 0.0
        if q > 0:
            weighted.append((-q, i, tag))
    return [tag for _q, _i, tag in sorted(weighted)]


def socket_language(scope: dict[str, Any], *, account: bool = True) -> str:
    """The language of the socket ``scope`` (see the module docstring);
    without ``account`` its user is not asked (the database may be away)."""
    query = parse_qs(scope.get("query_string", b"").decode(errors="replace"))
    wanted = [*query.get("lang", [])[:1]]
    user = scope.get("user") if account else None
    if user is not None and user.is_authenticated:
        wanted.append(getattr(user, "language", "") or "")
    for name, value in scope.get("headers", ()):
        if name == b"accept-language":
            wanted += _accepted(value.decode("latin-1"))
    for tag in wanted:
        found = _supported(tag)
        if found is not None:
            return found
    return str(settings.LANGUAGE_CODE)
