"""A moment without PostgreSQL or Redis (issue 17): a player's socket stays
open, a command that met the outage is answered ``unavailable`` and, sent
again with its command id, runs once; the socket reads the channel layer
again once Redis is back and catches up on what was published meanwhile;
the REST API answers 503 ``unavailable``, never a 500.

Real servers: Redis is one of the test's own (``bench.chaos``'s), stopped
and started again empty (it forgot every group); PostgreSQL is made
unreachable by pointing the connection settings at a port nothing listens
on (each consumer call and each request opens its connection anew:
``CONN_MAX_AGE`` is 0 here), then back."""

from __future__ import annotations

import asyncio
import os
import random
import shutil
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from django.db import connections

from bench.chaos import instances
from bench.websockets import free_port
from kernel import dbthreads
from kernel import layer as frames_out
from kernel.models import Command
from tests.poker.api_support import random_action
from tests.poker.ws_support import (
    Client,
    act_frame,
    actor,
    make_users,
    open_table,
    play,
    position_of_table,
    seat_all,
    table_client,
    table_path,
)

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.postgres]


@contextmanager
def database_unreachable() -> Iterator[None]:
    """Every new connection to the database refused until the block ends
    (one a thread holds open goes on: ``close`` it there)."""
    db = connections["default"]
    if db.vendor != "postgresql":  # every thread's "default" must be (DATABASE_URL)
        problem = "DATABASE_URL is not PostgreSQL: the outage tests need it"
        if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
            pytest.fail(problem)  # .ci/run sets it
        pytest.skip(problem)
    port = db.settings_dict["PORT"]
    db.settings_dict["PORT"] = str(free_port())  # the same dict for every thread's connection
    try:
        yield
    finally:
        db.settings_dict["PORT"] = port


def close() -> None:
    connections["default"].close()


async def close_in_consumers() -> None:
    """Close the connection each of the consumers' database threads holds."""
    await asyncio.to_thread(dbthreads.close_connections)


@pytest.fixture
def layer_on_own_redis(settings: Any, own_redis: instances.Redis) -> Iterator[Any]:
    settings.CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
            "CONFIG": {"hosts": [{"address": own_redis.url, "socket_timeout": None}]},
        }
    }
    yield get_channel_layer()
    assert frames_out.flush()


async def _players_table() -> tuple[int, list[Any]]:
    table = await open_table()
    users = await make_users("ann", "bob", "cy")
    await seat_all(table, users)
    return table, users


@pytest.mark.redis
async def test_a_socket_outlives_a_redis_restart_and_catches_up_on_what_it_missed(
    layer_on_own_redis, own_redis
):
    rng = random.Random(17)
    table, users = await _players_table()
    sockets = [await table_client(table), await table_client(table, users[0])]
    start = await position_of_table(table)
    await play(table, users, rng, 5)
    own_redis.stop()
    await play(table, users, rng, 10)  # published while Redis is away: lost
    shutil.rmtree(own_redis.dir)  # it comes back empty: the groups forgotten too
    own_redis.start()
    for socket in sockets:
        assert (await socket.ping())["type"] == "pong"  # open all along
    await play(table, users, rng, 5)  # live again: the sockets joined their groups again
    end = await position_of_table(table)
    for socket in sockets:
        await socket.until_position(end, timeout=20)
        assert socket.closed is None
        assert socket.public_positions() == list(range(start + 1, end + 1)), socket.path
        await socket.close()


@pytest.mark.redis
async def test_a_lobby_socket_gets_the_list_again_once_its_server_hears_redis_again(
    layer_on_own_redis, own_redis
):
    """Pub/sub keeps nothing for a server not listening: a table opened
    while Redis was away is in the lobby's list sent again once the server
    hears the layer again (``kernel.layer_watch``), with no later change."""
    lobby = Client("/ws/lobby/")
    accepted, _ = await lobby.open()
    assert accepted and (await lobby.next())["type"] == "snapshot"
    own_redis.stop()
    table = await open_table()  # its lobby line, published while Redis is away: lost
    shutil.rmtree(own_redis.dir)
    own_redis.start()

    def lists_it(frame: dict[str, Any]) -> bool:
        return frame["type"] == "snapshot" and table in [t["id"] for t in frame["tables"]]

    await lobby.until(lists_it, timeout=20)
    await lobby.close()


@pytest.mark.redis
async def test_a_command_that_meets_the_database_away_is_unavailable_then_runs_once():
    table, users = await _players_table()
    user, view = await actor(table, users)
    socket = await table_client(table, user)
    await socket.ping()  # connected: its catch-up done
    frame = act_frame(view["hand"], **random_action(random.Random(1), view["hand"]))
    with database_unreachable():
        await close_in_consumers()
        refused = await socket.request(frame)
        assert refused["type"] == "error" and refused["code"] == "unavailable", refused
        assert refused.get("command_id") == frame["command_id"], refused
        assert refused["retryable"] is True
        assert (await socket.ping())["type"] == "pong"  # the socket stays open
    answer = await socket.request(frame)  # the same command, again
    assert answer["type"] == "answer" and answer["command_id"] == frame["command_id"], answer
    retried = await socket.request(frame)
    assert retried["answer"] == answer["answer"]  # the first answer, not a second run
    ran = Command.objects.filter(id=uuid.UUID(frame["command_id"])).count
    assert await database_sync_to_async(ran)() == 1
    assert socket.closed is None
    await socket.close()


@pytest.mark.redis
async def test_a_socket_opened_while_the_database_is_away_is_closed_1013_saying_why():
    table = await open_table()
    with database_unreachable():
        await close_in_consumers()
        code, _, frame = await Client(table_path(table)).refusal()
    assert code == 1013 and frame["code"] == "unavailable", (code, frame)  # 1013: try again later
    socket = await table_client(table)  # and back
    assert (await socket.ping())["type"] == "pong"
    await socket.close()


def test_the_api_answers_503_unavailable_while_the_database_is_away(make_user, client_for):
    user = make_user("ann")
    client = client_for(user)
    with database_unreachable():
        close()  # the test client keeps it open between requests
        listed = client.get("/api/tables/")
    assert listed.status_code == 503, listed.content
    assert listed["Content-Type"].startswith("application/json")
    assert listed.json()["code"] == "unavailable" and listed["Retry-After"] == "1"
    assert client.get("/api/tables/").status_code == 200  # back
