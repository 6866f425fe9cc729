"""The command path's own SQL: few round trips, no query building per call.

Every action at a table reads two rows and writes a handful; through the
ORM, building those statements cost more CPU than the rest of the action.
Here each statement's text is made once per process from the models'
metadata (``_meta``: tables, columns, the primary key) and kept; a call
only prepares its values as the ORM would (``get_db_prep_save``) and reads
rows back through the fields' own converters (``from_db_value``).

Writes of one step go in one round trip on PostgreSQL: the parts become
data-modifying CTEs (``WITH w0 AS (INSERT ...) INSERT ...``), which run
every part inside the caller's transaction.  Other databases (SQLite on
the embedded defaults) run the parts one after another.

On PostgreSQL these statements go through psycopg's own cursor, which
binds on the server (``psycopg.Cursor``; Django's cursors are psycopg's
``ClientCursor`` unless ``OPTIONS["server_side_binding"]`` switches every
query of the connection): the parameters travel apart from the text, so
psycopg does not quote each value into the SQL in Python.  And each text
is a prepared statement of its connection from its first run
(``execute(..., prepare=True)``, psycopg keeping the connection's
prepared statements), which PostgreSQL then neither parses nor plans
again.  An action's statements are a few fixed texts with dozens of
values: this was about a tenth of its CPU.  Only these statements, whose
values all have a column to take their type from, are switched.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from functools import cache
from typing import Any, TypeVar

from django.db import connections
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.backends.utils import CursorDebugWrapper, CursorWrapper
from django.db.models import Field, ForeignKey, Model

Statement = tuple[str, Sequence[Any]]
M = TypeVar("M", bound=Model)


@cache
def _fields(model: type[Model]) -> list[Field[Any, Any]]:
    """The columns a row is read and written with, in ``_meta`` order (the
    model's fields that have a column of its own: ``Field.concrete``, not a
    many-to-many)."""
    fields = model._meta.get_fields()
    return [f for f in fields if f.concrete and not f.many_to_many]


def _written(model: type[Model]) -> list[Field[Any, Any]]:
    """The columns an insert gives (not an id the database makes)."""
    return [f for f in _fields(model) if not getattr(f, "db_returning", False)]


def _quote(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def _field(model: type[Model], name: str) -> Field[Any, Any]:
    """``model``'s field ``name`` (or its attname), one with a column of
    the model's table: not a relation's reverse side."""
    field = model._meta.get_field(name)
    if not isinstance(field, Field):
        raise TypeError(f"{model.__name__}.{name} is not a field of its table")
    return field


def column(model: type[Model], name: str) -> str:
    """The column of ``model``'s field ``name``."""
    return _column_name(_field(model, name))


def _column_name(field: Field[Any, Any]) -> str:
    """The column of ``field`` (None only for a field with no column of
    its own, such as a many-to-many)."""
    if field.column is None:
        raise TypeError(f"{field} has no column")
    return field.column


def _column(field: Field[Any, Any]) -> str:
    """The column of ``field``, quoted."""
    return _quote(_column_name(field))


@cache
def _insert_sql(model: type[Model], rows: int) -> str:
    columns = ", ".join(_column(f) for f in _written(model))
    values = ", ".join(["(" + ", ".join(["%s"] * len(_written(model))) + ")"] * rows)
    return f"INSERT INTO {_quote(model._meta.db_table)} ({columns}) VALUES {values}"


@cache
def _update_sql(model: type[Model], names: tuple[str, ...], keys: tuple[str, ...]) -> str:
    sets = ", ".join(f"{_column(_field(model, n))} = %s" for n in names)
    return f"UPDATE {_quote(model._meta.db_table)} SET {sets} WHERE {_where(model, keys)}"


@cache
def _delete_sql(model: type[Model], keys: tuple[str, ...]) -> str:
    return f"DELETE FROM {_quote(model._meta.db_table)} WHERE {_where(model, keys)}"


def _where(model: type[Model], keys: tuple[str, ...]) -> str:
    return " AND ".join(f"{_column(_field(model, k))} = %s" for k in keys)


