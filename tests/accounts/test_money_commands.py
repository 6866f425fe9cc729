"""The quick start's chips from the command line: ``manage.py deposit``
into a player's wallet, ``manage.py fund_bankroll`` into the casino's
bankroll and ``manage.py fund_house`` into the house's account (the
guarantees), through the ledger, refused as the API refuses."""

from __future__ import annotations

from io import StringIO
from typing import Any

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from accounts import ledger
from accounts.audit import ledger_audit
from accounts.selectors import account_balance


def run(*args: str) -> str:
    out = StringIO()
    call_command(*args, stdout=out)
    return out.getvalue()


def test_a_deposit_from_the_command_line_reaches_the_wallet(make_user: Any) -> None:
    ann = make_user("ann")
    assert run("deposit", "ann", "1000") == "1000 deposited: ann's wallet holds 1000\n"
    assert account_balance(ledger.cash(ann.pk)) == 1000
    assert account_balance(ledger.external()) == -1000
    assert ledger_audit() == []


@pytest.mark.django_db
def test_the_bankroll_is_funded_from_the_command_line() -> None:
    assert run("fund_bankroll", "5000") == "5000 funded: the bankroll holds 5000\n"
    assert account_balance(ledger.bankroll()) == 5000
    assert ledger_audit() == []


@pytest.mark.django_db
def test_the_house_is_funded_from_the_command_line() -> None:
    assert run("fund_house", "700") == "700 funded: the house's account holds 700\n"
    assert account_balance(ledger.house()) == 700
    assert ledger_audit() == []


@pytest.mark.django_db
def test_bad_amounts_and_unknown_players_are_refused_and_move_nothing(make_user: Any) -> None:
    make_user("ann")
    with pytest.raises(CommandError, match="bad_amount"):
        run("deposit", "ann", "0")
    with pytest.raises(CommandError, match="no user 'bob'"):
        run("deposit", "bob", "10")
    with pytest.raises(CommandError, match="bad_amount"):
        run("fund_bankroll", "-5")
    with pytest.raises(CommandError, match="bad_amount"):
        run("fund_house", "0")
    assert account_balance(ledger.external()) == 0
