from django.apps import AppConfig


class ReportsConfig(AppConfig):
    """Reports: the house's money and the room's activity, for staff."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "reports"
    verbose_name = "Reports"
