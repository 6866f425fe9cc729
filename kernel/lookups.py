"""Query lookups the ORM lacks on some backend, in one portable form."""

from __future__ import annotations

from typing import Any

from django.db.models import Lookup
from django.db.models.fields.json import DataContains


class ArrayHas(Lookup):
    """``field__has=value``: the JSON array in ``field`` has ``value`` among
    its elements (a scalar: a number or a string).

    Where the database can test JSON containment (PostgreSQL's ``@>``, which
    a GIN index on the column can serve), it is ``field__contains=[value]``.
    SQLite cannot (Django refuses ``contains`` on its JSON fields): there the
    array's elements are read with its ``json_each`` table function.
    """

    lookup_name = "has"
    prepare_rhs = False

    # Parameters as a list, as Django 5.2's own lookups give them (the
    # stubs say a tuple, as Django 6 does).
    def as_sql(self, compiler: Any, connection: Any) -> tuple[str, list[Any]]:  # type: ignore[override]
        sql, params = compiler.compile(DataContains(self.lhs, [self.rhs]))
        return sql, list(params)

    def as_sqlite(self, compiler: Any, connection: Any) -> tuple[str, list[Any]]:
        lhs, params = compiler.compile(self.lhs)
        return f"EXISTS (SELECT 1 FROM json_each({lhs}) WHERE value = %s)", [*params, self.rhs]
