"""One connection to Redis, kept by one sender thread (``config.sender``).

A redis-py pipeline checks a connection out of its pool, checks it for
stale replies, wraps the call in its retry and its observability hooks and
builds a pipeline object, every time: several times the cost of the
commands' own bytes, paid on each batch of the frame publisher and the
timer dispatcher.  A ``Wire`` keeps one connection instead and writes a
batch's commands at once, then reads their replies in order.

A connection that broke (Redis restarted since the last batch) is made
again and the batch written once more, as redis-py's pipeline retries it:
every command the senders write may be written twice (a channel message
is the same sorted-set member, a timer a task that finds its version
gone).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import redis

Command = Sequence[Any]

SEND_TIMEOUT_S = 5.0
"""How long a batch waits to connect, or for a reply, before it gives up."""


class Wire:
    """Commands to one Redis server, a batch a round trip; one thread's."""

    def __init__(self, url: str, **options: Any) -> None:
        # A sender waits on a batch's replies only: a Redis that hangs
        # (rather than refusing) must not hold its thread for ever, whatever
        # the channel layer's own sockets (idle for minutes) are allowed.
        options = {
            **options,
            "socket_timeout": SEND_TIMEOUT_S,
            "socket_connect_timeout": SEND_TIMEOUT_S,
        }
        options.pop("max_connections", None)
        self._connection = redis.ConnectionPool.from_url(url, **options).make_connection()

    def call(self, commands: Sequence[Command]) -> list[Any]:
        """Each command's reply, in order; a command Redis refused has its
        ``ResponseError`` for a reply (the others still ran)."""
        if not commands:
            return []
        try:
            return self._call(commands)
        except (redis.ConnectionError, redis.TimeoutError):
            return self._call(commands)  # on a new connection

    def _call(self, commands: Sequence[Command]) -> list[Any]:
        connection = self._connection  # connects when it is not
        try:
            connection.send_packed_command(connection.pack_commands(commands), check_health=False)
            return [_reply(connection) for _ in commands]
        except BaseException:
            connection.disconnect()  # replies left unread: connect afresh
            raise


def _reply(connection: Any) -> Any:
    try:
        return connection.read_response()
    except redis.ResponseError as refused:
        return refused
