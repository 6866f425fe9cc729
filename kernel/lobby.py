"""The lobby every kind of table is listed in.

Every app whose tables are listed publishes a line to ``LOBBY_GROUP``
when one of its tables appears, fills, empties or closes.  A lobby's
snapshot (``lobby_snapshot``) is made of the sections the apps answer to
``lobby_sections``, a signal each connects in its ``AppConfig.ready``, so
the app that serves the lobby imports none of the others.
"""

from __future__ import annotations

from typing import Any, cast

from django.dispatch import Signal

LOBBY_GROUP = "lobby"
"""Everyone looking at the list of tables."""

lobby_sections = Signal()
"""Sent for a lobby's snapshot; each receiver answers a dict of its
sections (``{"casino_tables": [...]}``), the lines of its open tables."""


def lobby_snapshot() -> dict[str, Any]:
    """Every connected app's sections of the lobby, in the order the apps
    connected (a database read: run it in a thread from async code)."""
    sections: dict[str, Any] = {}
    for _, answer in lobby_sections.send(sender=None):
        sections.update(cast(dict[str, Any], answer))
    return sections