def insert(model: type[Model], objects: Sequence[Model], using: str = "default") -> Statement:
    """``model.objects.bulk_create(objects)`` as one statement, not run (an
    id the database makes is not read back)."""
    connection = connections[using]
    params = [
        f.get_db_prep_save(
            getattr(obj, f.attname) if plain else f.pre_save(obj, add=True), connection
        )
        for obj in objects
        for f, plain in _savers(model)
    ]
    return _insert_sql(model, len(objects)), params


@cache
def _savers(model: type[Model]) -> list[tuple[Field[Any, Any], bool]]:
    """The columns an insert gives, each with whether its ``pre_save`` is
    ``Field``'s own (the attribute as it is: read directly)."""
    return [(f, type(f).pre_save is Field.pre_save) for f in _written(model)]


def update(model: type[Model], pk: Any, using: str = "default", **values: Any) -> Statement:
    """``model.objects.filter(pk=pk).update(**values)`` as a statement, not run."""
    return update_where(model, {model._meta.pk.name: pk}, using, **values)


def update_where(
    model: type[Model], where: Mapping[str, Any], using: str = "default", **values: Any
) -> Statement:
    """``model.objects.filter(**where).update(**values)`` (``where``: equal
    values by field name) as a statement, not run."""
    connection = connections[using]
    params = [_field(model, n).get_db_prep_save(v, connection) for n, v in values.items()]
    params += _keys(model, where, connection)
    return _update_sql(model, tuple(values), tuple(where)), params


def delete_where(model: type[Model], where: Mapping[str, Any], using: str = "default") -> Statement:
    """``model.objects.filter(**where).delete()`` as a statement, not run
    (no cascades or signals: for rows nothing points to)."""
    return _delete_sql(model, tuple(where)), _keys(model, where, connections[using])


def _keys(
    model: type[Model], where: Mapping[str, Any], connection: BaseDatabaseWrapper
) -> list[Any]:
    return [_field(model, k).get_db_prep_value(v, connection) for k, v in where.items()]


def _cursor(connection: BaseDatabaseWrapper) -> CursorWrapper:
    """A cursor of ``connection`` as ``connection.cursor()`` gives (its
    errors Django's, logged the same way: ``CaptureQueriesContext`` counts
    its statements), but on PostgreSQL psycopg's server-binding cursor
    whose statements are prepared (see the module)."""
    if connection.vendor != "postgresql":
        return connection.cursor()
    connection.ensure_connection()
    connection.validate_thread_sharing()
    cursor = _prepared_cursor()(connection.connection)
    if connection.queries_logged:
        return _LoggedWithValues(cursor, connection)
    return connection.make_cursor(cursor)


@cache
def _prepared_cursor() -> type[Any]:
    """psycopg's ``Cursor`` whose every statement is prepared at its first
    run (made here, not at import: a setup on SQLite alone need not have
    psycopg)."""
    import psycopg

    class PreparedCursor(psycopg.Cursor[Any]):
        def execute(self, query: Any, params: Any = None, **options: Any) -> Any:
            options.setdefault("prepare", True)
            return super().execute(query, params, **options)

    return PreparedCursor


class _LoggedWithValues(CursorDebugWrapper):
    """Logs a statement with its values written in, as Django's own cursors
    are logged: a server-binding cursor's last query holds ``$1, $2, ...``,
    and the query log (``CaptureQueriesContext``, tests that read which
    rows a statement touched, DEBUG's SQL log) wants the values.  Composed
    only when queries are logged."""

    # Only this module's statements reach it, as text (Django's cursors
    # also take psycopg's composed SQL objects).
    def execute(self, sql: str, params: Any = None) -> Any:  # type: ignore[override]
        with self.debug_sql(self.db.ops.compose_sql(sql, params)):
            return CursorWrapper.execute(self, sql, params)


