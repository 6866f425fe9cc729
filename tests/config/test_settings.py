"""Settings come from the environment, with embedded defaults for a bare machine."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings
from django.db import connection

REPO_ROOT = Path(__file__).resolve().parents[2]

PRINT_SETTINGS = """
import json
from django.conf import settings
db = settings.DATABASES["default"]
print(json.dumps({
    "engine": db["ENGINE"],
    "name": str(db["NAME"]),
    "host": db.get("HOST", ""),
    "conn_max_age": db["CONN_MAX_AGE"],
    "channel_layer": settings.CHANNEL_LAYERS["default"]["BACKEND"],
    "channel_hosts": settings.CHANNEL_LAYERS["default"].get("CONFIG", {}).get("hosts"),
    "channel_prefix": settings.CHANNEL_LAYERS["default"].get("CONFIG", {}).get("prefix"),
    "channel_format": settings.CHANNEL_LAYERS["default"].get("CONFIG", {}).get("serializer_format"),
    "celery_eager": settings.CELERY_TASK_ALWAYS_EAGER,
    "clocks": settings.CLOCKS_ENABLED,
    "embedded_worker": settings.EMBEDDED_WORKER,
    "celery_broker": settings.CELERY_BROKER_URL,
    "celery_backend": settings.CELERY_RESULT_BACKEND,
    "debug": settings.DEBUG,
    "secret_key": settings.SECRET_KEY,
    "cache": settings.CACHES["default"],
    "throttle_rates": settings.THROTTLE_RATES,
    "num_proxies": settings.REST_FRAMEWORK["NUM_PROXIES"],
}))
"""


def settings_under(**env: str) -> dict[str, object]:
    """Import the settings in a fresh interpreter whose environment is only
    ``env``.  Only the settings: no app's ``ready`` changes one, and loading
    every app (``django.setup()``) would take most of the interpreter's time."""
    clean = {"PATH": os.environ.get("PATH", ""), "DJANGO_SETTINGS_MODULE": "config.settings"}
    result = subprocess.run(
        [sys.executable, "-c", PRINT_SETTINGS],
        cwd=REPO_ROOT,
        env={**clean, **env},
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout.strip().splitlines()[-1])


def test_empty_environment_uses_sqlite_in_the_repository():
    found = settings_under()
    assert found["engine"] == "django.db.backends.sqlite3"
    assert found["name"] == str(REPO_ROOT / "db.sqlite3")
    assert found["conn_max_age"] == 0


SQLITE_WRITERS = """
import json, threading, django
django.setup()
from django.contrib.auth.models import Group
from django.core.management import call_command
from django.db import connection, transaction
call_command("migrate", "auth", verbosity=0)
errors = []
def writer(k):
    try:
        for i in range(40):
            with transaction.atomic():
                Group.objects.count()  # a read first, then a write
                Group.objects.create(name=f"{k}-{i}")
    except Exception as error:
        errors.append(repr(error))
    finally:
        connection.close()
threads = [threading.Thread(target=writer, args=(k,)) for k in range(3)]
for t in threads: t.start()
for t in threads: t.join()
print(json.dumps({"errors": errors, "groups": Group.objects.filter(name__contains="-").count()}))
"""


def test_the_embedded_sqlite_takes_writers_from_several_threads(tmp_path):
    """``make run`` writes from request threads and the clocks' worker at
    once: transactions that read then write must queue, not fail with
    "database is locked"."""
    clean = {"PATH": os.environ.get("PATH", ""), "DJANGO_SETTINGS_MODULE": "config.settings"}
    env = {**clean, "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}"}
    result = subprocess.run(
        [sys.executable, "-c", SQLITE_WRITERS],
        cwd=REPO_ROOT, env=env, capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout.strip().splitlines()[-1]) == {"errors": [], "groups": 120}


def test_empty_environment_uses_in_memory_layer_and_an_embedded_worker():
    found = settings_under()
    assert found["channel_layer"] == "channels.layers.InMemoryChannelLayer"
    assert found["celery_broker"] == "memory://"
    assert found["clocks"] is True and found["embedded_worker"] is True
    assert found["celery_eager"] is False  # timers wait for their time


def test_empty_environment_is_debug_with_the_marked_insecure_key():
    found = settings_under()
    assert found["debug"] is True
    assert "insecure" in str(found["secret_key"])


def test_database_url_selects_postgresql_and_conn_max_age_is_read():
    found = settings_under(
        DATABASE_URL="postgres://poker:pw@db.example:5433/room", CONN_MAX_AGE="60"
    )
    assert found["engine"] == "django.db.backends.postgresql"
    assert (found["name"], found["host"]) == ("room", "db.example")
    assert found["conn_max_age"] == 60


def test_redis_url_selects_redis_channel_layer_and_celery_broker():
    found = settings_under(REDIS_URL="redis://cache.example:6379/3")
    # One PUBLISH per group message, each server fanning out to its own sockets.
    assert found["channel_layer"] == "channels_redis.pubsub.RedisPubSubChannelLayer"
    assert found["channel_hosts"] == [{"address": "redis://cache.example:6379/3"}]
    assert found["channel_format"] == "msgpack-shared"  # decoded once per process
    # Pub/sub channels are the server's, not the database's: the prefix
    # keeps the deployments of two databases apart.
    assert found["channel_prefix"] == "asgi3."
    assert found["celery_broker"] == "redis://cache.example:6379/3"
    assert found["celery_backend"] == "redis://cache.example:6379/3"
    assert found["celery_eager"] is False
    assert found["embedded_worker"] is False  # separate worker and beat processes


def test_throttles_count_in_process_memory_on_the_embedded_defaults():
    found = settings_under()
    assert found["cache"]["BACKEND"] == "django.core.cache.backends.locmem.LocMemCache"
    assert found["num_proxies"] == 0  # X-Forwarded-For is not trusted
    assert found["throttle_rates"]["login_account"] == "5/m"


def test_throttles_count_on_redis_under_their_own_prefix_with_redis_url():
    found = settings_under(REDIS_URL="redis://cache.example:6379/3", CACHE_KEY_PREFIX="blue")
    assert found["cache"] == {
        "BACKEND": "django.core.cache.backends.redis.RedisCache",
        "LOCATION": "redis://cache.example:6379/3",
        "KEY_PREFIX": "blue",
    }


def test_throttle_rates_and_proxies_come_from_the_environment():
    found = settings_under(THROTTLE_COMMAND_RATE="50/s", NUM_PROXIES="2")
    assert found["throttle_rates"]["command"] == "50/s" and found["num_proxies"] == 2


def test_clocks_can_be_turned_off():
    found = settings_under(CLOCKS_ENABLED="false")
    assert found["clocks"] is False and found["embedded_worker"] is False


def test_setting_secret_key_turns_debug_off():
    found = settings_under(SECRET_KEY="a-real-secret")
    assert found["secret_key"] == "a-real-secret"
    assert found["debug"] is False


def test_api_errors_go_through_the_project_exception_handler():
    assert settings.REST_FRAMEWORK["EXCEPTION_HANDLER"] == "kernel.api_errors.exception_handler"


@pytest.mark.django_db
def test_test_database_follows_database_url():
    from django.contrib.auth import get_user_model

    User = get_user_model()

    expected = (
        "postgresql" if os.environ.get("DATABASE_URL", "").startswith("postgres") else "sqlite"
    )
    assert connection.vendor == expected
    User.objects.create_user("alice")
    assert User.objects.filter(username="alice").count() == 1
