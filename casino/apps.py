"""The casino: Casino Draw Poker against the house (RULES.md 5), beside the
cash tables on the kernel (neither imports the other)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.apps import AppConfig
from django.apps import apps as global_apps

if TYPE_CHECKING:
    from casino.publish import LobbySection


def _math_ship(
    sender: AppConfig, using: str = "default", apps: Any = global_apps, **_: Any
) -> None:
    """The default configuration's figures, once their table exists
    (``apps``: the migrated state's models; a flush sends none)."""
    from casino.edge import casino_math_ship

    try:
        apps.get_model("casino", "CasinoMath")
    except LookupError:
        return
    casino_math_ship(using=using)


def _problems(sender: Any, using: str, **_: Any) -> list[str]:
    from casino.audit import casino_problems

    return casino_problems(using)


def _out_of_play(sender: Any, user_id: int, by: Any, tournaments: bool, **_: Any) -> list[str]:
    from casino.services import casino_out_of_play

    return casino_out_of_play(user_id, by, tournaments=tournaments)


def _names(sender: Any, kind: str, ids: set[int], **_: Any) -> dict[int, str]:
    from casino.selectors import casino_table_names

    return casino_table_names(ids) if kind == "casino" else {}


def _lobby(sender: Any, **_: Any) -> LobbySection:
    from casino.selectors import casino_lobby

    return {"casino_tables": casino_lobby()}


def _copy_verify(sender: Any, kind: Any, id: str, data: dict[str, Any], **_: Any) -> Any:
    from casino.history import KIND
    from casino.verify import verify_round

    return verify_round(round_id=id, data=data) if kind == KIND else None


class CasinoConfig(AppConfig):
    """Casino tables: house-banked rounds, their boxes, the bankroll and the
    house edge's figures, on the kernel's event store and clocks."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "casino"
    label = "casino"
    verbose_name = "Casino"

    def ready(self) -> None:
        from django.db.models.signals import post_migrate

        from accounts.audit import audit_requested
        from accounts.locks import out_of_play_requested
        from accounts.references import names_wanted
        from casino import clocks
        from kernel.copies import copy_verify
        from kernel.lobby import lobby_sections
        from kernel.projections import projection_register
        from kernel.signals import clock_due

        clock_due.connect(clocks.due, dispatch_uid="casino-clocks")
        audit_requested.connect(_problems, dispatch_uid="casino-audit")
        out_of_play_requested.connect(_out_of_play, dispatch_uid="casino-out-of-play")
        names_wanted.connect(_names, dispatch_uid="casino-names")
        lobby_sections.connect(_lobby, dispatch_uid="casino-lobby")
        copy_verify.connect(_copy_verify, dispatch_uid="casino-copy-verify")
        post_migrate.connect(_math_ship, sender=self, dispatch_uid="casino-math")
        projection_register(
            app=self.label, rebuild="casino.projections.rebuild", after=("accounts",)
        )
