"""The command path's own SQL (``kernel.statements``): statements by field
name, a name that is no column of the table refused before any SQL."""

from __future__ import annotations

import re

import pytest
from django.db import connection, transaction

from kernel import statements
from kernel.models import Event
from poker.models import Table

pytestmark = pytest.mark.django_db(transaction=False)


def test_an_update_names_the_columns_of_its_fields() -> None:
    sql, params = statements.update_where(Table, {"current_hand_id": 7}, name="T1", seats=6)
    assert sql == (
        'UPDATE "poker_table" SET "name" = %s, "seats" = %s WHERE "current_hand_id" = %s'
    )
    assert list(params)[:2] == ["T1", 6]


def test_a_field_s_column_is_its_own_or_its_key_s() -> None:
    assert statements.column(Event, "stream") == "stream"
    assert statements.column(Table, "current_hand") == "current_hand_id"


@pytest.mark.parametrize("name", ["hands", "seat_set"])
def test_a_reverse_relation_is_no_column_to_set_or_match(name: str) -> None:
    refused = re.escape(f"Table.{name} is not a field of its table")
    with pytest.raises(TypeError, match=refused):
        statements.update(Table, 1, **{name: 1})
    with pytest.raises(TypeError, match=refused):
        statements.delete_where(Table, {name: 1})
    with pytest.raises(TypeError, match=refused):
        statements.column(Table, name)


def test_only_a_foreign_key_locks_its_row_with_the_first() -> None:
    """On PostgreSQL (the only database with row locks) a pair is read by
    a foreign key; a plain column is refused before the statement runs."""
    if connection.vendor != "postgresql":
        assert statements.lock_pair(Table, 1, "name") is None
        return
    refused = re.escape("Table.name is not a foreign key")
    with transaction.atomic(), pytest.raises(TypeError, match=refused):
        statements.lock_pair(Table, 1, "name")
    assert statements.lock_pair(Table, 0, "current_hand") is None  # no such row
