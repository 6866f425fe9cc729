"""``manage.py rebuild_projections``: recompute every read model from the log."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from poker.projections import rebuild


class Command(BaseCommand):
    help = "Replay every table and hand stream and rewrite the Table, Seat and Hand rows."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--database", default="default", help="database alias")

    def handle(self, *args: Any, **options: Any) -> None:
        count = rebuild(using=options["database"])
        self.stdout.write(f"rebuilt the read models of {count} streams")
