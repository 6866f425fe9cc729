"""Accounts: players, roles and the wallet ledger."""

from django.apps import AppConfig
from django.db.models.signals import post_migrate


class AccountsConfig(AppConfig):
    """Accounts: players, roles and the wallet ledger."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "accounts"
    verbose_name = "Accounts"

    def ready(self) -> None:
        from django.contrib.auth import get_user_model
        from django.db.models.signals import post_save

        from accounts import checks  # noqa: F401 - registers the deployment checks
        from accounts.roles import roles_ensure
        from accounts.selectors import forget_screen_name

        post_migrate.connect(roles_ensure, sender=self)
        post_save.connect(forget_screen_name, sender=get_user_model(), dispatch_uid="screen-name")
