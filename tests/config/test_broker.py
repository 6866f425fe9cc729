"""The broker transport (``config.broker``) on Redis: what a worker does
on a connection Celery collected when it lost Redis.  The chaos run's
Redis restart made a worker exit: a task of the lost connection that
ended after the reconnection acknowledged on it."""

from __future__ import annotations

import uuid

import pytest
import redis
from kombu import Connection

from config.broker import Transport

pytestmark = [pytest.mark.redis]


def test_an_ack_on_a_collected_connection_leaves_the_message_to_the_broker(redis_url):
    queue = f"broker-{uuid.uuid4().hex[:10]}"
    client = redis.Redis.from_url(redis_url)
    conn = Connection(redis_url, transport=Transport)
    try:
        simple = conn.SimpleQueue(queue)
        simple.put({"n": 1})
        message = simple.get(timeout=5)  # delivered, unacknowledged: in the "unacked" hash
        tag = message.delivery_tag
        channel = message.channel  # as Celery leaves a channel of a lost connection:
        channel._disconnect_pools()  # its pools closed,
        channel.connection.close_channel(channel)  # its connection gone, nothing given back
        message.ack()  # raised AttributeError: the worker exited
        assert client.hexists("unacked", tag)  # handed out again after the visibility timeout
    finally:
        client.hdel("unacked", tag)
        client.zrem("unacked_index", tag)
        client.delete(queue)
        simple.consumer.channel.closed = True  # closed already, as far as closing goes
        conn.release()
