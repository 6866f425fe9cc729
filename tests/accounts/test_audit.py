"""``manage.py audit_ledger``: an operator's check that every balance is
its entries, the ledger sums to zero and every table's chips are its
escrow.  It passes on a sound ledger and names each discrepancy otherwise
(the corruptions below are raw SQL, past the models and the triggers)."""

from __future__ import annotations

import uuid
from io import StringIO

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection

from accounts import ledger, money
from accounts.audit import ledger_audit
from poker import services


@pytest.fixture
def ann(make_user):
    return make_user("ann", cash=1000)


def audit() -> tuple[str, str]:
    out, err = StringIO(), StringIO()
    call_command("audit_ledger", stdout=out, stderr=err)
    return out.getvalue(), err.getvalue()


def corrupt(sql: str, *params: object) -> None:
    """Raw SQL past the models and, on PostgreSQL, past the append-only
    triggers (for the rest of this test's transaction, which rolls back)."""
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute("SET LOCAL session_replication_role = replica")
        cursor.execute(sql, params)


def failing_audit() -> str:
    err = StringIO()
    with pytest.raises(CommandError) as failed:
        call_command("audit_ledger", stdout=StringIO(), stderr=err)
    assert failed.value.returncode == 1
    return err.getvalue()


def test_a_sound_ledger_passes(ann):
    money.tournament_register(
        transfer_id=uuid.uuid4(), user_id=ann.pk, tournament="t", buy_in=10, fee=1
    )
    out, err = audit()
    assert out.startswith("ledger sound: ") and err == ""


def test_a_balance_that_is_not_its_entries_is_named(ann):
    corrupt("UPDATE accounts_account SET balance = balance + 5 WHERE key = %s", f"cash:{ann.pk}")
    assert f"account cash:{ann.pk}: balance 1005, entries 1000" in failing_audit()


def test_an_entry_whose_running_balance_is_off_is_named(ann):
    corrupt("UPDATE accounts_entry SET balance_after = 7 WHERE amount = 1000")
    assert "balance_after 7, the entries sum to 1000" in failing_audit()


def test_a_transfer_that_does_not_sum_to_zero_is_named(ann):
    corrupt("UPDATE accounts_entry SET amount = -999, balance_after = -999 WHERE amount = -1000")
    corrupt("UPDATE accounts_account SET balance = -999 WHERE key = 'external'")
    report = failing_audit()
    assert "chips entries sum to 1" in report
    assert "unit chips: balances sum to 1, not 0" in report


def test_a_table_whose_chips_differ_from_its_escrow_is_named(ann, make_user):
    boss = make_user("boss", staff=True)
    table = services.table_create(
        by=boss, name="t", game="32-card-draw", betting="no-limit", small_blind=1, big_blind=2
    )
    services.seat_sit(by=ann, table_id=table.pk, seat=1, buy_in=100)
    assert ledger_audit() == []
    corrupt("UPDATE accounts_account SET balance = 90 WHERE key = %s", ledger.table(table.pk).key)
    assert f"table {table.pk}: 100 chips on it, escrow 90" in failing_audit()
