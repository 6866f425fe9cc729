"""The room's own ids: what its ledger transfers and its system commands
(timers, a table's reports to its tournament) are keyed by.

Each is HMAC-SHA256 of a name its logs make unique (``table-7@12``,
``hand-3-9:14``), keyed by ``settings.LEDGER_KEY`` (by default
``SECRET_KEY``) and cut to a UUID of version ``SYSTEM_VERSION``.  Nobody
without the key can tell which id the room will use next, and every id a
client chooses is refused when it has that version
(``is_system_id``), so no client can spend an id the room needs: a timer
never finds its id taken by a player's command.  The key must outlive a
``SECRET_KEY`` rotation (a replayed transfer must find its first id):
docs/operations.md.
"""

from __future__ import annotations

import hashlib
import hmac
import uuid

from django.conf import settings

SYSTEM_VERSION = 8
"""The UUID version of the ids the room derives for itself (RFC 9562's
version 8, "custom"): no client-chosen id may have it."""


def system_id(kind: str, name: str) -> uuid.UUID:
    """The room's id for ``name`` among its ids of ``kind`` (``ledger
    transfer``, ``command``): the same name, the same id, so a retry or a
    replay finds its first run."""
    key = (settings.LEDGER_KEY or settings.SECRET_KEY).encode()
    digest = hmac.new(key, f"{kind} {name}".encode(), hashlib.sha256).digest()
    value = int.from_bytes(digest[:16], "big")
    value &= ~(0xF000 << 64) & ~(0xC000 << 48)  # clear the version and variant bits
    value |= SYSTEM_VERSION << 76 | 0x8000 << 48  # version 8, RFC variant
    return uuid.UUID(int=value)


def command_id_for(name: str) -> uuid.UUID:
    """The id of a command the room sends itself (a timer firing, a table's
    report to its tournament), named by what it is about."""
    return system_id("command", name)


def is_system_id(value: uuid.UUID) -> bool:
    """Whether ``value`` has the shape of the room's own ids."""
    return value.variant == uuid.RFC_4122 and value.version == SYSTEM_VERSION
