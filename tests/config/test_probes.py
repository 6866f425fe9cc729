"""The operators' probes (``config.probes``): ``/healthz`` says the process is
up, ``/readyz`` that the database, Redis and a worker answer (503 and why,
when one does not), ``/metrics`` answers the scraper alone.  On the real
PostgreSQL, Redis and a real Celery worker."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import uuid
from pathlib import Path
from typing import Any

import pytest
from django.test import Client

from tests.poker.clock_support import Worker
from tests.process_groups import end_group

ROOT = Path(__file__).resolve().parents[2]
FAR_HOST = "10.1.2.3:8000"
"""How a probe names a server: its address, in no ``ALLOWED_HOSTS``."""


def probe(path: str, **headers: Any) -> Any:
    return Client().get(path, HTTP_HOST=FAR_HOST, **headers)


def closed_port() -> int:
    """A port nothing listens on (bound, then let go)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def on_redis(settings: Any, url: str) -> None:
    """Point the channel layer and the broker at ``url``."""
    settings.CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
            "CONFIG": {"hosts": [{"address": url}]},
        }
    }
    settings.CELERY_BROKER_URL = url
    settings.READY_TIMEOUT_S = 0.5


def test_healthz_answers_ok_whatever_the_host_and_in_plain_http(settings):
    settings.SECURE_SSL_REDIRECT = True
    response = probe("/healthz")
    assert response.status_code == 200
    assert response.json() == {"status": "ok"}


def test_the_probes_take_only_get(settings):
    response = Client().post("/healthz", HTTP_HOST=FAR_HOST)
    assert response.status_code == 405


@pytest.mark.redis
@pytest.mark.django_db
def test_readyz_is_ready_when_the_database_redis_and_a_worker_answer(settings, redis_url):
    on_redis(settings, redis_url)
    settings.READY_TIMEOUT_S = 30.0  # a loaded machine is slow; a first answer ends the wait
    worker = Worker(f"ready-{uuid.uuid4().hex[:8]}", redis_url)
    try:
        response = probe("/readyz")
    finally:
        end_group(worker.process)
    assert response.status_code == 200, response.content
    body = response.json()
    assert body["status"] == "ready"
    assert list(body["checks"]) == ["database", "channel_layer", "broker", "workers"]
    assert all(check["ok"] for check in body["checks"].values())
    assert body["checks"]["workers"]["answered"]
    assert body["checks"]["workers"]["ms"] < 30_000  # an answer ended the wait, not the timeout


@pytest.mark.django_db
def test_readyz_is_unavailable_when_redis_does_not_answer(settings):
    on_redis(settings, f"redis://127.0.0.1:{closed_port()}/0")
    response = probe("/readyz")
    assert response.status_code == 503
    body = response.json()
    assert body["status"] == "unavailable"
    checks = body["checks"]
    assert checks["database"]["ok"] is True
    for name in ("channel_layer", "broker", "workers"):
        assert checks[name]["ok"] is False and checks[name]["error"], name
    assert "ConnectionError" in checks["broker"]["error"]


@pytest.mark.redis
@pytest.mark.django_db
def test_readyz_is_unavailable_when_no_worker_answers(settings, redis_url):
    """The test's own Redis database: no worker consumes there."""
    on_redis(settings, redis_url)
    response = probe("/readyz")
    assert response.status_code == 503
    checks = response.json()["checks"]
    assert checks["broker"]["ok"] is True
    assert checks["workers"] == {
        "ok": False,
        "error": "NotReady: no worker answered a ping within 0.5 s",
        "ms": checks["workers"]["ms"],
    }


READYZ = """
import django, json
django.setup()
from django.test import Client
response = Client().get("/readyz", HTTP_HOST="10.1.2.3")
print(json.dumps({"status": response.status_code, "body": response.json()}))
"""


def test_readyz_is_unavailable_when_the_database_does_not_answer():
    """A server whose PostgreSQL is down (nothing at its port), in a process
    of its own: every other check still runs."""
    env = {
        "PATH": os.environ.get("PATH", ""),
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DATABASE_URL": f"postgres://postgres@127.0.0.1:{closed_port()}/poker",
        "READY_TIMEOUT_S": "0.5",
    }
    result = subprocess.run(
        [sys.executable, "-c", READYZ], cwd=ROOT, env=env,
        capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    found = json.loads(result.stdout.strip().splitlines()[-1])
    assert found["status"] == 503
    checks = found["body"]["checks"]
    assert checks["database"]["ok"] is False
    assert "OperationalError" in checks["database"]["error"]
    assert checks["channel_layer"] == {"ok": True, "backend": "in-memory", "ms": 0.0}


def test_metrics_answer_a_scraper_from_an_internal_address():
    response = probe("/metrics", REMOTE_ADDR="10.0.0.7")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/plain")
    assert b"# TYPE poker_commands_total counter" in response.content
    assert b"# TYPE poker_open_sockets gauge" in response.content


def test_metrics_refuse_a_public_address_with_403_json():
    response = probe("/metrics", REMOTE_ADDR="203.0.113.9")
    assert response.status_code == 403
    assert response.json()["code"] == "forbidden"


def test_metrics_want_the_token_when_one_is_set(settings):
    settings.METRICS_TOKEN = "s3cret-scrape"
    assert probe("/metrics").status_code == 403
    assert probe("/metrics", HTTP_AUTHORIZATION="Bearer wrong").status_code == 403
    good = probe("/metrics", HTTP_AUTHORIZATION="Bearer s3cret-scrape")
    assert good.status_code == 200


@pytest.mark.redis
def test_metrics_show_the_depth_of_the_clock_queue(settings, redis_url):
    import redis

    queue = f"depth-{uuid.uuid4().hex[:8]}"
    settings.CLOCK_QUEUE = queue
    settings.CELERY_BROKER_URL = redis_url
    client = redis.Redis.from_url(redis_url)
    try:
        client.rpush(queue, "a", "b", "c")
        text = probe("/metrics").content.decode()
    finally:
        client.delete(queue)
        client.close()
    assert f'poker_queue_depth{{queue="{queue}",state="ready"}} 3.0' in text
    assert f'poker_queue_depth{{queue="{queue}",state="unacked"}}' in text
