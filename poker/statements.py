"""Several writes of one step in one round trip to the database.

A command's appends (its command row and its events) and its read-model
updates are each one statement on PostgreSQL: the parts become
data-modifying CTEs (``WITH w0 AS (INSERT ...) INSERT ...``), which run
every part in one round trip inside the caller's transaction.  Other
databases (SQLite on the embedded defaults) run the parts one after
another.  The SQL of each part is Django's own (its compilers), so field
types, JSON and time zones are prepared as the ORM prepares them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db import connections
from django.db.models import Model, QuerySet
from django.db.models.sql.subqueries import InsertQuery, UpdateQuery

Statement = tuple[str, Sequence[Any]]


def update(queryset: QuerySet[Any], **values: Any) -> Statement:
    """``queryset.update(**values)`` as SQL, not run."""
    query = queryset.query.chain(UpdateQuery)
    query.add_update_values(values)
    sql, params = query.get_compiler(queryset.db).as_sql()
    return sql, params


def insert(model: type[Model], objects: Sequence[Model], using: str = "default") -> Statement:
    """``model.objects.bulk_create(objects)`` as SQL, not run (no ids read
    back: rows whose id the database makes are not read again)."""
    fields = [f for f in model._meta.concrete_fields if not _auto(f)]
    query = InsertQuery(model)
    query.insert_values(fields, objects)
    compiler = query.get_compiler(using)
    (sql, params), *more = compiler.as_sql()
    assert not more, "one INSERT for every row"
    return sql, params


def _auto(field: Any) -> bool:
    """A column the database fills (an auto-incremented id)."""
    return bool(getattr(field, "db_returning", False))


def execute(statements: Sequence[Statement], using: str = "default") -> None:
    """Run ``statements`` in the caller's transaction: as one on PostgreSQL,
    in order elsewhere."""
    if not statements:
        return
    connection = connections[using]
    with connection.cursor() as cursor:
        if connection.vendor != "postgresql" or len(statements) == 1:
            for sql, params in statements:
                cursor.execute(sql, params)
            return
        *parts, (last, _) = statements
        ctes = ", ".join(f"w{k} AS ({sql})" for k, (sql, _) in enumerate(parts))
        cursor.execute(f"WITH {ctes} {last}", [p for _, params in statements for p in params])
