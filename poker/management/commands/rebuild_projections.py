"""``manage.py rebuild_projections``: recompute every read model of every
app from the log (``kernel.projections``: each app registers its rebuild)."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from kernel.projections import projections_rebuild


class Command(BaseCommand):
    help = (
        "Replay every stream and rewrite every app's read models (the tables, seats and "
        "hands, the tournaments and entrants), lower layers first, in one transaction."
    )

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--database", default="default", help="database alias")

    def handle(self, *args: Any, **options: Any) -> None:
        counts = projections_rebuild(using=options["database"], say=self._said)
        self.stdout.write(f"rebuilt the read models of {sum(counts.values())} streams")

    def _said(self, app: str, count: int) -> None:
        self.stdout.write(f"{app}: {count} streams")
