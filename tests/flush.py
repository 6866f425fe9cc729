"""Empty a test database after a transactional test by emptying only the
tables the test wrote to.

Why: Django's ``TransactionTestCase`` ends each test with ``manage.py
flush``: one TRUNCATE of every table (on PostgreSQL each gets new files,
synced at commit) and then the ``post_migrate`` signal, which rebuilds the
content types and permissions the TRUNCATE threw away.  That costs a third
to half a second a test on this machine, for the several hundred tests that
commit (races, clocks, sockets, servers).  A test writes to a few tables;
content types and permissions are the migrations', and no test changes
them.  So: find the tables holding a row (one query), TRUNCATE those
(CASCADE takes along the empty tables that refer to them; SQLite, without
TRUNCATE, deletes their rows), keep content types and permissions.
TRUNCATE and not DELETE: the event log and the ledger refuse DELETE by
trigger, as they must.

Falls back to Django's own flush whenever the shortcut's assumption might
not hold: a test that resets sequences, rolls back serialized contents,
names its ``available_apps``, or changed the content types or permissions.
"""

from __future__ import annotations

from typing import Any

from django.db import connections, transaction
from django.test import TransactionTestCase

KEPT = ("django_content_type", "auth_permission")
"""Written by migrations (post_migrate), read by tests, never changed by one."""

_django_teardown = TransactionTestCase._fixture_teardown
_kept_counts: dict[str, tuple[int, ...]] = {}


def install() -> None:
    """Make every transactional test end with the narrow flush."""
    TransactionTestCase._fixture_teardown = _fixture_teardown  # type: ignore[method-assign]


def _fixture_teardown(self: TransactionTestCase) -> None:
    if self.reset_sequences or self.serialized_rollback or self.available_apps is not None:
        _whole_flush(self)
        return
    for alias in self._databases_names(include_mirrors=False):
        if not _empty_written_tables(alias):
            _whole_flush(self)
            return


def _whole_flush(self: TransactionTestCase) -> None:
    """Django's own flush; the content types and permissions it rebuilds are
    the ones the next narrow flush keeps."""
    _django_teardown(self)
    _kept_counts.clear()


def _empty_written_tables(alias: str) -> bool:
    """Empty the tables of ``alias`` that hold a row; False when the kept
    tables differ from what the migrations wrote (then flush it all)."""
    connection = connections[alias]
    quote = connection.ops.quote_name
    tables = [
        name
        for name in connection.introspection.django_table_names(
            only_existing=True, include_views=False
        )
        if name not in KEPT
    ]
    with transaction.atomic(using=alias), connection.cursor() as cursor:
        if _kept_counts_of(cursor, quote) != _kept_counts.setdefault(
            alias, _kept_counts_of(cursor, quote)
        ):
            return False
        written = _written(cursor, quote, tables)
        for statement in _empty_statements(connection.vendor, quote, written):
            cursor.execute(statement)
    return True


def _kept_counts_of(cursor: Any, quote: Any) -> tuple[int, ...]:
    counts = " UNION ALL ".join(
        f"SELECT COUNT(*), COALESCE(MAX(id), 0) FROM {quote(table)}" for table in KEPT
    )
    cursor.execute(counts)
    return tuple(value for row in cursor.fetchall() for value in row)


def _written(cursor: Any, quote: Any, tables: list[str]) -> list[str]:
    probes = " UNION ALL ".join(
        f"SELECT {index} FROM (SELECT 1 FROM {quote(table)} LIMIT 1) AS t{index}"
        for index, table in enumerate(tables)
    )
    cursor.execute(probes)
    return [tables[index] for (index,) in cursor.fetchall()]


def _empty_statements(vendor: str, quote: Any, tables: list[str]) -> list[str]:
    """One TRUNCATE on PostgreSQL; SQLite has none, and no trigger refusing
    DELETE (its foreign keys are checked at commit, so order is free)."""
    if not tables:
        return []
    if vendor == "postgresql":
        return ["TRUNCATE " + ", ".join(quote(table) for table in tables) + " CASCADE"]
    return [f"DELETE FROM {quote(table)}" for table in tables]
