"""Migrated databases for tests that run the service in subprocesses: a copy
of one migrated template, not a migration each time.

Why: ``manage.py migrate`` in a subprocess costs seconds (Django's start and
every migration), and a dozen tests and fixtures need a fresh database of
their own; a copy of a migrated one costs a fraction of a second.  The
template is named after a digest of the migrations and the pinned
dependencies, so a changed migration builds a new one, and it is built
once by whichever test process comes first (the others wait on a lock,
PostgreSQL's advisory one or a file's).  A template is migrated exactly as
a test's own database was: the same command in a subprocess.  The run that
built a PostgreSQL template drops it when it ends, with every database of
its own left on the server (``drop_run``), unless told to keep it
(``--keep-migrated-template``: later runs copy it instead of migrating).

Nothing here imports Django (see ``tests/integration/cluster.py``).
"""

from __future__ import annotations

import fcntl
import functools
import hashlib
import os
import secrets
import shutil
import sqlite3
import subprocess
import sys
import tempfile
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import psycopg
from psycopg import sql

from tests import run

ROOT = Path(__file__).resolve().parents[1]
TEMPLATE_PREFIX = "pokerroom_template_"
LOCK_KEY = 0x706F6B6572  # "poker": the advisory lock for building and copying
MIGRATE_TIMEOUT_S = 180


@functools.cache
def digest() -> str:
    """What the migrated schema depends on: every migration and the pins."""
    hashed = hashlib.sha256()
    for path in sorted([*ROOT.glob("*/migrations/*.py"), ROOT / "pyproject.toml"]):
        hashed.update(str(path.relative_to(ROOT)).encode())
        hashed.update(path.read_bytes())
    return hashed.hexdigest()[:16]


def migrate(database_url: str, env: dict[str, str]) -> None:
    """``manage.py migrate`` on ``database_url``, as a deployment runs it."""
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput", "-v0"],
        cwd=ROOT,
        env={**env, "DATABASE_URL": database_url},
        check=True,
        timeout=MIGRATE_TIMEOUT_S,
    )


def postgres(server_dsn: str, name: str, env: dict[str, str]) -> str:
    """Create database ``name`` on the server of ``server_dsn``, migrated;
    its URL.  (PostgreSQL copies a template only while no session is
    connected to it, hence the lock around the copy too.)"""
    template = TEMPLATE_PREFIX + digest()
    with psycopg.connect(server_dsn, autocommit=True) as admin:
        admin.execute("SELECT pg_advisory_lock(%s)", (LOCK_KEY,))
        try:
            if not _exists(admin, template):
                _build_template(admin, server_dsn, template, env)
            admin.execute(f'CREATE DATABASE "{name}" TEMPLATE "{template}"')
        finally:
            admin.execute("SELECT pg_advisory_unlock(%s)", (LOCK_KEY,))
    return _url(server_dsn, name)


def sqlite(path: Path, env: dict[str, str]) -> str:
    """A migrated SQLite file at ``path``; its URL."""
    template = Path(tempfile.gettempdir()) / f"{TEMPLATE_PREFIX}{digest()}.sqlite3"
    with open(f"{template}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not template.exists():
            building = template.with_name(f"{template.name}.{secrets.token_hex(4)}")
            migrate(f"sqlite:///{building}", env)
            with sqlite3.connect(building) as conn:  # everything in the one file
                conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            os.replace(building, template)
        shutil.copyfile(template, path)
    return f"sqlite:///{path}"


def _exists(admin: psycopg.Connection, name: str) -> bool:
    found = admin.execute("SELECT 1 FROM pg_database WHERE datname = %s", (name,)).fetchone()
    return found is not None


def _build_template(
    admin: psycopg.Connection, server_dsn: str, template: str, env: dict[str, str]
) -> None:
    """Migrate a database under a scratch name, then give it the template's
    name (so a half-built one is never copied) and drop older templates."""
    building = f"{template}_{secrets.token_hex(4)}"
    admin.execute(f'CREATE DATABASE "{building}"')
    try:
        migrate(_url(server_dsn, building), env)
        admin.execute(f'ALTER DATABASE "{building}" RENAME TO "{template}"')
        mark_built(admin, template)
    except BaseException:
        admin.execute(f'DROP DATABASE IF EXISTS "{building}" WITH (FORCE)')
        raise
    stale = admin.execute(
        "SELECT datname FROM pg_database WHERE datname LIKE %s AND datname <> %s",
        (TEMPLATE_PREFIX + "%", template),
    ).fetchall()
    for (old,) in stale:
        admin.execute(f'DROP DATABASE IF EXISTS "{old}" WITH (FORCE)')


def _built_here() -> str:
    """What a template this run built says of itself (its comment)."""
    return f"built by test run {run.ID}"


def mark_built(admin: psycopg.Connection, template: str) -> None:
    """Say on ``template`` that this run built it (``drop_run`` reads it)."""
    note = sql.SQL("COMMENT ON DATABASE {} IS {}")
    admin.execute(note.format(sql.Identifier(template), sql.Literal(_built_here())))


def drop_run(server_dsn: str, keep_template: bool) -> list[str]:
    """Drop every database of this run left on the server at
    ``server_dsn`` (its id in the name), and the template if this run built
    it, unless ``keep_template``; their names."""
    assert run.ID, "an empty id would name every database"
    try:
        admin = psycopg.connect(server_dsn, autocommit=True, connect_timeout=2)
    except psycopg.OperationalError:
        return []  # no server: the run made nothing there
    with admin:
        admin.execute("SELECT pg_advisory_lock(%s)", (LOCK_KEY,))
        rows = admin.execute(
            "SELECT datname, shobj_description(oid, 'pg_database') = %s AS built"
            " FROM pg_database WHERE strpos(datname, %s) > 0 OR shobj_description(oid,"
            " 'pg_database') = %s",
            (_built_here(), run.ID, _built_here()),
        ).fetchall()
        dropped = [name for name, built in rows if not (built and keep_template)]
        for name in dropped:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        admin.execute("SELECT pg_advisory_unlock(%s)", (LOCK_KEY,))
    return dropped


def _url(server_dsn: str, name: str) -> str:
    return urlunsplit(urlsplit(server_dsn)._replace(path=f"/{name}"))
