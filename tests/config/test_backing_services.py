"""The real servers the service runs on in production answer (see conftest)."""

import uuid

import pytest


@pytest.mark.postgres
def test_postgresql_answers_select_1(pg_dsn):
    import psycopg

    with psycopg.connect(pg_dsn, connect_timeout=5) as conn:
        assert conn.execute("select 1").fetchone() == (1,)


@pytest.mark.redis
def test_redis_answers_ping_set_get(redis_url):
    import redis

    client = redis.Redis.from_url(redis_url, socket_timeout=5)
    key = f"pokerroom:test:{uuid.uuid4().hex}"
    try:
        assert client.ping() is True
        assert client.set(key, "chips", ex=30) is True
        assert client.get(key) == b"chips"
    finally:
        client.delete(key)
        client.close()
