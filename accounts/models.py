"""Players and their roles.

The project's own user model from the first migration on, so wallets and
roles (the accounts issue) can hang off it without a painful swap later.
"""

from __future__ import annotations

from django.contrib.auth.models import AbstractUser


class User(AbstractUser):
    """A player or member of staff (``is_staff``: may open and close tables)."""

    class Meta:
        db_table = "accounts_user"
