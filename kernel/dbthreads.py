"""The threads a server's sockets reach the database from.

Channels' ``database_sync_to_async`` runs every call of a process on one
thread (asgiref's thread-sensitive one): a socket's command would wait
behind every other socket's handshake, snapshot, catch-up and command, and
their round trips to PostgreSQL would be made one after the other.
``database`` runs them on a pool of ``settings.DB_THREADS`` threads, each
with its own connection (Django keeps one per thread), closed when old as
Channels closes them (``close_old_connections`` before and after a call).

What one thread would give, the pool keeps:

- A socket's own calls run one after the other: Channels hands a consumer
  one message at a time, and each call is awaited.
- Two commands at one table, from two threads, wait on the table row's
  lock in PostgreSQL, as commands from two processes always have.
- Frames are published after commit, in the order the commands hand them
  over (``kernel.layer``).  Two commands of one table committing back to
  back on two threads may hand theirs over the other way round, as two
  processes' commands may: a socket fetches the position it skipped from
  the store and drops the late frame (``poker.consumers.TableConsumer``).
- On SQLite (the embedded defaults) the pool has one thread: its writers
  take the file's one write lock anyway.
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from channels.db import DatabaseSyncToAsync
from django.conf import settings
from django.db import connections

THREAD_NAME = "database"


@functools.cache
def pool() -> ThreadPoolExecutor:
    """The process's database threads (made at the first call)."""
    return ThreadPoolExecutor(max_workers=settings.DB_THREADS, thread_name_prefix=THREAD_NAME)


def database(function: Callable[..., Any]) -> Callable[..., Any]:
    """``function`` made awaitable: run on one of the database threads,
    old connections closed around it (Channels' ``database_sync_to_async``
    on a pool of threads rather than one)."""
    awaitable: Callable[..., Any] = DatabaseSyncToAsync(
        function, thread_sensitive=False, executor=pool()
    )
    return awaitable


def close_connections(timeout: float = 10.0) -> None:
    """Close the connections every database thread holds (each its own),
    if the pool was made: as many calls as threads, each waiting for the
    others, so that every thread runs one.  For tests (a test database is
    dropped only once nobody is connected to it, and an outage test wants
    every thread to connect anew)."""
    if not pool.cache_info().currsize:
        return
    threads = settings.DB_THREADS
    barrier = threading.Barrier(threads)

    def close_here() -> None:
        connections.close_all()
        barrier.wait(timeout)

    for done in [pool().submit(close_here) for _ in range(threads)]:
        done.result(timeout)
