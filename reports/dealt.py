"""Who was dealt into the hands of a period, read from the event store.

A hand's players are in its first event (``hand.started``, version 1 of
the stream ``hand-<id>``: each player's id as ``name`` and his stack); no
read model keeps them.  The hands of the period are found by the hand
rows' start (indexed), each one's first event by the store's unique
(stream, version), and its players unnested in SQL
(``jsonb_array_elements`` on PostgreSQL, ``json_each`` on SQLite), so the
counting is one GROUP BY and nothing is folded or decoded in Python.
"""

from __future__ import annotations

from typing import Any

from django.db import connection

from kernel.models import Event
from poker.engine.events import EVENT_TYPES, HandStarted
from poker.models import Hand, Table
from poker.upcast import HANDS
from reports.period import Period

STARTED = sorted(HANDS.stored_names(next(k for k, v in EVENT_TYPES.items() if v is HandStarted)))
"""Every name a hand's first event may be stored under."""


def _players() -> tuple[str, str]:
    """The FROM item unnesting a hand's players (alias ``p``) and the SQL of
    one player's id, in this database's dialect."""
    if connection.vendor == "postgresql":
        return "CROSS JOIN LATERAL jsonb_array_elements(e.data -> 'players') AS p", "p ->> 'name'"
    return "JOIN json_each(e.data, '$.players') AS p", "json_extract(p.value, '$.name')"


def dealt_in(*, period: Period, select: str, group: str) -> list[tuple[Any, ...]]:
    """``SELECT select ... GROUP BY group`` over every player dealt into a
    hand started in ``period``: ``h`` is the hand row, ``t`` its table, and
    ``{player}`` in ``select`` or ``group`` the player's id (text)."""
    unnest, player = _players()
    names = ", ".join(["%s"] * len(STARTED))
    sql = (
        f"SELECT {select} FROM {Hand._meta.db_table} h "
        f"JOIN {Table._meta.db_table} t ON t.id = h.table_id "
        f"JOIN {Event._meta.db_table} e ON e.stream = 'hand-' || h.id AND e.version = 1 "
        f"{unnest} "
        f"WHERE h.started_at >= %s AND h.started_at < %s AND e.type IN ({names}) "
        f"GROUP BY {group}"
    ).replace("{player}", player)
    with connection.cursor() as cursor:
        cursor.execute(sql, [period.start, period.end, *STARTED])
        return list(cursor.fetchall())
