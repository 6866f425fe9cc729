"""Real processes for the integration tests: a PostgreSQL database of their
own, a Redis database of their own, and ASGI servers (uvicorn or daphne) on
both.

Nothing here imports Django: the servers, the migration and the seeding run
in subprocesses with ``DATABASE_URL`` / ``REDIS_URL`` pointing at the test's
own databases, whatever the test process itself was configured with.

Each server runs in a process group of its own, and ``Server.stop`` ends
the whole group: nothing a server started outlives its test.
"""

from __future__ import annotations

import json
import os
import secrets
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import psycopg

from tests import migrated, run
from tests.process_groups import end_group

ROOT = Path(__file__).resolve().parents[2]
SEED = Path(__file__).with_name("seed.py")
START_TIMEOUT_S = 60  # generous: a loaded machine starts a server slowly


def child_env(**more: str) -> dict[str, str]:
    """The environment of a child process: this one's, minus pytest's
    traces, plus ``more`` (so ``DATABASE_URL``/``REDIS_URL`` are the test's)."""
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("PYTEST_", "DJANGO_")) and k not in ("DATABASE_URL", "REDIS_URL")
    }
    # No timers unless a test asks: nothing would run them on its Redis.
    env.update(DJANGO_SETTINGS_MODULE="config.settings", PYTHONUNBUFFERED="1")
    env.update(CLOCKS_ENABLED="false", **more)
    return env


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


# --------------------------------------------------------------------------
# PostgreSQL


class Database:
    """A fresh PostgreSQL database ``pokerroom_it_<run id>_<random>``, migrated
    (a copy of the migrated template: ``tests/migrated.py``)."""

    def __init__(self, server_dsn: str) -> None:
        self.server_dsn = server_dsn
        self.name = run.database_name("it")
        self.url = migrated.postgres(server_dsn, self.name, child_env())

    def drop(self) -> None:
        with psycopg.connect(self.server_dsn, autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{self.name}" WITH (FORCE)')

    def one(self, sql: str, *params: Any) -> Any:
        """The first column of the first row of ``sql``."""
        with psycopg.connect(self.url, autocommit=True) as conn:
            row = conn.execute(sql, params).fetchone()
        return None if row is None else row[0]

    def seed(self, **request: Any) -> dict[str, Any]:
        """Run ``seed.py`` on this database (users, tokens, a table)."""
        done = subprocess.run(
            [sys.executable, str(SEED)],
            cwd=ROOT,
            env=child_env(DATABASE_URL=self.url),
            input=json.dumps(request).encode(),
            capture_output=True,
            check=False,
            timeout=60,
        )
        if done.returncode:
            raise AssertionError(f"seed.py failed:\n{done.stderr.decode()[-3000:]}")
        reply: dict[str, Any] = json.loads(done.stdout.decode().strip().splitlines()[-1])
        return reply


# --------------------------------------------------------------------------
# Servers

RUNNERS = {
    "uvicorn": (
        "-m uvicorn config.asgi:application --host 127.0.0.1 --port {port}"
        " --lifespan off --no-access-log --log-level warning --ws-max-size 16384"
    ),
    "daphne": (
        "-m daphne -b 127.0.0.1 -p {port} -v 0 --websocket-max-message-size 16384"
        " --websocket-max-frame-size 16384 config.asgi:application"
    ),
    # Everything the servers can log: every handshake and request, with its query.
    "uvicorn-verbose": (
        "-m uvicorn config.asgi:application --host 127.0.0.1 --port {port}"
        " --lifespan off --log-level debug --ws-max-size 16384"
    ),
    "daphne-verbose": (
        "-m daphne -b 127.0.0.1 -p {port} -v 2 --access-log - --websocket-max-message-size 16384"
        " --websocket-max-frame-size 16384 config.asgi:application"
    ),
}
"""How each ASGI server is run (``make run`` serves with daphne)."""


class Server:
    """``uvicorn config.asgi:application`` (or daphne) on a port of
    127.0.0.1, on the test's PostgreSQL and Redis databases, with DEBUG off,
    in a process group of its own."""

    def __init__(
        self, name: str, database_url: str, redis_url: str, port: int = 0, runner: str = "uvicorn"
    ) -> None:
        self.name = name
        self.runner = runner
        self.port = port or free_port()
        self.env = child_env(
            DATABASE_URL=database_url,
            REDIS_URL=redis_url,
            DEBUG="false",
            SECRET_KEY=secrets.token_urlsafe(40),
            ALLOWED_HOSTS="127.0.0.1,localhost",
            LOG_LEVEL="WARNING",
        )
        self.log = tempfile.TemporaryFile()  # noqa: SIM115 - closed by stop()
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def http(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def start(self) -> Server:
        self.process = subprocess.Popen(
            [sys.executable, *RUNNERS[self.runner].format(port=self.port).split()],
            cwd=ROOT,
            env=self.env,
            stdout=self.log,
            stderr=subprocess.STDOUT,
            start_new_session=True,  # a group of its own: stop() ends all of it
        )
        deadline = time.monotonic() + START_TIMEOUT_S
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise AssertionError(f"server {self.name} exited:\n{self.tail()}")
            try:
                with urllib.request.urlopen(f"{self.http}/api/health/", timeout=1) as answer:
                    if json.load(answer) == {"status": "ok"}:
                        return self
            except (OSError, ValueError):
                time.sleep(0.1)
        raise AssertionError(f"server {self.name} never answered /api/health/:\n{self.tail()}")

    def kill(self) -> None:
        """SIGKILL: the process dies at once, with its sockets."""
        assert self.process is not None
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(10)

    def stop(self) -> None:
        """SIGTERM, then SIGKILL; the server reaped and its group ended."""
        if self.process is not None:
            end_group(self.process)

    def tail(self, size: int = 4000) -> str:
        self.log.seek(0)
        return self.log.read().decode(errors="replace")[-size:]

    def request(
        self, method: str, path: str, token: str | None = None, body: Any = None
    ) -> tuple[int, Any]:
        """One HTTP request with a JSON body; (status, JSON answer)."""
        headers = {"Accept": "application/json"}
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            headers["Content-Type"] = "application/json"
        if token is not None:
            headers["Authorization"] = f"Token {token}"
        req = urllib.request.Request(f"{self.http}{path}", data, headers, method=method)
        try:
            with urllib.request.urlopen(req, timeout=15) as answer:
                return answer.status, json.load(answer)
        except urllib.error.HTTPError as error:
            return error.code, json.loads(error.read() or b"null")
