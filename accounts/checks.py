"""Deployment checks of the ledger (``manage.py check --deploy``)."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.checks import Tags, Warning, register

LEDGER_KEY_UNSET = "accounts.W001"


@register(Tags.security, deploy=True)
def ledger_key_set(app_configs: Any = None, **kwargs: Any) -> list[Warning]:
    """``LEDGER_KEY`` set on its own: the room's transfer ids are keyed by it
    (``ledger.transfer_id_for``), and left to follow ``SECRET_KEY`` they would
    change with its rotation, so a replayed payment would not find its
    first transfer (docs/operations.md)."""
    if settings.LEDGER_KEY:
        return []
    return [
        Warning(
            "LEDGER_KEY is not set: the ledger's transfer ids follow SECRET_KEY "
            "and would change when it is rotated.",
            hint="Set LEDGER_KEY to the current SECRET_KEY, once, and keep it "
            "(docs/operations.md, Rotating secrets).",
            id=LEDGER_KEY_UNSET,
        )
    ]
