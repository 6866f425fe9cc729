"""What the operators' machines ask a server: is it up, can it serve, how is it.

- ``GET /healthz``: the process answers (a liveness probe: restart it if
  not).  Touches nothing else, so a slow database never gets a server
  restarted.
- ``GET /readyz``: it can serve: the database answers, the Redis of the
  channel layer and of the Celery broker answers, and at least one worker
  answers a Celery ping.  200 with ``{"status": "ready", "checks": ...}``,
  or 503 with ``"unavailable"`` and the failed checks' errors: a proxy or
  orchestrator sends it no clients until then.  Each check waits at most
  ``READY_TIMEOUT_S``.
- ``GET /metrics``: Prometheus (``kernel.metrics``), for the scraper only.

``middleware``, first in ``settings.MIDDLEWARE``, answers these three
paths before anything else sees the request: a probe or a scraper talks to
a server directly, past the proxy, by its address (a ``Host`` that is in
no ``ALLOWED_HOSTS``) and in plain HTTP (no HTTPS redirect); and no
session, CSRF or throttle work is spent on it.
"""

from __future__ import annotations

import functools
import hmac
import ipaddress
import time
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.db import connections
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.views.decorators.http import require_GET
from prometheus_client import CONTENT_TYPE_LATEST, generate_latest

from kernel.api_errors import error_body
from kernel.metrics import registry

REDIS_LAYERS = (
    "channels_redis.pubsub.RedisPubSubChannelLayer",
    "channels_redis.core.RedisChannelLayer",
)
"""Channel layers on Redis, whose hosts the readiness probe pings."""

Check = Callable[[], dict[str, Any]]
"""One readiness check: what it found (raises if the thing is not ready)."""


class NotReady(Exception):
    """A check found its component there but not able to serve."""


def middleware(get_response: Callable[[HttpRequest], HttpResponse]) -> Callable[..., Any]:
    """Answer ``/healthz``, ``/readyz`` and ``/metrics`` here (see the module)."""

    def probe_or_pass(request: HttpRequest) -> HttpResponse:
        view = PROBES.get(request.path_info)
        return get_response(request) if view is None else view(request)

    return probe_or_pass


@require_GET
def healthz(request: HttpRequest) -> JsonResponse:
    """The process is up and serving requests."""
    return JsonResponse({"status": "ok"})


@require_GET
def readyz(request: HttpRequest) -> JsonResponse:
    """Every component a request needs answers (see the module)."""
    checks: dict[str, dict[str, Any]] = {}
    for name, check in _checks():
        started = time.perf_counter()
        try:
            found = {"ok": True, **check()}
        except Exception as error:  # whatever it is, the server is not ready
            found = {"ok": False, "error": f"{type(error).__name__}: {error}"[:300]}
        found["ms"] = round((time.perf_counter() - started) * 1000, 1)
        checks[name] = found
        if name == "broker" and not found["ok"]:
            checks["workers"] = {"ok": False, "error": "the broker does not answer", "ms": 0.0}
            break
    ready = all(found["ok"] for found in checks.values())
    body = {"status": "ready" if ready else "unavailable", "checks": checks}
    return JsonResponse(body, status=200 if ready else 503)


def _checks() -> list[tuple[str, Check]]:
    """The checks in order: the workers only after their broker."""
    checks: list[tuple[str, Check]] = [("database", _database)]
    layer = settings.CHANNEL_LAYERS["default"]
    if layer["BACKEND"] in REDIS_LAYERS:
        for host in layer["CONFIG"]["hosts"]:
            checks.append(("channel_layer", functools.partial(_redis, host["address"])))
    else:
        checks.append(("channel_layer", lambda: {"backend": "in-memory"}))
    broker = settings.CELERY_BROKER_URL
    if broker.startswith(("redis://", "rediss://", "unix://")):
        checks.append(("broker", lambda: _redis(broker)))
    else:
        checks.append(("broker", lambda: {"backend": broker.split(":", 1)[0]}))
    checks.append(("workers", _workers))
    return checks


def _database() -> dict[str, Any]:
    connection = connections["default"]
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    finally:
        connection.close_if_unusable_or_obsolete()
    return {"vendor": connection.vendor}


def _redis(url: str) -> dict[str, Any]:
    import redis

    timeout = settings.READY_TIMEOUT_S
    client = redis.Redis.from_url(url, socket_timeout=timeout, socket_connect_timeout=timeout)
    try:
        client.ping()
    finally:
        client.close()
    return {}


def _workers() -> dict[str, Any]:
    """At least one Celery worker answers a ping (the first answer ends the
    wait; none within the timeout: not ready)."""
    from config.celery import app

    with app.connection_for_write(settings.CELERY_BROKER_URL) as connection:
        answers = app.control.ping(timeout=settings.READY_TIMEOUT_S, limit=1, connection=connection)
    if not answers:
        raise NotReady(f"no worker answered a ping within {settings.READY_TIMEOUT_S} s")
    return {"answered": sorted(name for answer in answers for name in answer)}


@require_GET
def metrics(request: HttpRequest) -> HttpResponse:
    """The Prometheus text format, to a scraper from ``METRICS_NETWORKS``
    with ``METRICS_TOKEN`` (if set) as its bearer token; anyone else gets
    403 ``forbidden``."""
    if not scraper(request):
        return JsonResponse(
            error_body("forbidden", "Metrics are for the operators' scraper."), status=403
        )
    return HttpResponse(generate_latest(registry()), content_type=CONTENT_TYPE_LATEST)


def scraper(request: HttpRequest) -> bool:
    """Whether the request comes from a scraper's network, with the token."""
    try:
        address = ipaddress.ip_address(request.META.get("REMOTE_ADDR") or "")
    except ValueError:
        return False
    if not any(address in ipaddress.ip_network(n) for n in settings.METRICS_NETWORKS):
        return False
    token = settings.METRICS_TOKEN
    if not token:
        return True
    sent = request.META.get("HTTP_AUTHORIZATION", "")
    return hmac.compare_digest(sent.encode(), f"Bearer {token}".encode())


PROBES: dict[str, Callable[[HttpRequest], HttpResponse]] = {
    "/healthz": healthz,
    "/readyz": readyz,
    "/metrics": metrics,
}
