"""``config.redis_groups``: the publisher's group messages on the Redis
channel layer, read back by the layer's own ``receive`` as a consumer
reads them; and ``config.redis_wire``, the connection they go out on.
On Redis, under a key prefix of the test's own."""

from __future__ import annotations

import uuid

import pytest
import redis
from channels_redis.core import RedisChannelLayer

from config.redis_groups import GroupSender, Payloads, channel_keys
from config.redis_wire import Wire

pytestmark = [pytest.mark.redis]


@pytest.fixture
def layer(redis_url: str, redis_prefix: str) -> RedisChannelLayer:
    return RedisChannelLayer(hosts=[{"address": redis_url}], prefix=redis_prefix)


async def test_every_member_of_a_group_receives_each_message_in_order(layer):
    """Two channels of one process (one key) and one of another."""
    here = [await layer.new_channel() for _ in range(2)]
    there = "specific.elsewhere!" + uuid.uuid4().hex
    for channel in [*here, there]:
        await layer.group_add("table.1", channel)
    await layer.group_add("table.2", here[0])
    sender = GroupSender(layer)
    sender.send(
        [("table.1", {"type": "frame", "n": n}) for n in range(3)]
        + [("table.2", {"type": "frame", "n": 9}), ("table.3", {"type": "frame", "n": 0})]
    )
    assert [(await layer.receive(here[0]))["n"] for _ in range(4)] == [0, 1, 2, 9]
    assert [(await layer.receive(here[1]))["n"] for _ in range(3)] == [0, 1, 2]
    client = redis.Redis.from_url(layer.hosts[0]["address"])
    assert client.zcard(layer.prefix + layer.non_local_name(there)) == 3  # for its process


def test_a_message_is_serialized_once_as_the_layer_serializes_it_for_each_key(layer):
    message = {"type": "frame", "frame": {"rows": [[1, "x", None]], "clock": 1.5}}
    channels = ["specific.a!1", "specific.a!2", "specific.b!1", "plain"]
    keys = channel_keys(layer, channels)
    assert {key: chs for key, (_, chs) in keys.items()} == {
        layer.prefix + "specific.a!": ["specific.a!1", "specific.a!2"],
        layer.prefix + "specific.b!": ["specific.b!1"],
        layer.prefix + "plain": ["plain"],
    }
    made = Payloads(layer).of(message, {key: chs for key, (_, chs) in keys.items()})
    for key, (_, chs) in keys.items():
        theirs = layer.serialize({**message, "__asgi_channel__": chs})
        assert made[key][12:] == theirs[12:]  # all but the random prefix
        assert layer.deserialize(made[key]) == {**message, "__asgi_channel__": chs}
    assert len({payload[:12] for payload in made.values()}) == len(made)


def test_an_encrypted_layer_serializes_each_key_itself(redis_url):
    layer = RedisChannelLayer(hosts=[{"address": redis_url}], symmetric_encryption_keys=["k"])
    made = Payloads(layer).of({"type": "frame"}, {"asgi.plain": ["plain"]})
    assert layer.deserialize(made["asgi.plain"]) == {"type": "frame", "__asgi_channel__": ["plain"]}


def test_a_wire_sends_again_on_a_new_connection_after_redis_dropped_it(redis_url):
    wire = Wire(redis_url)
    name = f"test-wire-{uuid.uuid4().hex[:10]}"
    assert wire.call([("CLIENT", "SETNAME", name)]) == [b"OK"]
    admin = redis.Redis.from_url(redis_url)
    try:
        killed = [c for c in admin.client_list() if c.get("name") == name]
        assert len(killed) == 1
        admin.client_kill_filter(_id=killed[0]["id"])
        assert wire.call([("INCR", name), ("INCR", name)]) == [1, 2]  # sent once, on a new one
    finally:
        admin.delete(name)
        admin.close()


def test_a_refused_command_is_its_reply_and_the_others_still_run(redis_url):
    wire = Wire(redis_url)
    name = f"test-wire-{uuid.uuid4().hex[:10]}"
    try:
        replies = wire.call([("SET", name, "x"), ("INCR", name), ("GET", name)])
        assert replies[0] == b"OK" and replies[2] == b"x"
        assert isinstance(replies[1], redis.ResponseError)
    finally:
        redis.Redis.from_url(redis_url).delete(name)
