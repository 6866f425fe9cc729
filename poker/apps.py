from typing import Any

from django.apps import AppConfig


def _problems(sender: Any, using: str, **_: Any) -> list[str]:
    from poker.audit import table_problems

    return table_problems(using)


def _out_of_play(sender: Any, user_id: int, by: Any, tournaments: bool, **_: Any) -> list[str]:
    from poker.services import player_out_of_play

    return player_out_of_play(user_id, by, tournaments=tournaments)


def _names(sender: Any, kind: str, ids: set[int], **_: Any) -> dict[int, str]:
    from poker.selectors import table_names

    return table_names(ids) if kind == "table" else {}


class PokerConfig(AppConfig):
    """Cash tables: tables, seats, hands and their append-only event streams."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "poker"
    verbose_name = "Poker"

    def ready(self) -> None:
        from accounts.audit import audit_requested
        from accounts.locks import out_of_play_requested
        from accounts.references import names_wanted
        from kernel.projections import projection_register
        from kernel.signals import clock_due
        from poker import clocks
        from poker.upcast import register_upcasters

        register_upcasters()
        clock_due.connect(clocks.due, dispatch_uid="poker-clocks")
        audit_requested.connect(_problems, dispatch_uid="poker-audit")
        out_of_play_requested.connect(_out_of_play, dispatch_uid="poker-out-of-play")
        names_wanted.connect(_names, dispatch_uid="poker-names")
        projection_register(
            app=self.label, rebuild="poker.projections.rebuild", after=("accounts",)
        )
