"""Frames on the Redis channel layer (channels_redis's pub/sub layer) go
out through the process's publisher (``kernel.layer``): a command hands
them over after its commit and goes on, creating no event loop; the
publisher's thread sends them in the order the commands committed, one
``PUBLISH`` per message, and each server process hands a message to all
its sockets of the group; real sockets get every position in order."""

from __future__ import annotations

import asyncio
import queue
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

from config.layer_format import FORMAT
from kernel import feed
from kernel import layer as frames_out
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

PUBSUB = "channels_redis.pubsub.RedisPubSubChannelLayer"


def pubsub_layer(settings: Any, url: str, prefix: str) -> Any:
    """The Redis pub/sub channel layer on ``url``, its channels under
    ``prefix``, in place of the tests' in-memory one."""
    config = {"hosts": [{"address": url}], "prefix": prefix, "serializer_format": FORMAT}
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": PUBSUB, "CONFIG": config}}
    return get_channel_layer()


@pytest.fixture
def redis_layer(settings: Any, redis_url: str, redis_prefix: str) -> Iterator[Any]:
    """The Redis channel layer, its channels of the test's own."""
    yield pubsub_layer(settings, redis_url, redis_prefix)
    assert frames_out.flush()


class Server:
    """A server process's sockets: an event loop of a thread of its own
    with one channel of the layer in each of ``groups`` (a group may come
    twice), each keeping what it receives.  Ready once each group has heard
    a message of its own sent after joining (a subscription is then in
    place: pub/sub keeps nothing for a listener not yet there)."""

    def __init__(self, layer: Any, groups: list[str]) -> None:
        self.layer = layer
        self.received: list[queue.SimpleQueue[dict[str, Any]]] = []
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        self.tasks: list[asyncio.Task[None]] = []
        asyncio.run_coroutine_threadsafe(self._join(groups), self.loop).result(10)

    async def _join(self, groups: list[str]) -> None:
        ready: list[asyncio.Queue[dict[str, Any]]] = []
        for group in groups:
            channel = await self.layer.new_channel()
            await self.layer.group_add(group, channel)
            kept: queue.SimpleQueue[dict[str, Any]] = queue.SimpleQueue()
            first: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
            self.received.append(kept)
            ready.append(first)
            self.tasks.append(asyncio.ensure_future(self._read(channel, first, kept)))
        for group in set(groups):
            await self.layer.group_send(group, {"type": "ready"})
        for first in ready:
            await asyncio.wait_for(first.get(), 5)

    async def _read(
        self,
        channel: str,
        first: asyncio.Queue[dict[str, Any]],
        kept: queue.SimpleQueue[dict[str, Any]],
    ) -> None:
        while True:
            message = await self.layer.receive(channel)
            if message["type"] == "ready":
                first.put_nowait(message)
            else:
                kept.put(message)

    def get(self, socket: int = 0, timeout: float = 5.0) -> dict[str, Any]:
        """The next message socket ``socket`` received."""
        return self.received[socket].get(timeout=timeout)

    def close(self) -> None:
        for task in self.tasks:
            self.loop.call_soon_threadsafe(task.cancel)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(10)
        self.loop.close()


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
    server = Server(redis_layer, [publish.table_group(table)])
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
        message = server.get()
        frame = message["frame"]
        assert message["type"] == "frame" and frame["type"] == feed.FEED
        positions += [cut["public"]["position"] for cut in frame["cuts"]]
    server.close()
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
    redis_layer, make_user, staff, settings, monkeypatch
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
    server = Server(redis_layer, [publish.table_group(table)])
    published: list[int] = []
    send_batch = frames_out.Publisher.send_batch

    def slow(self: frames_out.Publisher, items: Any) -> None:
        time.sleep(0.5)
        send_batch(self, items)
        published.append(len(items))

    monkeypatch.setattr(frames_out.Publisher, "send_batch", slow)
    time.sleep(1.1)  # the clock runs out
    acted = clock_drain.apply().get()

    assert acted == 1
    assert published  # published already
    frame = server.get()["frame"]
    last = frame["cuts"][-1]["public"]["position"]
    assert last == Table.objects.get(pk=table).position  # the fold's, and after
    server.close()


def test_one_publish_per_message_reaches_every_socket_of_a_server(settings, own_redis):
    """However many sockets of a server are in a group, a message is one
    ``PUBLISH`` (counted by Redis itself, a server of the test's own), and
    each of those sockets gets every message of its group, in order."""
    layer = pubsub_layer(settings, own_redis.url, "test-fanout.")
    tables = ([1, 1, 1, 2, 2], [1, 2, 2])
    servers = [Server(layer, [publish.table_group(t) for t in some]) for some in tables]
    stats = redis.Redis.from_url(own_redis.url)
    before = stats.info("commandstats").get("cmdstat_publish", {}).get("calls", 0)
    for n in range(60):
        frames_out.send_all([(publish.table_group(1 + n % 2), {"n": n})])
    assert frames_out.flush()

    assert stats.info("commandstats")["cmdstat_publish"]["calls"] - before == 60
    for server, some in zip(servers, tables, strict=True):
        for socket, table in enumerate(some):
            got = [server.get(socket)["frame"]["n"] for _ in range(30)]
            assert got == list(range(table - 1, 60, 2)), (socket, table)
        server.close()
    stats.close()


def test_a_message_is_decoded_once_for_all_the_sockets_of_a_server(redis_layer):
    """The sockets of one process in a group get one decoded message, the
    same object (``config.layer_format``), whichever event loop of the
    process they run in."""
    group = publish.table_group(7)
    servers = [Server(redis_layer, [group] * 3), Server(redis_layer, [group])]
    frames_out.send_all([(group, {"n": n, "rows": [[1, 2, 3]]}) for n in (1, 2)])
    assert frames_out.flush()
    first = [*(servers[0].get(socket) for socket in range(3)), servers[1].get()]
    assert all(message is first[0] for message in first)
    assert first[0]["frame"] == {"n": 1, "rows": [[1, 2, 3]]}
    assert servers[0].get(0)["frame"]["n"] == 2
    for server in servers:
        server.close()
