"""A WebSocket ticket for a bot, as the browser client gets one: a
logged-in ``POST /api/ws-ticket/`` with the API token, right before each
connect (a ticket is good once, for seconds: the token never goes in a
URL)."""

from __future__ import annotations

import json
import urllib.request


def ws_ticket(http: str, token: str, timeout: float = 15) -> str:
    """A fresh ticket from the server at ``http`` (``http://host:port``)."""
    request = urllib.request.Request(
        f"{http}/api/ws-ticket/",
        method="POST",
        headers={"Accept": "application/json", "Authorization": f"Token {token}"},
    )
    with urllib.request.urlopen(request, timeout=timeout) as answer:
        return str(json.load(answer)["ticket"])
