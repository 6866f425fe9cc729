"""Frames on the Redis channel layer go out through the process's publisher
(``config.layer``): a command hands them over after its commit and goes
on, creating no event loop; the publisher's thread sends them in the order
the commands committed, and real sockets get every position in order."""

from __future__ import annotations

import asyncio
import random
import threading
import time
import uuid
from collections.abc import Iterator
from typing import Any

import pytest
import redis
from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.contrib.auth import get_user_model

from config import layer as frames_out
from config.redis_groups import GroupSender
from kernel.tasks import clock_drain
from poker import publish, selectors, services
from poker.models import Hand, Table
from tests.funds import fund
from tests.poker.api_support import random_action, seed_decks
from tests.poker.clock_support import timed_table
from tests.poker.ws_support import (
    keep_stacks,
    make_users,
    open_table,
    play,
    position_of_table,
    seat_all,
    table_client,
)

pytestmark = [pytest.mark.redis, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def redis_layer(settings: Any, redis_url: str, redis_prefix: str) -> Iterator[Any]:
    """The Redis channel layer, under a key prefix of the test's own
    (deleted after), in place of the tests' in-memory one."""
    config = {"hosts": [{"address": redis_url, "socket_timeout": None}], "prefix": redis_prefix}
    settings.CHANNEL_LAYERS = {
        "default": {"BACKEND": "config.redis_receiver.ProcessChannelLayer", "CONFIG": config}
    }
    yield get_channel_layer()
    assert frames_out.flush()


def _users(*names: str) -> list[Any]:
    model = get_user_model()
    return [fund(model.objects.create_user(n)) for n in names]


def _act(table: int, users: list[Any], rng: random.Random) -> None:
    """One random legal action of whoever is to act (topping stacks up
    first when no hand runs), through the service, in this thread."""
    for _ in range(3):
        public = selectors.table_view(Table.objects.get(pk=table), None)
        hand = public["hand"]
        if hand is not None and hand["to_act_seat"] is not None:
            break
        async_to_sync(keep_stacks)(table, users)
    else:
        raise AssertionError("no hand is running")
    pk = next(s["player"] for s in public["seats"] if s["seat"] == hand["to_act_seat"])
    user = next(u for u in users if u.pk == pk)
    mine = selectors.table_view(Table.objects.get(pk=table), user)["hand"]
    services.hand_act(
        by=user,
        table_id=table,
        hand=mine["id"],
        version=mine["version"],
        command_id=uuid.uuid4(),
        **random_action(rng, mine),
    )


def test_a_command_hands_its_frames_over_without_making_an_event_loop(redis_layer, monkeypatch):
    seed_decks(monkeypatch, 21)
    rng = random.Random(21)
    table = async_to_sync(open_table)()
    users = _users("ann", "bob", "cy")
    async_to_sync(seat_all)(table, users)
    listener = async_to_sync(redis_layer.new_channel)()
    async_to_sync(redis_layer.group_add)(publish.table_group(table), listener)
    start = Table.objects.get(pk=table).position

    made: list[str] = []
    new_loop = asyncio.new_event_loop

    def counting() -> asyncio.AbstractEventLoop:
        made.append(threading.current_thread().name)
        return new_loop()

    def refused(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("a command on Redis publishes without async_to_sync")

    monkeypatch.setattr(asyncio, "new_event_loop", counting)
    monkeypatch.setattr(frames_out, "async_to_sync", refused)
    here = threading.current_thread().name
    for _ in range(30):
        _act(table, users, rng)
    monkeypatch.undo()
    assert here not in made  # no loop (nor thread) made for the command's frames
    assert frames_out.flush()

    end = Table.objects.get(pk=table).position
    positions: list[int] = []
    while not positions or positions[-1] < end:
        message = async_to_sync(redis_layer.receive)(listener)
        frame = message["frame"]
        assert message["type"] == "frame" and frame["type"] == publish.ROWS
        positions += [row[2] for row in frame["rows"]]
    # Every command's rows, in the order the commands committed.
    assert positions == list(range(start + 1, end + 1))


async def test_sockets_on_redis_get_the_frames_of_successive_commands_in_order(
    redis_layer, monkeypatch
):
    seed_decks(monkeypatch, 22)
    rng = random.Random(22)
    table = await open_table()
    users = await make_users("ann", "bob", "cy")
    sockets = [await table_client(table), await table_client(table, users[0])]
    start = await position_of_table(table)
    await seat_all(table, users)
    await play(table, users, rng, 60)
    end = await position_of_table(table)
    for socket in sockets:
        await socket.until_position(end)
        assert socket.public_positions() == list(range(start + 1, end + 1)), socket.path
        await socket.close()


def test_flush_waits_for_what_was_handed_over_and_a_failed_send_is_dropped():
    sent: list[str] = []

    class Layer:
        async def group_send(self, group: str, message: dict[str, Any]) -> None:
            if group == "broken":
                raise ConnectionError("Redis went away")
            await asyncio.sleep(0.001)
            sent.append(group)

    layer = Layer()
    for k in range(50):
        frames_out.publisher.send(layer, [(f"g{k}", {}), ("broken", {}), ("never", {})])
    assert frames_out.flush()
    assert sent == [f"g{k}" for k in range(50)]  # in order; each failed hand-over dropped


def test_a_timer_tasks_frames_are_on_the_layer_before_it_returns(
    redis_layer, redis_url, make_user, staff, settings, monkeypatch
):
    """A worker acknowledges a drain once its task returns, and a prefork
    pool's child ends with ``os._exit`` (no flush at exit): frames still in
    the publisher's thread then were lost, and every socket of the table
    stayed behind until it moved again.  The publisher is slowed here so
    that the task returning first is certain, not a race."""
    settings.CLOCKS_ENABLED = True  # its clock is a row: no worker here drains it
    players = [make_user("ann"), make_user("bob")]
    table = timed_table(staff, players, action_seconds=1, bet_seconds=1)
    assert Hand.objects.get(table=table, number=1).ended_at is None
    listener = async_to_sync(redis_layer.new_channel)()
    async_to_sync(redis_layer.group_add)(publish.table_group(table), listener)
    send = GroupSender.send

    def slow(self: GroupSender, messages: Any) -> None:
        time.sleep(0.5)
        send(self, messages)

    monkeypatch.setattr(GroupSender, "send", slow)
    time.sleep(1.1)  # the clock runs out
    acted = clock_drain.apply().get()

    assert acted == 1
    key = redis_layer.prefix + redis_layer.non_local_name(listener)
    assert redis.Redis.from_url(redis_url).zcard(key) == 1  # there already
    frame = async_to_sync(redis_layer.receive)(listener)["frame"]
    assert frame["rows"][-1][2] == Table.objects.get(pk=table).position  # the fold's, and after


def test_a_server_behind_by_hundreds_of_frames_loses_none(redis_url, redis_prefix, settings):
    """A server's sockets share one key of the layer (``specific.<process>!``):
    at the layer's default capacity of 100, a server three seconds behind
    lost the frames sent meanwhile, and a table that then stood still kept
    its sockets behind for good (the chaos run).  Sent as a command sends
    them, read only afterwards, as a lagging server reads them."""
    config = {"hosts": [{"address": redis_url, "socket_timeout": None}], "prefix": redis_prefix}
    settings.CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.core.RedisChannelLayer",
            "CONFIG": {**config, "capacity": settings.CHANNEL_LAYER_CAPACITY},
        }
    }
    layer = get_channel_layer()
    sockets = [async_to_sync(layer.new_channel)() for _ in range(2)]  # one process's
    for table, socket in zip((1, 2), sockets, strict=True):
        async_to_sync(layer.group_add)(publish.table_group(table), socket)
    for n in range(300):
        frames_out.send_all([(publish.table_group(1 + n % 2), {"n": n})])
    assert frames_out.flush()

    async def read(socket: str) -> list[int]:
        got = [await asyncio.wait_for(layer.receive(socket), 5) for _ in range(150)]
        return [message["frame"]["n"] for message in got]

    assert async_to_sync(read)(sockets[0]) == list(range(0, 300, 2))
    assert async_to_sync(read)(sockets[1]) == list(range(1, 300, 2))
