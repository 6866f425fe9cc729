"""``manage.py deposit USERNAME AMOUNT``: a cashier's deposit into a
player's wallet from the command line (the quick start's chips), checked
as ``POST /api/wallets/{user}/deposit/`` checks it."""

from __future__ import annotations

import uuid
from typing import Any

from django.core.management.base import BaseCommand

from accounts import ledger, money
from accounts.management.console import refusals, user_named
from accounts.selectors import account_balance


class Command(BaseCommand):
    help = "Deposit AMOUNT chips into USERNAME's wallet (a cashier's deposit)."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("username", help="the player (exact username)")
        parser.add_argument("amount", type=int, help="whole chips, at least 1")

    def handle(self, *args: Any, **options: Any) -> None:
        username, amount = options["username"], options["amount"]
        user = user_named(username, " (sign up first)")
        with refusals():
            money.wallet_deposit(
                transfer_id=uuid.uuid4(), user_id=user.pk, amount=amount, memo="manage.py deposit"
            )
        balance = account_balance(ledger.cash(user.pk))
        self.stdout.write(f"{amount} deposited: {username}'s wallet holds {balance}")
