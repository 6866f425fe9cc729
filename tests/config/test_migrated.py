"""Migrated databases for subprocess tests (tests/migrated.py): each copy of
the template carries every migration of the project, and is a database of
its own."""

from __future__ import annotations

import secrets
import sqlite3

import psycopg
import pytest

from tests import migrated, run
from tests.integration.cluster import child_env


def _project_migrations() -> set[tuple[str, str]]:
    return {
        (path.parent.parent.name, path.stem) for path in migrated.ROOT.glob("*/migrations/0*.py")
    }


@pytest.mark.postgres
def test_a_postgres_copy_has_every_migration_and_is_its_own(pg_dsn):
    names = [run.database_name("copy") for _ in range(2)]
    urls = [migrated.postgres(pg_dsn, name, child_env()) for name in names]
    try:
        with psycopg.connect(urls[0], autocommit=True) as first:
            applied = set(first.execute("SELECT app, name FROM django_migrations").fetchall())
            first.execute("INSERT INTO django_session VALUES ('k', 'd', now())")
        with psycopg.connect(urls[1], autocommit=True) as second:
            sessions = second.execute("SELECT COUNT(*) FROM django_session").fetchone()
        assert _project_migrations() <= applied
        assert sessions == (0,)
    finally:
        with psycopg.connect(pg_dsn, autocommit=True) as admin:
            for name in names:
                admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def test_a_sqlite_copy_has_every_migration(tmp_path):
    url = migrated.sqlite(tmp_path / "copy.sqlite3", child_env())
    with sqlite3.connect(url.removeprefix("sqlite:///")) as conn:
        applied = set(conn.execute("SELECT app, name FROM django_migrations").fetchall())
    assert _project_migrations() <= applied


def test_the_test_databases_are_named_with_the_runs_id(settings):
    assert run.ID and run.ID in run.database_name("x")
    for alias, db in settings.DATABASES.items():
        name = db["TEST"].get("NAME")
        if name not in (None, ":memory:"):  # None: SQLite's in memory
            assert run.ID in name, alias


@pytest.mark.postgres
def test_a_run_drops_its_own_databases_and_the_template_it_built_unless_kept(pg_dsn, monkeypatch):
    monkeypatch.setattr(run, "ID", secrets.token_hex(4))  # not the real run's: its own stay
    mine = run.database_name("probe")
    # Found by its comment; not under TEMPLATE_PREFIX, whose stale names a build drops.
    template = f"pokerroom_probe_{secrets.token_hex(4)}_template"
    theirs = f"pokerroom_probe_{secrets.token_hex(4)}_x"
    names = [mine, template, theirs]
    with psycopg.connect(pg_dsn, autocommit=True) as admin:
        for name in names:
            admin.execute(f'CREATE DATABASE "{name}"')
        migrated.mark_built(admin, template)
    try:
        assert migrated.drop_run(pg_dsn, keep_template=True) == [mine]
        assert migrated.drop_run(pg_dsn, keep_template=False) == [template]
        with psycopg.connect(pg_dsn, autocommit=True) as admin:
            left = {r[0] for r in admin.execute("SELECT datname FROM pg_database").fetchall()}
        assert theirs in left and not {mine, template} & left
    finally:
        with psycopg.connect(pg_dsn, autocommit=True) as admin:
            for name in names:
                admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
