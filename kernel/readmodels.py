"""The one writer of read models: rows as values, their changes as SQL.

Each aggregate states its read-model rows as a function of its state
(``seat_rows``, ``box_rows``, ``entrant_rows``, ...): a ``Rows`` mapping,
each row's key (its values of ``Kind.key``) to its other columns.  A
command compares the rows of the state it read with those of the state it
leaves and writes only the difference, unread (``changes``); a rebuild
compares the rows of the replayed state with those the database holds
(``rewrite``), through the same function.  A single row read under a lock
(a table's, a round's) is written by ``update`` with only its changed
columns.  Every write is a ``kernel.statements.Statement``, for the caller
to join to its append (one round trip on PostgreSQL).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.db.models import Model

from kernel import statements

Key = tuple[Any, ...]
Rows = Mapping[Key, Mapping[str, Any]]
"""A kind's rows: each key to its other columns (by attribute name)."""


@dataclass(frozen=True)
class Kind:
    """A read model kept as rows of ``model``."""

    model: type[Model]
    key: tuple[str, ...]
    """The columns (attribute names) that name a row: ``("table_id", "number")``."""
    identity: tuple[str, ...] = ()
    """Columns whose change makes it another row: deleted and inserted, not
    updated (a seat taken by another player)."""


def changes(
    kind: Kind, before: Rows, after: Rows, using: str = "default"
) -> tuple[list[statements.Statement], list[statements.Statement]]:
    """The statements taking ``kind``'s rows from ``before`` to ``after``:
    the deletes (rows gone, or another row under the same key), to run
    first and apart, so a new row never meets the old one's unique keys;
    then the updates of the changed columns and one insert of the new rows."""
    gone, writes, new = [], [], []
    for key, old in before.items():
        now = after.get(key)
        if now is None or any(now[c] != old[c] for c in kind.identity):
            gone.append(statements.delete_where(kind.model, _where(kind, key), using))
    for key, values in after.items():
        was = before.get(key)
        if was is None or any(values[c] != was[c] for c in kind.identity):
            new.append(kind.model(**_where(kind, key), **values))
            continue
        changed = {c: v for c, v in values.items() if was.get(c) != v}
        if changed:
            writes.append(statements.update_where(kind.model, _where(kind, key), using, **changed))
    if new:
        writes.append(statements.insert(kind.model, new, using))
    return gone, writes


def _where(kind: Kind, key: Key) -> dict[str, Any]:
    return dict(zip(kind.key, key, strict=True))


def rewrite(kind: Kind, rows: Rows, using: str = "default", **where: Any) -> None:
    """Write ``rows`` against the rows of ``kind`` stored (``where``: which):
    a new aggregate's, a rebuild's."""
    stored = (
        kind.model._default_manager.using(using).filter(**where).values(*kind.key, *_names(rows))
    )
    held = {tuple(r.pop(k) for k in kind.key): r for r in stored}
    gone, writes = changes(kind, held, rows, using)
    statements.execute(gone, using)
    statements.execute(writes, using)


def _names(rows: Rows) -> list[str]:
    return list(next(iter(rows.values()), {}))


def update(
    row: Model, values: Mapping[str, Any], using: str = "default"
) -> list[statements.Statement]:
    """``row`` (as read) given ``values``: set on it, and its changed
    columns as one UPDATE (none changed: nothing)."""
    changed = {name: v for name, v in values.items() if getattr(row, name) != v}
    for name, value in changed.items():
        setattr(row, name, value)
    return [statements.update(type(row), row.pk, using, **changed)] if changed else []


def saved(row: Model, values: Mapping[str, Any], using: str = "default") -> statements.Statement:
    """``row``, new, given ``values``: its INSERT, and the instance marked
    as saved (so that later writes update it)."""
    for name, value in values.items():
        setattr(row, name, value)
    insert = statements.insert(type(row), [row], using)
    row._state.adding, row._state.db = False, using
    return insert
