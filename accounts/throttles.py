"""Request throttles: how often an address, an account or a player may ask.

Every throttle counts in Django's default cache (Redis when ``REDIS_URL`` is
set, so every server process counts together; process memory on the embedded
defaults) and reads its rate from ``settings.THROTTLE_RATES[scope]`` on each
request (``"N/s"``, ``"N/m"``, ``"N/h"``, ``"N/d"``; None: no limit), so
tests and deployments change rates without reimporting anything.  A refused
request is ``429 throttled`` with ``retry_after`` and a ``Retry-After``
header (``kernel.api_errors``).

- Per address: the client's IP, ``REMOTE_ADDR``; ``X-Forwarded-For`` only
  as far as ``NUM_PROXIES`` trusted proxies say (DRF's ``get_ident``), so a
  client cannot pick his own address by sending the header.
- Per account: the username a login names, as login reads it and then
  reduced to its skeleton (``accounts.names.username_throttle_key``:
  case, spaces and full-width forms count as the account they log in
  to), so an attacker rotating addresses is still
  stopped on one account; the logged-in player for a password change.
- Per player: every unsafe request of a logged-in user (the REST default)
  and every command sent over a WebSocket (``command_wait``).

Each key is DRF's sliding window: the times of the requests allowed within
the last period, newest first; a request is allowed while fewer than N
are.  DRF reads the whole list (pickled) and writes it back, two round
trips on a Redis cache, every request and every socket command.  On Redis
the window is a Redis list instead, pruned, counted and pushed to by one
script (``WINDOW_LUA``) in one round trip, which also makes two servers
counting one key at once count both; a socket's command runs it from the
server's event loop (``command_wait``), with no hop to a thread.  Other
caches keep DRF's own read and write.
"""

from __future__ import annotations

import asyncio
import functools
import hashlib
import math
import weakref
from collections.abc import Mapping
from typing import Any

import redis
import redis.asyncio
from asgiref.sync import sync_to_async
from django.conf import settings
from django.core.cache import BaseCache, caches
from django.core.cache.backends.redis import RedisCache
from django.core.signals import setting_changed
from rest_framework.permissions import SAFE_METHODS
from rest_framework.request import Request
from rest_framework.throttling import SimpleRateThrottle

WINDOW_LUA = """
    local key, now, period, limit = KEYS[1], tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
    local oldest = redis.call('LINDEX', key, -1)
    while oldest and tonumber(oldest) <= now - period do
        redis.call('RPOP', key)
        oldest = redis.call('LINDEX', key, -1)
    end
    local count = redis.call('LLEN', key)
    if count >= limit then
        return {0, count, oldest or ARGV[1]}
    end
    redis.call('LPUSH', key, ARGV[1])
    redis.call('EXPIRE', key, period)
    return {1, count + 1, oldest or ARGV[1]}
"""
"""One request at ``now`` against the window at ``key`` (times newest
first): drop the times a period old, then push ``now`` if fewer than
``limit`` remain.  (allowed, times counted, the oldest as text: a Lua
number would come back truncated to an integer)."""

WINDOW_SUFFIX = ":window"
"""The Redis key of a window: the cache's key for it plus this (a list, not
a cached value: never the key a pickled DRF history was kept under)."""


class Throttle(SimpleRateThrottle):
    """A sliding window per key of ``scope``, its rate read from the settings."""

    cache_format = "throttle:%(scope)s:%(ident)s"
    scope: str  # named by each throttle class
    # The rate's count and seconds, set by DRF's ``__init__`` (read only
    # when there is a rate); DRF's stubs do not declare them.
    num_requests: int
    duration: int

    @property
    def cache(self) -> BaseCache:  # type: ignore[override]
        return shared_cache()

    def get_rate(self) -> str | None:
        """Read per instance, not at import as DRF does, so overrides apply."""
        rates: Mapping[str, str | None] = settings.THROTTLE_RATES
        return rates[self.scope]

    def key_of(self, ident: object) -> str:
        return self.cache_format % {"scope": self.scope, "ident": ident}

    def allow_key(self, key: str | None) -> bool:
        """DRF's ``allow_request`` for a key computed elsewhere (a socket has
        no request); on Redis in one round trip (``WINDOW_LUA``)."""
        if self.rate is None or key is None:
            return True
        self.now = self.timer()
        cache = self.cache
        if isinstance(cache, RedisCache):
            script = window_script(redis_location())
            return self._counted(script(keys=[_window_key(cache, key)], args=self._args()))
        self.key = key
        self.history = cache.get(key, [])
        while self.history and self.history[-1] <= self.now - self.duration:
            self.history.pop()
        allowed = len(self.history) < self.num_requests
        self.count = len(self.history) + allowed
        if allowed:
            self.throttle_success()
        self.oldest = self.history[-1] if self.history else self.now
        return allowed

    async def allow_key_async(self, key: str) -> bool:
        """``allow_key`` from an event loop: on Redis the script from the
        loop's own client, else in a thread (the cache may do I/O)."""
        if self.rate is None:
            return True
        cache = self.cache
        if not isinstance(cache, RedisCache):
            allowed: bool = await sync_to_async(self.allow_key, thread_sensitive=False)(key)
            return allowed
        self.now = self.timer()
        script = loop_window()
        return self._counted(await script(keys=[_window_key(cache, key)], args=self._args()))

    def _args(self) -> tuple[str, int, int]:
        # repr: the shortest text that reads back as the same float
        return repr(float(self.now)), int(self.duration), int(self.num_requests)

    def _counted(self, reply: list[Any]) -> bool:
        allowed, self.count, oldest = reply
        self.oldest = float(oldest)
        return bool(allowed)

    def wait(self) -> float | None:
        """DRF's ``wait``, from the window's count and oldest time: the
        time until the oldest leaves it, shared among the requests that
        may then be made (None: none may)."""
        remaining = self.duration - (self.now - self.oldest) if self.count else self.duration
        available = self.num_requests - self.count + 1
        return None if available <= 0 else remaining / float(available)

    def allow_request(self, request: Request, view: Any) -> bool:
        return self.allow_key(self.get_cache_key(request, view))

    @classmethod
    def scoped(cls, scope: str) -> type[Throttle]:
        """This kind of throttle, counting under ``scope``."""
        name = "".join(word.title() for word in scope.split("_")) + "Throttle"
        return type(name, (cls,), {"scope": scope, "__module__": __name__})


