"""``manage.py rebuild_tournament_projections``: recompute every tournament's
rows from the log."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from tournaments.projections import rebuild


class Command(BaseCommand):
    help = "Replay every tournament stream and rewrite the Tournament and Entrant rows."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--database", default="default", help="database alias")

    def handle(self, *args: Any, **options: Any) -> None:
        count = rebuild(using=options["database"])
        self.stdout.write(f"rebuilt the read models of {count} tournament streams")
