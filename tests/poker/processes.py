"""Helpers for the crash tests: a database shared by separate processes,
and a child process driven line by line (``crash_driver.py``)."""

from __future__ import annotations

import json
import os
import select
import signal
import sqlite3
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import psycopg
import pytest

from tests import migrated, run
from tests.integration import cluster

ROOT = Path(__file__).resolve().parents[2]
DRIVER = Path(__file__).with_name("crash_driver.py")
REPLY_TIMEOUT_S = 30
DEFAULT_TEST_DATABASE_URL = "postgres://postgres@127.0.0.1:5432/test"

BACKENDS = [
    pytest.param("sqlite", id="sqlite"),
    pytest.param("postgres", marks=pytest.mark.postgres, id="postgres"),
]
"""The crash tests' ``shared`` fixture's params: each runs on both."""


def child_env(database_url: str) -> dict[str, str]:
    """A child's environment: the integration tests' (no timers, no Redis),
    on ``database_url``."""
    return cluster.child_env(DATABASE_URL=database_url)


class SharedDatabase:
    """A database of its own, migrated with ``manage.py migrate``, that
    child processes reach through ``url``; the test peeks at it with a
    plain driver connection of its own."""

    def __init__(self, vendor: str, server_dsn: str, workdir: Path) -> None:
        self.vendor = vendor
        if vendor == "sqlite":
            self.path = workdir / "shared.sqlite3"
            self.url = migrated.sqlite(self.path, child_env(""))
        else:
            self.server_dsn = server_dsn
            self.name = run.database_name("crash")
            self.url = migrated.postgres(server_dsn, self.name, child_env(""))

    def drop(self) -> None:
        if self.vendor == "sqlite":
            for leftover in self.path.parent.glob(f"{self.path.name}*"):  # with its journal
                leftover.unlink()
        else:
            with psycopg.connect(self.server_dsn, autocommit=True) as admin:
                admin.execute(f'DROP DATABASE IF EXISTS "{self.name}" WITH (FORCE)')

    def peek(self, sql: str, *params: Any) -> list[tuple[Any, ...]]:
        """Rows of ``sql`` (``%s`` placeholders) as another session sees them."""
        if self.vendor == "sqlite":
            with sqlite3.connect(self.path, timeout=5) as conn:
                return conn.execute(sql.replace("%s", "?"), params).fetchall()
        with psycopg.connect(self.url, autocommit=True) as conn:
            return conn.execute(sql, params).fetchall()

    def writer_shut_out(self, table_id: int) -> bool:
        """Whether another session is kept from writing the table now: its
        row is locked (PostgreSQL), or the file has a writer (SQLite)."""
        if self.vendor == "sqlite":
            conn = sqlite3.connect(self.path, timeout=0, isolation_level=None)
            try:
                conn.execute("BEGIN IMMEDIATE")
                conn.execute("ROLLBACK")
            except sqlite3.OperationalError as error:
                return "locked" in str(error)
            finally:
                conn.close()
            return False
        with psycopg.connect(self.url) as conn:
            try:
                conn.execute(
                    "SELECT id FROM poker_table WHERE id = %s FOR UPDATE NOWAIT", [table_id]
                )
            except psycopg.errors.LockNotAvailable:
                return True
            finally:
                conn.rollback()
            return False


class Refused(Exception):
    """The child's service refused the request with an API error code."""


class Child:
    """A separate Python process playing through ``poker.services`` (or
    the services ``driver`` reaches)."""

    def __init__(self, database: SharedDatabase, driver: Path = DRIVER) -> None:
        self.stderr = tempfile.TemporaryFile()  # noqa: SIM115 - closed by close()
        self.process = subprocess.Popen(
            [sys.executable, str(driver)],
            cwd=ROOT,
            env=child_env(database.url),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self.stderr,
        )

    def send(self, op: str, **args: Any) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(json.dumps({"op": op, **args}).encode() + b"\n")
        self.process.stdin.flush()

    def receive(self) -> dict[str, Any]:
        out = self.process.stdout
        assert out is not None
        ready, _, _ = select.select([out], [], [], REPLY_TIMEOUT_S)
        line = out.readline() if ready else b""
        if not line:
            self.process.kill()
            self.process.wait()
            self.stderr.seek(0)
            tail = self.stderr.read().decode(errors="replace")[-3000:]
            raise AssertionError(
                f"the child said nothing (exit {self.process.returncode}):\n{tail}"
            )
        reply: dict[str, Any] = json.loads(line)
        return reply

    def call(self, op: str, **args: Any) -> Any:
        self.send(op, **args)
        reply = self.receive()
        if "refused" in reply:
            raise Refused(reply["refused"])
        return reply["ok"]

    def kill(self) -> None:
        """SIGKILL: no cleanup, no rollback, no goodbye."""
        self.process.send_signal(signal.SIGKILL)
        assert self.process.wait(10) == -signal.SIGKILL
        self.close()

    def close(self) -> None:
        for pipe in (self.process.stdin, self.process.stdout):
            if pipe is not None:
                pipe.close()
        if self.process.poll() is None:
            self.process.wait(10)
        self.stderr.close()


def shared_database(
    vendor: str, tmp_path_factory: pytest.TempPathFactory, name: str
) -> Iterator[SharedDatabase]:
    """A crash test's shared database on ``vendor``, dropped at the end
    (the server's: ``TEST_DATABASE_URL``)."""
    server = os.environ.get("TEST_DATABASE_URL") or DEFAULT_TEST_DATABASE_URL
    database = SharedDatabase(vendor, server, tmp_path_factory.mktemp(name))
    yield database
    database.drop()


def children(shared: SharedDatabase, driver: Path = DRIVER) -> Iterator[Callable[[], Child]]:
    """Start child processes of ``driver`` on the shared database (all
    gone at the end)."""
    started: list[Child] = []

    def make() -> Child:
        started.append(Child(shared, driver))
        return started[-1]

    yield make
    for child in started:
        if child.process.poll() is None:
            child.process.kill()
            child.close()
