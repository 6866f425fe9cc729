"""``config.redis_receiver``: a process's sockets read the Redis channel
layer through one reader per event loop.  On Redis, under a key prefix of
the test's own; messages sent as the publisher sends them (``GroupSender``)
and as the layer's own ``group_send`` does."""

from __future__ import annotations

import asyncio

import pytest
import redis
import redis.exceptions
from asgiref.sync import async_to_sync

from bench.websockets import free_port
from config.redis_groups import GroupSender
from config.redis_receiver import ProcessChannelLayer

pytestmark = [pytest.mark.redis]


@pytest.fixture
def layer(redis_url: str, redis_prefix: str) -> ProcessChannelLayer:
    hosts = [{"address": redis_url, "socket_timeout": None}]  # as config.settings gives them
    return ProcessChannelLayer(hosts=hosts, prefix=redis_prefix, capacity=3)


async def test_each_socket_receives_its_groups_messages_in_the_order_sent(layer):
    a, b = await layer.new_channel(), await layer.new_channel()
    for channel in (a, b):
        await layer.group_add("table.1", channel)
    await layer.group_add("table.2", a)
    GroupSender(layer).send([("table.1", {"type": "frame", "n": n}) for n in range(2)])
    await layer.group_send("table.2", {"type": "frame", "n": 2})
    assert [(await layer.receive(a))["n"] for _ in range(3)] == [0, 1, 2]
    await layer.send(a, {"type": "frame", "n": 3})
    assert (await layer.receive(a))["n"] == 3
    assert [(await layer.receive(b))["n"] for _ in range(2)] == [0, 1]


async def test_a_message_to_many_sockets_of_the_process_is_read_from_redis_once(layer):
    sockets = [await layer.new_channel() for _ in range(3)]
    for channel in sockets:
        await layer.group_add("table.1", channel)
    GroupSender(layer).send([("table.1", {"type": "frame", "n": 1})])
    received = [await layer.receive(channel) for channel in sockets]
    assert all(message is received[0] for message in received)  # one decoded copy
    assert received[0] == {"type": "frame", "n": 1}
    client = redis.Redis.from_url(layer.hosts[0]["address"])
    key = layer.prefix + layer.non_local_name(sockets[0])
    assert client.zcard(key) == 0 and not client.exists(key + "$inflight")


async def test_a_socket_that_stops_reading_keeps_only_the_newest_capacity_messages(layer):
    slow, fast = await layer.new_channel(), await layer.new_channel()
    for channel in (slow, fast):
        await layer.group_add("table.1", channel)
    sender = GroupSender(layer)
    sender.send([("table.1", {"type": "frame", "n": n}) for n in range(3)])  # Redis holds 3
    assert [(await layer.receive(fast))["n"] for _ in range(3)] == [0, 1, 2]
    sender.send([("table.1", {"type": "frame", "n": n}) for n in range(3, 5)])
    assert [(await layer.receive(fast))["n"] for _ in range(2)] == [3, 4]
    assert [(await layer.receive(slow))["n"] for _ in range(3)] == [2, 3, 4]  # capacity 3


async def test_a_socket_that_stops_receiving_is_forgotten_and_the_reader_with_the_last(layer):
    a, b = await layer.new_channel(), await layer.new_channel()
    waiting = [asyncio.ensure_future(layer.receive(channel)) for channel in (a, b)]
    await asyncio.sleep(0.05)
    (task,) = layer.readers.values()
    waiting[0].cancel()
    await asyncio.sleep(0)
    assert list(layer.boxes) == [b] and not task.done()
    waiting[1].cancel()
    await asyncio.sleep(0.05)
    assert task.cancelled() and layer.readers == {}


def test_a_caller_receiving_through_a_new_loop_each_time_loses_nothing(layer):
    """``async_to_sync``: the first loop's reader took all three at once."""
    channel = async_to_sync(layer.new_channel)()
    async_to_sync(layer.group_add)("table.1", channel)
    GroupSender(layer).send([("table.1", {"type": "frame", "n": n}) for n in range(3)])
    assert [async_to_sync(layer.receive)(channel)["n"] for _ in range(3)] == [0, 1, 2]


async def test_redis_out_of_reach_fails_every_socket_s_receive_and_the_next_reads_again():
    layer = ProcessChannelLayer(hosts=[{"address": f"redis://127.0.0.1:{free_port()}"}])
    waiting, idle = await layer.new_channel(), await layer.new_channel()
    with pytest.raises(redis.exceptions.ConnectionError):
        await layer.receive(waiting)  # the one waiting hears at once
    with pytest.raises(redis.exceptions.ConnectionError):
        await layer.receive(idle)  # the other at its next receive
    with pytest.raises(redis.exceptions.ConnectionError):
        await layer.receive(waiting)  # a new reader, failing again
