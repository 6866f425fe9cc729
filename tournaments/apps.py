from __future__ import annotations

from typing import Any

from django.apps import AppConfig


def _names(sender: Any, kind: str, ids: set[int], **_: Any) -> dict[int, str]:
    from tournaments.selectors import tournament_names

    return tournament_names(ids) if kind == "tournament" else {}


class TournamentsConfig(AppConfig):
    """Tournaments: satellites and their tables, built on the cash-table engine."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "tournaments"
    verbose_name = "Tournaments"

    def ready(self) -> None:
        from accounts.references import names_wanted
        from kernel.projections import projection_register
        from kernel.signals import clock_due
        from poker.work import hand_finished
        from tournaments import clocks
        from tournaments.play import hand_over
        from tournaments.upcast import register_upcasters

        register_upcasters()
        clock_due.connect(clocks.due, dispatch_uid="tournament-clocks")
        hand_finished.connect(hand_over, dispatch_uid="tournament-hand-over")
        names_wanted.connect(_names, dispatch_uid="tournament-names")
        projection_register(
            app=self.label,
            rebuild="tournaments.projections.rebuild",
            after=("accounts", "poker"),
        )
