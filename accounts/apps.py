from django.apps import AppConfig


class AccountsConfig(AppConfig):
    """Accounts: players, roles and the wallet ledger."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "accounts"
    verbose_name = "Accounts"