def execute(statements: Sequence[Statement], using: str = "default") -> None:
    """Run ``statements`` in the caller's transaction: as one on PostgreSQL,
    in order elsewhere."""
    if not statements:
        return
    connection = connections[using]
    with _cursor(connection) as cursor:
        if connection.vendor != "postgresql" or len(statements) == 1:
            for sql, params in statements:
                cursor.execute(sql, params)
            return
        *parts, (last, _) = statements
        ctes = ", ".join(f"w{k} AS ({sql})" for k, (sql, _) in enumerate(parts))
        cursor.execute(f"WITH {ctes} {last}", [p for _, params in statements for p in params])


# --------------------------------------------------------------------------
# Reading rows


def _columns(model: type[Model], alias: str) -> str:
    """The select list of a row of ``model`` under ``alias``."""
    return ", ".join(f"{alias}.{_column(f)}" for f in _fields(model))


def _read(model: type[M], using: str, values: Sequence[Any]) -> M:
    """A ``model`` instance from the values of its ``_columns``, as a
    queryset would make it."""
    names, convert = _reader(model, using)
    return model.from_db(using, names, convert(values))


@cache
def _reader(
    model: type[Model], using: str
) -> tuple[list[str], Callable[[Sequence[Any]], list[Any]]]:
    """The attribute names and the row converter ``_read`` makes a
    ``model`` instance with."""
    fields = _fields(model)
    names = [f.attname for f in fields]
    return names, row_converter(model, tuple(f.name for f in fields), using)


@cache
def row_converter(
    model: type[Model], names: tuple[str, ...], using: str
) -> Callable[[Sequence[Any]], list[Any]]:
    """A function giving the values of ``model``'s fields ``names`` (a row
    of their columns, in that order) as a queryset would: each through its
    field's converters (``from_db_value``) and the database's."""
    connection = connections[using]
    table = model._meta.db_table
    columns = [_field(model, name).get_col(table) for name in names]
    converters = [
        (k, connection.ops.get_db_converters(col) + col.get_db_converters(connection), col)
        for k, col in enumerate(columns)
    ]
    converters = [(k, funcs, col) for k, funcs, col in converters if funcs]

    def convert_row(values: Sequence[Any]) -> list[Any]:
        row = list(values)
        for k, funcs, col in converters:
            for convert in funcs:
                row[k] = convert(row[k], col, connection)
        return row

    return convert_row


def lock_pair(model: type[M], pk: Any, relation: str, using: str = "default") -> M | None:
    """The row of ``model`` with ``pk`` and the row its foreign key
    ``relation`` points to, both locked and read in one statement
    (PostgreSQL's ``FOR UPDATE OF`` both), the second as the first's cached
    ``relation``; None when the key is null, the row is missing, or the
    database has no row locks (SQLite: the caller takes its own way)."""
    connection = connections[using]
    if connection.vendor != "postgresql":
        return None
    with _cursor(connection) as cursor:
        cursor.execute(_lock_pair_sql(model, relation), [pk])
        row = cursor.fetchone()
    if row is None:
        return None
    field = _foreign_key(model, relation)
    n = len(_fields(model))
    first = _read(model, using, row[:n])
    # Assigned through the relation's descriptor, which caches it.
    setattr(first, field.name, _read(field.related_model, using, row[n:]))
    return first


def _foreign_key(model: type[Model], name: str) -> ForeignKey[Any, Any]:
    """``model``'s foreign key ``name``."""
    field = model._meta.get_field(name)
    if not isinstance(field, ForeignKey):
        raise TypeError(f"{model.__name__}.{name} is not a foreign key")
    return field


@cache
def _lock_pair_sql(model: type[Model], relation: str) -> str:
    field = _foreign_key(model, relation)
    related = field.related_model
    return (
        f"SELECT {_columns(model, 'a')}, {_columns(related, 'b')}"
        f" FROM {_quote(model._meta.db_table)} a"
        f" JOIN {_quote(related._meta.db_table)} b"
        f" ON b.{_column(related._meta.pk)} = a.{_quote(field.column)}"
        f" WHERE a.{_column(model._meta.pk)} = %s FOR UPDATE OF a, b"
    )
