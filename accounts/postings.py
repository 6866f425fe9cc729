"""The ledger's own SQL on PostgreSQL: one transfer in two statements.

Through the ORM a transfer took a savepoint, a lock, a read of its id, an
insert, one update per account, an insert of its entries and a release:
at a raked table that doubled the cost of the action that ends a hand.
Here (``accounts.ledger.transfer_post`` on PostgreSQL) a transfer over
accounts that exist is

1. ``lock``: its accounts locked in id order (``FOR UPDATE``) and read,
   with whether its id is already taken;
2. ``write``: the transfer, its entries and the new balances in one
   statement (data-modifying CTEs), the transfer inserted ``ON CONFLICT
   (id) DO NOTHING`` and the rest joined to what it inserted, so a racer
   that took the id first (over other accounts: no lock queued us) makes
   the statement write nothing, and no savepoint is needed to survive it.

Each statement's text is made once per process from the models' metadata.
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from functools import cache
from typing import Any

from django.db import connections

from accounts.models import Account, Entry, Transfer


def _quote(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def _column(model: type[Any], name: str) -> str:
    return _quote(model._meta.get_field(name).column)


@cache
def _lock_sql() -> str:
    account, transfer = Account._meta, Transfer._meta
    columns = ", ".join(f"a.{_quote(f.column)}" for f in account.concrete_fields)
    return (
        f"SELECT {columns}, EXISTS (SELECT 1 FROM {_quote(transfer.db_table)}"
        f" WHERE {_quote(transfer.pk.column)} = %s)"
        f" FROM {_quote(account.db_table)} a WHERE a.{_column(Account, 'key')} = ANY(%s)"
        f" ORDER BY a.{_quote(account.pk.column)} FOR UPDATE"
    )


def lock(keys: Sequence[str], transfer_id: uuid.UUID, using: str) -> tuple[list[Account], bool]:
    """The accounts of ``keys`` that exist, locked in id order, and whether
    a transfer ``transfer_id`` exists: one statement."""
    names = [f.attname for f in Account._meta.concrete_fields]
    with connections[using].cursor() as cursor:
        cursor.execute(_lock_sql(), [transfer_id, list(keys)])
        rows = cursor.fetchall()
    accounts = [Account.from_db(using, names, row[:-1]) for row in rows]
    return accounts, bool(rows and rows[0][-1])


@cache
def _write_sql(accounts: int) -> str:
    meta = Transfer._meta
    fields = meta.concrete_fields
    values = ", ".join(["%s"] * len(fields))
    rows = ", ".join(["(%s, %s, %s)"] * accounts)
    entry, account = Entry._meta, Account._meta
    e_transfer, e_account = _column(Entry, "transfer"), _column(Entry, "account")
    balance = _column(Account, "balance")
    return (
        f"WITH t AS (INSERT INTO {_quote(meta.db_table)}"
        f" ({', '.join(_quote(f.column) for f in fields)}) VALUES ({values})"
        f" ON CONFLICT ({_quote(meta.pk.column)}) DO NOTHING RETURNING {_quote(meta.pk.column)}),"
        f" v (account, amount, balance) AS (VALUES {rows}),"
        f" e AS (INSERT INTO {_quote(entry.db_table)} ({e_transfer}, {e_account},"
        f" {_column(Entry, 'amount')}, {_column(Entry, 'balance_after')})"
        f" SELECT t.{_quote(meta.pk.column)}, v.account, v.amount, v.balance FROM t, v"
        f" RETURNING {_quote(entry.pk.column)}, {e_account}),"
        f" u AS (UPDATE {_quote(account.db_table)} a SET {balance} = v.balance FROM t, v"
        f" WHERE a.{_quote(account.pk.column)} = v.account)"
        f" SELECT {e_account}, {_quote(entry.pk.column)} FROM e"
    )


def write(transfer: Transfer, entries: Sequence[Entry], using: str) -> bool:
    """Insert ``transfer`` and ``entries`` (their ids set) and set each
    account's balance to its entry's ``balance_after``: one statement.
    False, and nothing written, when the transfer's id was taken."""
    connection = connections[using]
    params = [
        f.get_db_prep_save(f.pre_save(transfer, add=True), connection)
        for f in Transfer._meta.concrete_fields
    ]
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
