"""Reads that must agree with one another, without taking a lock."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from django.db import connections, transaction


@contextmanager
def one_snapshot(using: str = "default") -> Iterator[None]:
    """A transaction whose reads all see one snapshot of the database, so
    what commits meanwhile cannot show in one read and not in another:
    PostgreSQL's REPEATABLE READ (SQLite's transaction reads one snapshot
    already).  Inside a transaction, that one's reads."""
    connection = connections[using]
    outermost = not connection.in_atomic_block
    with transaction.atomic(using=using):
        if outermost and connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
        yield
