"""``manage.py fund_bankroll AMOUNT``: the house puts AMOUNT chips into its
casino bankroll (as ``POST /api/casino/bankroll/`` does), which must cover a
box's bet before a casino table takes it."""

from __future__ import annotations

import uuid
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from accounts import ledger, money
from accounts.selectors import account_balance
from kernel.api_errors import ApiError


class Command(BaseCommand):
    help = "Fund the casino bankroll with AMOUNT chips (from outside the room)."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("amount", type=int, help="whole chips, at least 1")

    def handle(self, *args: Any, **options: Any) -> None:
        amount = options["amount"]
        try:
            money.bankroll_fund(
                transfer_id=uuid.uuid4(), amount=amount, memo="manage.py fund_bankroll"
            )
        except ApiError as refused:
            raise CommandError(f"{refused.code}: {refused.message}") from None
        balance = account_balance(ledger.bankroll())
        self.stdout.write(f"{amount} funded: the bankroll holds {balance}")
