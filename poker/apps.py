from typing import Any

from django.apps import AppConfig
from django.apps import apps as global_apps


def _casino_math_ship(
    sender: AppConfig, using: str = "default", apps: Any = global_apps, **_: Any
) -> None:
    """The default casino configuration's figures, once its table exists
    (``apps``: the migrated state's models; a flush sends none)."""
    from poker.casino.edge import casino_math_ship

    try:
        apps.get_model("poker", "CasinoMath")
    except LookupError:
        return
    casino_math_ship(using=using)


class PokerConfig(AppConfig):
    """Cash tables: tables, seats, hands and their append-only event streams."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "poker"
    verbose_name = "Poker"

    def ready(self) -> None:
        from django.contrib.auth import get_user_model
        from django.db.models.signals import post_migrate, post_save

        from accounts.audit import register
        from accounts.locks import on_out_of_play
        from accounts.references import namer_register
        from config.projections import projection_register
        from kernel.signals import clock_due
        from poker import clocks
        from poker.audit import table_problems
        from poker.casino import clocks as casino_clocks
        from poker.casino.audit import casino_problems
        from poker.casino.selectors import casino_table_names
        from poker.casino.services import casino_out_of_play
        from poker.selectors import forget_screen_name, table_names
        from poker.services import player_out_of_play
        from poker.upcast import register_upcasters

        register_upcasters()
        clock_due.connect(clocks.due, dispatch_uid="poker-clocks")
        clock_due.connect(casino_clocks.due, dispatch_uid="casino-clocks")
        register(table_problems)
        register(casino_problems)
        on_out_of_play(player_out_of_play)
        on_out_of_play(casino_out_of_play)
        namer_register("table", table_names)
        namer_register("casino", casino_table_names)
        post_migrate.connect(_casino_math_ship, sender=self, dispatch_uid="casino-math")
        post_save.connect(forget_screen_name, sender=get_user_model(), dispatch_uid="screen-name")
        projection_register(
            app=self.label, rebuild="poker.projections.rebuild", after=("accounts",)
        )
        projection_register(
            app="casino", rebuild="poker.casino.projections.rebuild", after=("accounts", "poker")
        )
