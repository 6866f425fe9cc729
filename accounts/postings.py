"""The ledger's own SQL on PostgreSQL: one transfer in two statements.

Through the ORM a transfer took a savepoint, a lock, a read of its id, an
insert, one update per account, an insert of its entries and a release:
at a raked table that doubled the cost of the action that ends a hand.
Here (``accounts.ledger.transfer_post`` on PostgreSQL) a transfer over
accounts that exist is

1. ``lock``: its accounts locked in id order (``FOR UPDATE``) and read,
   with whether its id is already taken; none is locked when one is yet
   to be created;
2. ``write``: the transfer, its entries and the new balances in one
   statement (data-modifying CTEs), the transfer inserted ``ON CONFLICT
   (id) DO NOTHING`` and the rest joined to what it inserted, so a racer
   that took the id first (over other accounts: no lock queued us) makes
   the statement write nothing, and no savepoint is needed to survive it.

A caller with a statement of its own to run can take the write as parts
instead (``parts``): the transfer, its entries and the balances, each a
statement of its own, not run, for the caller to send with its writes as
data-modifying CTEs (``kernel.statements.execute``: the action that ends a
raked hand).  A statement nested in a CTE cannot modify data, so the parts
cannot join what the transfer's insert did: it has no ``ON CONFLICT``,
and a racer on its id fails the caller's statement (it rolls back whole)
rather than leave entries without their transfer.

Each statement's text is made once per process from the models' metadata.
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from functools import cache
from typing import Any

from django.db import connections

from accounts.models import Account, Entry, Transfer

Statement = tuple[str, Sequence[Any]]
"""SQL and its parameters (the shape of ``kernel.statements.Statement``)."""


def _quote(name: str | None) -> str:
    """A column or table name quoted (a model's columns always have one)."""
    if name is None:
        raise ValueError("a column without a name")
    return '"' + name.replace('"', '""') + '"'


def _column(model: type[Any], name: str) -> str:
    return _quote(model._meta.get_field(name).column)


@cache
def _lock_sql() -> str:
    account, transfer = Account._meta, Transfer._meta
    columns = ", ".join(f"a.{_quote(f.column)}" for f in account.concrete_fields)
    table, key = _quote(account.db_table), _column(Account, "key")
    return (
        f"SELECT {columns}, EXISTS (SELECT 1 FROM {_quote(transfer.db_table)}"
        f" WHERE {_quote(transfer.pk.column)} = %s)"
        f" FROM {table} a WHERE a.{key} = ANY(%s)"
        f" AND (SELECT count(*) FROM {table} WHERE {key} = ANY(%s)) = %s"
        f" ORDER BY a.{_quote(account.pk.column)} FOR UPDATE"
    )


def lock(
    keys: Sequence[str], transfer_id: uuid.UUID | None, using: str
) -> tuple[list[Account], bool]:
    """The accounts of ``keys`` locked in id order, and whether a transfer
    ``transfer_id`` exists: one statement.  All or nothing: when one of
    them does not exist yet, none is locked and the list is empty (see
    ``accounts.ledger``: accounts are created before any is locked)."""
    names = [f.attname for f in Account._meta.concrete_fields]
    keys = list(keys)
    with connections[using].cursor() as cursor:
        cursor.execute(_lock_sql(), [transfer_id, keys, keys, len(keys)])
        rows = cursor.fetchall()
    accounts = [Account.from_db(using, names, row[:-1]) for row in rows]
    return accounts, bool(rows and rows[0][-1])


def _transfer_insert() -> str:
    meta = Transfer._meta
    columns = ", ".join(_quote(f.column) for f in meta.concrete_fields)
    values = ", ".join(["%s"] * len(meta.concrete_fields))
    return f"INSERT INTO {_quote(meta.db_table)} ({columns}) VALUES ({values})"


def _entry_columns() -> str:
    names = ("transfer", "account", "amount", "balance_after")
    return f"{_quote(Entry._meta.db_table)} ({', '.join(_column(Entry, n) for n in names)})"


def _balances_set(source: str) -> str:
    """The accounts' update setting each balance from ``source``'s rows
    (``account``, ``balance``)."""
    account = Account._meta
    return (
        f"UPDATE {_quote(account.db_table)} a SET {_column(Account, 'balance')} = v.balance"
        f" FROM {source} WHERE a.{_quote(account.pk.column)} = v.account"
    )


@cache
def _write_sql(accounts: int) -> str:
    pk = _quote(Transfer._meta.pk.column)
    rows = ", ".join(["(%s, %s, %s)"] * accounts)
    entry_pk, e_account = _quote(Entry._meta.pk.column), _column(Entry, "account")
    return (
        f"WITH t AS ({_transfer_insert()} ON CONFLICT ({pk}) DO NOTHING RETURNING {pk}),"
        f" v (account, amount, balance) AS (VALUES {rows}),"
        f" e AS (INSERT INTO {_entry_columns()}"
        f" SELECT t.{pk}, v.account, v.amount, v.balance FROM t, v"
        f" RETURNING {entry_pk}, {e_account}),"
        f" u AS ({_balances_set('t, v')})"
        f" SELECT {e_account}, {entry_pk} FROM e"
    )


@cache
def _parts_sql(accounts: int) -> tuple[str, str, str]:
    entries = ", ".join(["(%s, %s, %s, %s)"] * accounts)
    balances = ", ".join(["(%s, %s)"] * accounts)
    return (
        _transfer_insert(),
        f"INSERT INTO {_entry_columns()} VALUES {entries}",
        _balances_set(f"(VALUES {balances}) v (account, balance)"),
    )


def _transfer_params(transfer: Transfer, connection: Any) -> list[Any]:
    return [
        f.get_db_prep_save(f.pre_save(transfer, add=True), connection)
        for f in Transfer._meta.concrete_fields
    ]


def write(transfer: Transfer, entries: Sequence[Entry], using: str) -> bool:
    """Insert ``transfer`` and ``entries`` (their ids set) and set each
    account's balance to its entry's ``balance_after``: one statement.
    False, and nothing written, when the transfer's id was taken."""
    connection = connections[using]
    params = _transfer_params(transfer, connection)
    for e in entries:
        params += [e.account_id, e.amount, e.balance_after]
    with connection.cursor() as cursor:
        cursor.execute(_write_sql(len(entries)), params)
        ids = dict(cursor.fetchall())
    for e in entries:
        e.pk = ids.get(e.account_id)
        e._state.adding = False
    transfer._state.adding = False
    return bool(ids)


def parts(transfer: Transfer, entries: Sequence[Entry], using: str) -> list[Statement]:
    """``write``'s work as three statements, not run, for the caller to run
    in one statement of its own (see the module docstring: no ``ON
    CONFLICT``, and the entries' ids are not read back)."""
    connection = connections[using]
    transfer_sql, entries_sql, balances_sql = _parts_sql(len(entries))
    pk = Transfer._meta.pk.get_db_prep_value(transfer.pk, connection)
    rows = [[pk, e.account_id, e.amount, e.balance_after] for e in entries]
    transfer._state.adding = False
    return [
        (transfer_sql, _transfer_params(transfer, connection)),
        (entries_sql, [value for row in rows for value in row]),
        (balances_sql, [value for e in entries for value in (e.account_id, e.balance_after)]),
    ]