@functools.cache
def shared_cache() -> BaseCache:
    """The default cache, one instance for the process: Django's own is one
    per async context (per socket and per request under ASGI), each Redis
    one with a connection pool of its own."""
    return caches.create_connection("default")


def _window_key(cache: RedisCache, key: str) -> str:
    return cache.make_key(key) + WINDOW_SUFFIX


def redis_location() -> str:
    """The Redis the default cache writes to: its ``LOCATION`` (the first
    server, when it names several), from the settings."""
    location: str | list[str] = settings.CACHES["default"]["LOCATION"]
    servers = location.split(",") if isinstance(location, str) else location
    return servers[0]


@functools.cache
def window_script(url: str) -> Any:
    """The window script on a process's own client of the Redis at ``url``
    (redis-py's ``register_script``: run by its digest, sent again when the
    Redis does not know it)."""
    return redis.Redis.from_url(url).register_script(WINDOW_LUA)


_loop_windows: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, tuple[str, Any]] = (
    weakref.WeakKeyDictionary()
)


def loop_window() -> Any:
    """The window script on the running loop's own asyncio client of the
    cache's Redis (asyncio connections belong to the loop that made them;
    one per server process), run by its digest (and sent again by redis-py
    when a Redis restarted empty does not know it)."""
    loop = asyncio.get_running_loop()
    url = redis_location()
    known = _loop_windows.get(loop)
    if known is None or known[0] != url:
        script = redis.asyncio.Redis.from_url(url).register_script(WINDOW_LUA)
        known = _loop_windows[loop] = (url, script)
    return known[1]


def _forget(*, setting: str, **kwargs: Any) -> None:
    """Settings changed (tests): the next throttle makes the cache anew."""
    if setting == "CACHES":
        shared_cache.cache_clear()


setting_changed.connect(_forget)


class AddressThrottle(Throttle):
    """Per client address (``scoped`` names the scope)."""

    def get_cache_key(self, request: Request, view: Any) -> str | None:
        return self.key_of(self.get_ident(request))


SchemaAddressThrottle = AddressThrottle.scoped("schema_address")
"""Reads of the OpenAPI schema from one address (anonymous and large)."""
LoginAddressThrottle = AddressThrottle.scoped("login_address")
"""Password guesses (login, token and the admin's login) from one address."""
RegisterAddressThrottle = AddressThrottle.scoped("register_address")
"""Accounts opened from one address."""
PasswordAddressThrottle = AddressThrottle.scoped("password_address")
"""Password changes (guesses at the old password) from one address."""


class LoginAccountThrottle(Throttle):
    """Password guesses at one account, from any address."""

    scope = "login_account"

    def get_cache_key(self, request: Request, view: Any) -> str | None:
        data = request.data
        username = data.get("username") if isinstance(data, Mapping) else None
        return self.key_for(username)

    def key_for(self, username: object) -> str | None:
        """The window of the account ``username`` logs in to (None: no name)."""
        # Imported here: accounts.names reaches DRF's views, which import this module.
        from accounts.names import username_throttle_key

        if not isinstance(username, str) or not username:
            return None  # refused as invalid anyway: no account to guess at
        # Hashed: a cache-safe key for any name (no spaces, bounded length).
        digest = hashlib.sha256(username_throttle_key(username).encode()).hexdigest()[:32]
        return self.key_of(digest)


def login_wait(request: Any, username: object) -> int | None:
    """A login outside the API (the admin's form): None if it may be tried
    now (counted with the API's logins, per address and per account), else
    the whole seconds to wait."""
    address, account = LoginAddressThrottle(), LoginAccountThrottle()
    windows = [
        (address, address.key_of(address.get_ident(request))),
        (account, account.key_for(username)),
    ]
    for throttle, key in windows:
        if not throttle.allow_key(key):
            return math.ceil(throttle.wait() or 0) or 1
    return None


class PlayerThrottle(Throttle):
    """Per logged-in player, from any address (anonymous requests are not
    counted; ``scoped`` names the scope)."""

    def get_cache_key(self, request: Request, view: Any) -> str | None:
        user = request.user
        return self.key_of(user.pk) if user is not None and user.is_authenticated else None


PasswordAccountThrottle = PlayerThrottle.scoped("password_account")
"""Password changes of one logged-in player, from any address."""


class CommandThrottle(PlayerThrottle):
    """Commands (unsafe requests) of one logged-in player; reads are free."""

    scope = "command"

    def get_cache_key(self, request: Request, view: Any) -> str | None:
        if request.method in SAFE_METHODS:
            return None
        return super().get_cache_key(request, view)


async def command_wait(user: Any) -> int | None:
    """None if ``user`` may send a command over a socket now (it is counted,
    with his REST commands); else the whole seconds before he may.  Run on
    the socket's event loop."""
    throttle = CommandThrottle()
    if await throttle.allow_key_async(throttle.key_of(user.pk)):
        return None
    return math.ceil(throttle.wait() or 0) or 1
