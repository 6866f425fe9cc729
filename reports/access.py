"""Who may read the reports: one rule for the REST API and the admin."""

from __future__ import annotations

from typing import Any

READ_PERMISSION = "accounts.view_wallets"
"""The reports show every player's money (the ledger, summed): the same
permission as seeing any player's wallet (the cashier's and the tournament
director's roles, ``accounts.roles``; superusers hold every permission)."""


def reports_readable(user: Any) -> bool:
    """Whether ``user`` may read the reports: staff (``is_staff``, who run
    the admin) or a holder of ``READ_PERMISSION``."""
    if user is None or not user.is_authenticated or not user.is_active:
        return False
    return bool(user.is_staff or user.has_perm(READ_PERMISSION))
