"""The operator's numbers: the house's result at the casino tables, per
table and per day, is the bankroll's entries of the rounds' settlements
(funding the bankroll is not income)."""

from __future__ import annotations

from collections import defaultdict
from datetime import timedelta

import pytest
from django.utils import timezone

from accounts.models import Entry, Transfer
from reports.subjects import Subject, subjects_named
from tests.casino.support import command, ok, play_out
from tests.reports.support import around_today, report

pytestmark = [pytest.mark.django_db, pytest.mark.postgres]


def rounds(clients, table, count, policy="play"):
    players = list(clients)
    for _ in range(count):
        for player in players:
            ok(command(clients[player], table, "bet", amount=10))
        play_out(clients, table, policy=policy)


def bankroll_by_table_and_day() -> dict[tuple[str, str], int]:
    """The bankroll's settlement entries summed by the table their ref names
    and by day, straight from the ledger."""
    sums: dict[tuple[str, str], int] = defaultdict(int)
    entries = Entry.objects.filter(
        account__key="bankroll", transfer__kind=Transfer.Kind.CASINO_SETTLE
    ).select_related("transfer")
    for entry in entries:
        subject = entry.transfer.ref.split("@")[0]
        sums[(subject, str(entry.transfer.created_at.date()))] += entry.amount
    return dict(sums)


@pytest.fixture
def tables(make_user, client_for, open_casino, bankroll, staff):
    """Two tables, a player at each and one at both; rounds at both."""
    bankroll()
    one = open_casino(name="Left")["table"]["id"]
    two = open_casino(name="Right")["table"]["id"]
    ann, bob = make_user("ann"), make_user("bob")
    at_one = {ann.pk: client_for(ann), bob.pk: client_for(bob)}
    at_two = {bob.pk: client_for(bob)}
    ok(command(at_one[ann.pk], one, "sit", box=1))
    ok(command(at_one[bob.pk], one, "sit", box=2))
    ok(command(at_two[bob.pk], two, "sit", box=4))
    rounds(at_one, one, 3)
    rounds(at_two, two, 2, policy="fold")
    return one, two, at_one, at_two


def test_the_casino_income_per_table_and_day_is_the_bankrolls_settlement_entries(
    tables, client_for, staff, monkeypatch
):
    one, two, at_one, _at_two = tables
    created = Transfer._meta.get_field("created_at")
    three_days_ago = timezone.now() - timedelta(days=3)
    monkeypatch.setattr(created, "_get_default", lambda: three_days_ago)
    rounds(at_one, one, 1)  # settled back then
    monkeypatch.undo()

    rows = report(client_for(staff), "income", **around_today(days_before=3))
    casino = [r for r in rows if r["source"] == "casino"]
    got = {(f"casino-{r['subject_id']}", r["day"]): r["amount"] for r in casino}
    assert got == bankroll_by_table_and_day()
    assert len(got) == 3  # table one on two days, table two today
    assert {(r["subject"], r["name"], r["game"]) for r in casino} == {
        ("casino_table", "Left", "casino-draw"),
        ("casino_table", "Right", "casino-draw"),
    }
    folded = next(r for r in casino if r["subject_id"] == two)
    assert folded["amount"] == 2 * 10  # every box folded: the house kept each ante
    assert folded["transfers"] == 2
    # Funding the bankroll is the house's own money moving, not income.
    assert Transfer.objects.filter(kind=Transfer.Kind.BANKROLL_FUND).exists()
    assert sum(r["amount"] for r in casino) == sum(bankroll_by_table_and_day().values())
    today = report(client_for(staff), "income")
    assert {(r["subject_id"], r["day"]) for r in today if r["source"] == "casino"} == {
        (one, str(timezone.now().date())),
        (two, str(timezone.now().date())),
    }


def test_the_tables_report_counts_the_casinos_result_as_its_games_house(tables, client_for, staff):
    rows = report(client_for(staff), "tables")
    [casino] = [r for r in rows if r["game"] == "casino-draw"]
    assert casino["house"] == sum(bankroll_by_table_and_day().values())


def test_refs_name_casino_tables(tables):
    one, two, *_ = tables
    assert subjects_named([f"casino-{one}", f"casino-{two}", "casino-999999"]) == {
        f"casino-{one}": Subject("casino_table", one, "Left", "casino-draw"),
        f"casino-{two}": Subject("casino_table", two, "Right", "casino-draw"),
        "casino-999999": Subject("casino_table", 999999, "", ""),
    }
