"""``manage.py audit_ledger``: check every balance against its entries."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError

from accounts.audit import ledger_audit
from accounts.models import Account, Transfer


class Command(BaseCommand):
    help = (
        "Check that every balance equals its entries, every transfer and the whole "
        "ledger sum to zero, and every cash table's chips equal its escrow. "
        "Exits non-zero and lists each discrepancy otherwise."
    )

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--database", default="default", help="database alias")

    def handle(self, *args: Any, **options: Any) -> None:
        using = options["database"]
        problems = ledger_audit(using=using)
        for problem in problems:
            self.stderr.write(problem)
        if problems:
            raise CommandError(f"{len(problems)} discrepancies in the ledger", returncode=1)
        accounts = Account.objects.using(using).count()
        transfers = Transfer.objects.using(using).count()
        self.stdout.write(f"ledger sound: {accounts} accounts, {transfers} transfers")
