"""Money for test players: every seat is bought from a wallet, so a test
that sits a player first deposits into his (``fund``)."""

from __future__ import annotations

import uuid
from typing import Any

from accounts import ledger, money
from accounts.selectors import account_balance

FUNDS = 10**12
"""What a test player gets unless a test says otherwise: more than any
buy-in the tests make (the largest amount the API accepts)."""


def fund(user: Any, amount: int = FUNDS, *, using: str = "default") -> Any:
    """Deposit ``amount`` into ``user``'s wallet; the user."""
    money.wallet_deposit(
        transfer_id=uuid.uuid4(), user_id=user.pk, amount=amount, memo="test funds", using=using
    )
    return user


def cash_of(user: Any, using: str = "default") -> int:
    """The player's cash balance."""
    return account_balance(ledger.cash(user.pk), using=using)


def escrow(table_id: int, using: str = "default") -> int:
    """What a cash table's escrow account holds."""
    return account_balance(ledger.table(table_id), using=using)
