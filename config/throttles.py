"""Request throttles: how often an address, an account or a player may ask.

Every throttle counts in Django's default cache (Redis when ``REDIS_URL`` is
set, so every server process counts together; process memory on the embedded
defaults) and reads its rate from ``settings.THROTTLE_RATES[scope]`` on each
request (``"N/s"``, ``"N/m"``, ``"N/h"``, ``"N/d"``; None: no limit), so
tests and deployments change rates without reimporting anything.  A refused
request is ``429 throttled`` with ``retry_after`` and a ``Retry-After``
header (``config.api_errors``).

- Per address: the client's IP, ``REMOTE_ADDR``; ``X-Forwarded-For`` only
  as far as ``NUM_PROXIES`` trusted proxies say (DRF's ``get_ident``), so a
  client cannot pick his own address by sending the header.
- Per account: the username a login names (lowercased: usernames are
  unique whatever their case), so an attacker rotating addresses is still
  stopped on one account; the logged-in player for a password change.
- Per player: every unsafe request of a logged-in user (the REST default)
  and every command sent over a WebSocket (``command_wait``).
"""

from __future__ import annotations

import functools
import hashlib
import math
from collections.abc import Mapping
from typing import Any

from django.conf import settings
from django.core.cache import BaseCache, caches
from django.core.signals import setting_changed
from rest_framework.permissions import SAFE_METHODS
from rest_framework.request import Request
from rest_framework.throttling import SimpleRateThrottle


class Throttle(SimpleRateThrottle):
    """A sliding window per key of ``scope``, its rate read from the settings."""

    cache_format = "throttle:%(scope)s:%(ident)s"

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
        """DRF's ``allow_request`` for a key computed elsewhere (a socket has no request)."""
        if self.rate is None or key is None:
            return True
        self.key = key
        self.history = self.cache.get(key, [])
        self.now = self.timer()
        while self.history and self.history[-1] <= self.now - self.duration:
            self.history.pop()
        if len(self.history) >= self.num_requests:
            return bool(self.throttle_failure())
        return bool(self.throttle_success())

    def allow_request(self, request: Request, view: Any) -> bool:
        return self.allow_key(self.get_cache_key(request, view))


@functools.cache
def shared_cache() -> BaseCache:
    """The default cache, one instance for the process.  Django keeps one
    per async context, that is per socket and per request under ASGI, and a
    Redis one opens a connection pool of its own: every socket's first
    command (and every request) paid for a new connection to Redis, and a
    server held one per socket."""
    return caches.create_connection("default")


def _forget(*, setting: str, **kwargs: Any) -> None:
    """Settings changed (tests): the next throttle makes the cache anew."""
    if setting == "CACHES":
        shared_cache.cache_clear()


setting_changed.connect(_forget)


class AddressThrottle(Throttle):
    """Per client address; subclasses name the scope."""

    def get_cache_key(self, request: Request, view: Any) -> str | None:
        return self.key_of(self.get_ident(request))


class LoginAddressThrottle(AddressThrottle):
    """Password guesses (login and token) from one address."""

    scope = "login_address"


class LoginAccountThrottle(Throttle):
    """Password guesses at one account, from any address."""

    scope = "login_account"

    def get_cache_key(self, request: Request, view: Any) -> str | None:
        data = request.data
        username = data.get("username") if isinstance(data, Mapping) else None
        if not isinstance(username, str) or not username:
            return None  # refused as invalid anyway: no account to guess at
        return self.key_of(_digest(username.lower()))


class RegisterAddressThrottle(AddressThrottle):
    """Accounts opened from one address."""

    scope = "register_address"


class PasswordAddressThrottle(AddressThrottle):
    """Password changes (guesses at the old password) from one address."""

    scope = "password_address"


class PlayerThrottle(Throttle):
    """Per logged-in player, from any address (anonymous requests are not
    counted); subclasses name the scope."""

    def get_cache_key(self, request: Request, view: Any) -> str | None:
        user = request.user
        return self.key_of(user.pk) if user is not None and user.is_authenticated else None


class PasswordAccountThrottle(PlayerThrottle):
    """Password changes of one logged-in player, from any address."""

    scope = "password_account"


class CommandThrottle(PlayerThrottle):
    """Commands (unsafe requests) of one logged-in player; reads are free."""

    scope = "command"

    def get_cache_key(self, request: Request, view: Any) -> str | None:
        if request.method in SAFE_METHODS:
            return None
        return super().get_cache_key(request, view)


def command_wait(user: Any) -> int | None:
    """None if ``user`` may send a command over a socket now (it is counted,
    with his REST commands); else the whole seconds before he may."""
    throttle = CommandThrottle()
    if throttle.allow_key(throttle.key_of(user.pk)):
        return None
    return math.ceil(throttle.wait() or 0) or 1


def _digest(text: str) -> str:
    """A cache-safe key for any string (no spaces, bounded length)."""
    return hashlib.sha256(text.encode()).hexdigest()[:32]
