"""``manage.py fund_house AMOUNT``: the house puts AMOUNT chips into its
own account (``money.house_fund``), which holds the guarantees of the
tournaments it creates (a schedule's included) and pays for the tickets it
gives away."""

from __future__ import annotations

import uuid
from typing import Any

from django.core.management.base import BaseCommand

from accounts import ledger, money
from accounts.management.console import refusals
from accounts.selectors import account_balance


class Command(BaseCommand):
    help = "Fund the house's account with AMOUNT chips (from outside the room)."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("amount", type=int, help="whole chips, at least 1")

    def handle(self, *args: Any, **options: Any) -> None:
        amount = options["amount"]
        with refusals():
            money.house_fund(transfer_id=uuid.uuid4(), amount=amount, memo="manage.py fund_house")
        balance = account_balance(ledger.house())
        self.stdout.write(f"{amount} funded: the house's account holds {balance}")
