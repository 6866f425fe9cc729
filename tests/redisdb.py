"""A Redis database of a test's own on a shared server: one of
``REDIS_DBS``, claimed by a key set only if absent (two tests, of one run
or of two, never share one), flushed when claimed and when released.  The
server's database 0, where a developer's own data usually lives, is never
touched.

Nothing here imports Django (see ``tests/integration/cluster.py``).
"""

from __future__ import annotations

import secrets
from urllib.parse import urlsplit, urlunsplit

import redis

REDIS_DBS = range(1, 16)
"""Redis databases tests may claim (a server has 16 unless configured)."""
CLAIM_KEY = "pokerroom-test:claim"
CLAIM_TTL_S = 3600
"""A claim left by a killed run frees its database after this long."""


class RedisSlot:
    """One of ``REDIS_DBS`` on the Redis server of ``server_url``, claimed
    by this test: ``url`` names it."""

    def __init__(self, server_url: str) -> None:
        parts = urlsplit(server_url)
        self.token = secrets.token_hex(8)
        for number in REDIS_DBS:
            url = urlunsplit(parts._replace(path=f"/{number}"))
            client = redis.Redis.from_url(url, socket_timeout=5)
            if client.set(CLAIM_KEY, self.token, nx=True, ex=CLAIM_TTL_S):
                pipe = client.pipeline(transaction=True)
                pipe.flushdb()
                pipe.set(CLAIM_KEY, self.token, ex=CLAIM_TTL_S)
                pipe.execute()
                self.number, self.url, self.client = number, url, client
                return
            client.close()
        raise AssertionError(f"every Redis database {REDIS_DBS} is claimed by another test")

    def release(self) -> None:
        """Everything written to the database is deleted, the claim with it."""
        if self.client.get(CLAIM_KEY) == self.token.encode():
            self.client.flushdb()
        self.client.close()
