"""The house's income and the cashier's flows are the ledger's entries,
summed by day, source and table or tournament."""

from __future__ import annotations

import uuid
from datetime import timedelta

import pytest
from django.utils import timezone

from accounts import ledger, money
from accounts.models import Account, Transfer
from accounts.selectors import account_balance
from reports import money as money_report
from reports import sources
from reports.sources import Source
from reports.subjects import Subject, subjects_named
from tests.reports.conftest import TOURNAMENT_FEE
from tests.reports.support import around_today, entries, house_by_kind, report

pytestmark = [pytest.mark.django_db, pytest.mark.postgres]

Kind = Transfer.Kind
FEES = {Kind.REGISTRATION, Kind.TICKET_SPEND, Kind.REBUY, Kind.ADD_ON, Kind.UNREGISTRATION}


def test_the_income_is_the_house_accounts_entries_by_source(world, client_for):
    rows = report(client_for(world.boss), "income")
    by_kind = house_by_kind()
    fees = sum(amount for kind, amount in by_kind.items() if kind in FEES)
    assert fees == 3 * TOURNAMENT_FEE
    assert {r["source"]: r["amount"] for r in rows} == {
        "tournament_fees": fees,
        "house_tickets": by_kind[Kind.TICKET_AWARD],
    }
    assert by_kind[Kind.TICKET_AWARD] == -200
    assert sum(r["amount"] for r in rows) == account_balance(ledger.house())


def test_each_income_row_names_its_tournament_and_counts_its_transfers(world, client_for):
    rows = report(client_for(world.boss), "income")
    t = world.tournament
    fee_transfers = {
        e.transfer_id for e in entries(account__key="house") if e.transfer.kind in FEES
    }
    assert [(r["subject"], r["subject_id"], r["name"], r["game"]) for r in rows] == [
        ("tournament", t.pk, "Sunday", t.game)
    ] * 2
    assert rows[0]["transfers"] == len(fee_transfers) == 3
    assert rows[1]["transfers"] == 1


def test_the_cashier_report_is_the_deposits_and_withdrawals(world, client_for):
    rows = report(client_for(world.boss), "cashier")
    deposits = entries(account__kind=Account.Kind.CASH, transfer__kind=Kind.DEPOSIT)
    withdrawals = entries(account__kind=Account.Kind.CASH, transfer__kind=Kind.WITHDRAWAL)
    assert [(r["source"], r["amount"], r["transfers"]) for r in rows] == [
        ("deposits", sum(e.amount for e in deposits), len(deposits)),
        ("withdrawals", sum(e.amount for e in withdrawals), len(withdrawals)),
    ]
    assert rows[1]["amount"] == -1_000
    assert sum(r["amount"] for r in rows) == -account_balance(ledger.external())


def test_each_day_is_a_row_and_a_period_leaves_the_other_days_out(world, client_for, monkeypatch):
    created = Transfer._meta.get_field("created_at")
    three_days_ago = timezone.now() - timedelta(days=3)
    monkeypatch.setattr(created, "_get_default", lambda: three_days_ago)  # a deposit back then
    money.wallet_deposit(transfer_id=uuid.uuid4(), user_id=world.users["ann"].pk, amount=77)
    client = client_for(world.boss)

    recent = report(client, "cashier")
    assert [r["day"] for r in recent] == [str(timezone.now().date())] * 2
    assert 77 not in [r["amount"] for r in recent]
    both = report(client, "cashier", **around_today(days_before=3))
    assert (both[0]["day"], both[0]["amount"]) == (str(three_days_ago.date()), 77)
    assert both[1:] == recent


def test_a_source_added_to_the_mapping_is_reported_by_table(world, client_for, monkeypatch):
    """What the rake and the casino will be: one more ``Source``; a table's
    movements are named after the table (here its cash-outs, as if they
    were an account of the house's)."""
    extra = Source("cash_outs", Account.Kind.TABLE, frozenset({Kind.CASH_OUT}), sign=-1)
    monkeypatch.setattr(money_report, "INCOME", (*sources.INCOME, extra))
    rows = [r for r in report(client_for(world.boss), "income") if r["source"] == "cash_outs"]
    cash_outs = entries(account__kind=Account.Kind.TABLE, transfer__kind=Kind.CASH_OUT)
    assert [(r["subject"], r["subject_id"], r["name"], r["game"]) for r in rows] == [
        ("table", world.table, "Main", "32-card-draw")
    ]
    assert (rows[0]["amount"], rows[0]["transfers"]) == (
        -sum(e.amount for e in cash_outs),
        len(cash_outs),
    )
    assert rows[0]["amount"] > 0


def test_the_sources_name_kinds_the_ledger_has():
    for source in sources.SOURCES.values():
        assert source.account in Account.Kind.values
        assert source.transfers <= set(Transfer.Kind.values)
    every = {*sources.PLAYER_TABLES, *sources.PLAYER_TOURNAMENTS, *sources.CASHIER_KINDS}
    assert every <= set(Transfer.Kind.values)


def test_a_rake_shaped_transfer_is_its_tables_income(world, client_for, monkeypatch):
    """The rake's transfers are named ``table-<id>@<version>/rake``: what
    comes before the ``@`` names the table."""
    rake = Source("rake", Account.Kind.HOUSE, frozenset({Kind.TOP_UP}))
    monkeypatch.setattr(money_report, "INCOME", (*sources.INCOME, rake))
    for version in (98, 99):
        ledger.transfer_post(
            transfer_id=uuid.uuid4(),
            kind=Kind.TOP_UP,
            moves=[ledger.Move(ledger.external(), ledger.house(), 5)],
            ref=f"table-{world.table}@{version}/rake",
        )
    [row] = [r for r in report(client_for(world.boss), "income") if r["source"] == "rake"]
    assert (row["subject"], row["subject_id"], row["name"]) == ("table", world.table, "Main")
    assert (row["amount"], row["transfers"]) == (10, 2)


def test_refs_name_tables_and_tournaments_and_nothing_else(world):
    named = subjects_named(
        [f"table-{world.table}", f"tournament:{world.tournament.pk}", "", "hand-1-2", "x"]
    )
    assert named == {
        f"table-{world.table}": Subject("table", world.table, "Main", "32-card-draw"),
        f"tournament:{world.tournament.pk}": Subject(
            "tournament", world.tournament.pk, "Sunday", world.tournament.game
        ),
    }
