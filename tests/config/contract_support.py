"""What the contract tests share: the schema as served, the application in
process, and the people and things the requests name.

The requests go to Django's WSGI application in this process and thread
(so they see the test's transaction), the way a real client would make
them: a token in the ``Authorization`` header, JSON bodies, no test-client
shortcuts (no forced login, no skipped CSRF check).
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from django.core import signals
from django.core.wsgi import get_wsgi_application
from django.db import close_old_connections
from django.test import Client
from werkzeug.test import Client as WsgiClient

SCHEMA_PATH = "/api/schema/?format=json"


def served_schema() -> dict[str, Any]:
    """The OpenAPI document as the server serves it."""
    response = Client().get(SCHEMA_PATH)
    assert response.status_code == 200, response.content[:300]
    document: dict[str, Any] = json.loads(response.content)
    return document


@contextmanager
def same_connection() -> Iterator[None]:
    """Requests made through the WSGI handler keep the test's database
    connection (and so its transaction), as Django's test client does: no
    closing of "old" connections at each request's start and end."""
    signals.request_started.disconnect(close_old_connections)
    signals.request_finished.disconnect(close_old_connections)
    try:
        yield
    finally:
        signals.request_started.connect(close_old_connections)
        signals.request_finished.connect(close_old_connections)


APP = get_wsgi_application()
"""The Django application as a WSGI server runs it."""


def log_in(username: str, password: str = "pw") -> dict[str, str]:
    """The headers of a client logged in through the API: its token."""
    response = WsgiClient(APP).post(
        "/api/auth/login/", json={"username": username, "password": password}
    )
    assert response.status_code == 200, response.get_data()[:300]
    return {"Authorization": f"Token {response.json['token']}"}


@dataclass(frozen=True)
class World:
    """What the generated requests may name: real ids beside random ones,
    and the headers of each kind of user."""

    table: int
    tournament: int
    hand: str
    player: int
    viewers: dict[str, dict[str, str]]


def a_command_id() -> str:
    return str(uuid.uuid4())
