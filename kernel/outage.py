"""A moment without PostgreSQL or Redis (a restart, a failover, a dropped
connection): which errors say so, and what a client is told.

Such a command is refused with the code ``unavailable``: nothing of it was
committed unless its answer was, so the client sends it again later with
the same command id and gets the first answer, or it runs then, once.  The
REST API answers 503 with ``Retry-After``; a socket answers an error frame
and stays open (``kernel.consumers.JsonFrames``)."""

from __future__ import annotations

from typing import Any

import kombu.exceptions
import redis.exceptions
from django.db import InterfaceError
from django.db import OperationalError as DatabaseUnreachable
from django.utils.translation import gettext

OUTAGE_ERRORS: tuple[type[BaseException], ...] = (
    DatabaseUnreachable,  # psycopg's, wrapped: a refused, cut or restarting server
    InterfaceError,  # a connection closed under the caller
    redis.exceptions.ConnectionError,  # Redis refused, restarting or loading its data
    redis.exceptions.TimeoutError,
    kombu.exceptions.OperationalError,  # the broker, behind Celery
    ConnectionError,  # a socket reset or refused, raw
)
"""Errors of a server out of reach: the request may succeed if retried."""

CODE = "unavailable"
RETRY_AFTER_S = 1
STATUS = 503


def body(**more: Any) -> dict[str, Any]:
    """The error's body (a REST answer, or a socket's error frame with ``more``)."""
    return {
        **more,
        "code": CODE,
        "message": gettext(
            "The service is briefly unavailable: try again with the same command id."
        ),
        "retryable": True,
        "retry_after": RETRY_AFTER_S,
    }
