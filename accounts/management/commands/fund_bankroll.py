"""``manage.py fund_bankroll AMOUNT``: the house puts AMOUNT chips into its
casino bankroll (as ``POST /api/casino/bankroll/`` does), which must cover a
box's bet before a casino table takes it."""

from __future__ import annotations

import uuid
from typing import Any

from django.core.management.base import BaseCommand

from accounts import ledger, money
from accounts.management.console import refusals
from accounts.selectors import account_balance


class Command(BaseCommand):
    help = "Fund the casino bankroll with AMOUNT chips (from outside the room)."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("amount", type=int, help="whole chips, at least 1")

    def handle(self, *args: Any, **options: Any) -> None:
        amount = options["amount"]
        with refusals():
            money.bankroll_fund(
                transfer_id=uuid.uuid4(), amount=amount, memo="manage.py fund_bankroll"
            )
        balance = account_balance(ledger.bankroll())
        self.stdout.write(f"{amount} funded: the bankroll holds {balance}")
