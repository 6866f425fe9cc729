"""Which server nginx sends a table's requests to, for clients that reach
the servers straight (the WebSocket bench) but should land where the
deploy would put them.

deploy/nginx/pokerroom.conf keys every request of a table by
``table-<id>`` (``route_key``) and the upstream picks a server by
``hash $pokerroom_route consistent``: nginx's ketama ring, which
``server_for`` rebuilds.  Each ``server`` line (its address as written,
``host:port``) gets 160 points: the CRC32 of ``host``, a NUL, ``port`` and
the previous point's four bytes (little-endian, 0 at first).  A key goes to
the first point at or after the CRC32 of the key, round the ring; a server
that is down passes its keys to the next point's server.
"""

from __future__ import annotations

import bisect
import zlib
from collections.abc import Sequence

POINTS = 160
"""Points per server of weight 1 (nginx's ``ngx_http_upstream_chash``)."""


def route_key(table_id: int) -> str:
    """The key of a table's requests (the ``map`` of pokerroom.conf)."""
    return f"table-{table_id}"


def ring(servers: Sequence[str]) -> list[tuple[int, int]]:
    """(point, index of its server), sorted; a point two servers drew is
    the first's, as nginx keeps it."""
    points: dict[int, int] = {}
    for index, server in enumerate(servers):
        host, port = server.rsplit(":", 1)
        base = f"{host}\0{port}".encode()
        previous = 0
        for _ in range(POINTS):
            previous = zlib.crc32(base + previous.to_bytes(4, "little"))
            points.setdefault(previous, index)
    return sorted(points.items())


def server_for(key: str, servers: Sequence[str], down: Sequence[str] = ()) -> str:
    """The server (as listed) that ``hash $key consistent`` picks, passing
    over those ``down``."""
    points = ring(servers)
    start = bisect.bisect_left(points, (zlib.crc32(key.encode()), -1))
    for step in range(len(points)):
        server = servers[points[(start + step) % len(points)][1]]
        if server not in down:
            return server
    raise ValueError("every server is down")
