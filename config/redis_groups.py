"""``group_send`` of the Redis channel layer, for many messages at once.

``channels_redis`` (4.3, pinned) sends a group message in four round trips
of its asyncio client: drop the group's expired members, read the members,
drop each member channel's expired messages, then a Lua script that adds
the message to each channel under its capacity.  The publisher
(``config.layer``) sends every message of a turn of its queue here
instead, in two pipelined round trips for all of them, from its own
thread with redis-py's synchronous client: the same keys, the same
commands in the same order, the same script, and every message serialized
and addressed by the layer itself (``_group_key``,
``_map_channel_keys_to_connection``), so a consumer's ``receive`` reads
them as it reads its own layer's.

One difference, on purpose: each message is scored (the time it was sent,
which orders a channel's messages) strictly after the one before it, so
two messages sent within the clock's resolution never swap places.

Only layers whose hosts are given by address (as ``config.settings``
gives them) are sent here; ``usable`` says which.
"""

from __future__ import annotations

import logging
import time
from typing import Any

import redis

log = logging.getLogger(__name__)

GROUP_SEND_LUA = """
    local over_capacity = 0
    local current_time = ARGV[#ARGV - 1]
    local expiry = ARGV[#ARGV]
    for i=1,#KEYS do
        if redis.call('ZCOUNT', KEYS[i], '-inf', '+inf') < tonumber(ARGV[i + #KEYS]) then
            redis.call('ZADD', KEYS[i], current_time, ARGV[i])
            redis.call('EXPIRE', KEYS[i], expiry)
        else
            over_capacity = over_capacity + 1
        end
    end
    return over_capacity
"""
"""``RedisChannelLayer.group_send``'s script, as channels_redis 4.3 has it."""

Messages = list[tuple[str, dict[str, Any]]]


def usable(layer: Any) -> bool:
    """Whether ``layer`` is a Redis channel layer whose every host is an
    address (not a sentinel or a bare set of pool arguments)."""
    from channels_redis.core import RedisChannelLayer

    hosts = getattr(layer, "hosts", None)
    return (
        isinstance(layer, RedisChannelLayer)
        and bool(hosts)
        and all(isinstance(h, dict) and "address" in h for h in hosts)
    )


class GroupSender:
    """Group messages for one layer, sent as its ``group_send`` would."""

    def __init__(self, layer: Any) -> None:
        self.layer = layer
        self.clients = []
        for host in layer.hosts:
            options = {k: v for k, v in host.items() if k != "address"}
            pool = redis.ConnectionPool.from_url(host["address"], **options)
            self.clients.append(redis.Redis(connection_pool=pool))
        self.last = 0.0

    def send(self, messages: Messages) -> None:
        """``group_send(group, message)`` for each pair, in order."""
        layer = self.layer
        members = self._members([group for group, _ in messages])
        pipes: dict[int, Any] = {}
        sent: list[tuple[int, int, str, int]] = []
        """(connection, its expiry drops before the script, group, members)."""
        for (group, message), channels in zip(messages, members, strict=True):
            if not channels:
                continue
            by_connection, payloads, capacities = layer._map_channel_keys_to_connection(
                channels, message
            )
            now = self._score()
            for index, keys in by_connection.items():
                pipe = pipes.get(index)
                if pipe is None:
                    pipe = pipes[index] = self.clients[index].pipeline(transaction=False)
                for key in keys:
                    pipe.zremrangebyscore(key, min=0, max=int(now) - int(layer.expiry))
                args = [payloads[k] for k in keys] + [capacities[k] for k in keys]
                pipe.eval(GROUP_SEND_LUA, len(keys), *keys, *args, now, layer.expiry)
                sent.append((index, len(keys), group, len(channels)))
        results = {index: iter(pipe.execute()) for index, pipe in pipes.items()}
        for index, drops, group, total in sent:
            for _ in range(drops):
                next(results[index])
            over = next(results[index])
            if over:
                log.info("%s of %s channels over capacity in group %s", over, total, group)

    def _members(self, groups: list[str]) -> list[list[str]]:
        """Each group's member channels, after dropping the expired ones."""
        layer = self.layer
        pipes: dict[int, Any] = {}
        where = []
        expired = int(time.time()) - layer.group_expiry
        for group in groups:
            index = layer.consistent_hash(group)
            pipe = pipes.get(index)
            if pipe is None:
                pipe = pipes[index] = self.clients[index].pipeline(transaction=False)
            key = layer._group_key(group)
            pipe.zremrangebyscore(key, min=0, max=expired)
            pipe.zrange(key, 0, -1)
            where.append(index)
        results = {index: iter(pipe.execute()) for index, pipe in pipes.items()}
        out = []
        for index in where:
            next(results[index])  # the expired members dropped
            out.append([name.decode("utf8") for name in next(results[index])])
        return out

    def _score(self) -> float:
        """Now, strictly after the score of the message before."""
        self.last = max(time.time(), self.last + 1e-6)
        return self.last
