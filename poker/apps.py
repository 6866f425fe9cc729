from django.apps import AppConfig


class PokerConfig(AppConfig):
    """Cash tables: tables, seats, hands and their append-only event streams."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "poker"
    verbose_name = "Poker"

    def ready(self) -> None:
        from config.projections import projection_register

        projection_register(
            app=self.label, rebuild="poker.projections.rebuild", after=("accounts",)
        )
