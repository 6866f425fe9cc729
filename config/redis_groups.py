"""``group_send`` of the Redis channel layer, for many messages at once.

``channels_redis`` (4.3, pinned) sends a group message in four round trips
of its asyncio client: drop the group's expired members, read the members,
drop each member channel's expired messages, then a Lua script that adds
the message to each channel under its capacity.  The publisher
(``config.layer``) sends every message of a turn of its queue here
instead, from its own thread, on one connection per Redis host that it
keeps (``config.redis_wire``): one round trip reads the members of every
group of the turn, and a second (only if some group has members) drops
each channel's expired messages and runs the layer's script for each
message.  The same keys, commands and script, and every message addressed
as the layer addresses it (a channel of a process by its process's key,
``__asgi_channel__`` naming its channels there), so a consumer's
``receive`` reads them as it reads its own layer's.

Three differences, on purpose:

- each message is scored (the time it was sent, which orders a channel's
  messages) strictly after the one before it, so two messages sent within
  the clock's resolution never swap places;
- a group or a channel that several messages of a turn go to has its
  expired members or messages dropped once for the turn;
- with the layer's own msgpack format (unencrypted) a message is
  serialized once, not once per key: the key's copy is its bytes with the
  ``__asgi_channel__`` entry added (and the layer's random prefix, which
  keeps equal messages apart in a channel's sorted set).

Only layers whose hosts are given by address (as ``config.settings``
gives them) are sent here; ``usable`` says which.
"""

from __future__ import annotations

import logging
import random
import time
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

import msgpack

from config.redis_wire import Command, Wire

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
        self.wires = [
            Wire(host["address"], **{k: v for k, v in host.items() if k != "address"})
            for host in layer.hosts
        ]
        self.payloads = Payloads(layer)
        self.last = 0.0

    def send(self, messages: Messages) -> None:
        """``group_send(group, message)`` for each pair, in order."""
        members = self._members({group for group, _ in messages})
        turn = Turn()
        for group, message in messages:
            if members[group]:
                self._add(turn, group, message, members[group])
        replies = {index: self.wires[index].call(out) for index, out in turn.commands.items()}
        for index, place, group, total in turn.scripts:
            over = replies[index][place]
            if isinstance(over, Exception):
                log.error("a message to group %s not sent: %s", group, over)
            elif over:  # a server that far behind loses the message: say so
                log.warning("%s of %s channels over capacity in group %s", over, total, group)

    def _add(self, turn: Turn, group: str, message: dict[str, Any], channels: list[str]) -> None:
        """The commands that add ``message`` to each of ``channels``: per
        host, its keys' expired messages dropped (once a turn), then the
        layer's script."""
        layer = self.layer
        keys = channel_keys(layer, channels)
        payloads = self.payloads.of(message, {key: held for key, (_, held) in keys.items()})
        now = self._score()
        hosts: dict[int, list[str]] = defaultdict(list)
        for key, (index, _) in keys.items():
            hosts[index].append(key)
        for index, on_host in hosts.items():
            out = turn.commands[index]
            for key in on_host:
                if key not in turn.dropped:
                    turn.dropped.add(key)
                    out.append(("ZREMRANGEBYSCORE", key, 0, int(now) - int(layer.expiry)))
            args = [payloads[key] for key in on_host]
            args += [layer.get_capacity(keys[key][1][0]) for key in on_host]
            out.append(("EVAL", GROUP_SEND_LUA, len(on_host), *on_host, *args, now, layer.expiry))
            turn.scripts.append((index, len(out) - 1, group, len(channels)))

    def _members(self, groups: set[str]) -> dict[str, list[str]]:
        """Each group's member channels, after dropping the expired ones."""
        layer = self.layer
        expired = int(time.time()) - layer.group_expiry
        commands: dict[int, list[Command]] = defaultdict(list)
        where: dict[str, tuple[int, int]] = {}
        for group in groups:
            index = layer.consistent_hash(group)
            key = layer._group_key(group)
            out = commands[index]
            out += [("ZREMRANGEBYSCORE", key, 0, expired), ("ZRANGE", key, 0, -1)]
            where[group] = (index, len(out) - 1)
        replies = {index: self.wires[index].call(out) for index, out in commands.items()}
        return {
            group: [name.decode("utf8") for name in replies[index][place]]
            for group, (index, place) in where.items()
        }

    def _score(self) -> float:
        """Now, strictly after the score of the message before."""
        self.last = max(time.time(), self.last + 1e-6)
        return self.last


@dataclass
class Turn:
    """The second round trip of a turn: what goes to each host."""

    commands: dict[int, list[Command]] = field(default_factory=lambda: defaultdict(list))
    dropped: set[str] = field(default_factory=set)
    """Channel keys whose expired messages this turn drops already."""
    scripts: list[tuple[int, int, str, int]] = field(default_factory=list)
    """(host, the script's place in its commands, group, members)."""


def channel_keys(layer: Any, channels: list[str]) -> dict[str, tuple[int, list[str]]]:
    """The Redis key of each of ``channels``, with its host and the
    channels it holds, as the layer keys them (its
    ``_map_channel_keys_to_connection``): a process's channels
    (``name!local``) share the key of their process (``name!``)."""
    keys: dict[str, tuple[int, list[str]]] = {}
    for channel in channels:
        name = layer.non_local_name(channel)
        key = layer.prefix + name
        if key not in keys:
            keys[key] = (layer.consistent_hash(name), [])
        keys[key][1].append(channel)
    return keys


class Payloads:
    """A message's bytes for each key it goes to, as ``layer.serialize``
    makes them: the message, ``__asgi_channel__`` its channels there."""

    def __init__(self, layer: Any) -> None:
        from channels_redis.serializers import MsgPackSerializer

        self.layer = layer
        serializer = layer._serializer
        self.once = type(serializer) is MsgPackSerializer and serializer.crypter is None
        self.prefix = serializer.random_prefix_length
        self.packer = msgpack.Packer()

    def of(self, message: dict[str, Any], keys: dict[str, list[str]]) -> dict[str, bytes]:
        """Each key's bytes of ``message``, given the channels it holds."""
        if not self.once:
            return {
                key: self.layer.serialize({**message, "__asgi_channel__": channels})
                for key, channels in keys.items()
            }
        pack = self.packer.pack
        head = self.packer.pack_map_header(len(message) + 1)
        body = b"".join(pack(k) + pack(v) for k, v in message.items()) + pack("__asgi_channel__")
        return {key: self._prefix() + head + body + pack(held) for key, held in keys.items()}

    def _prefix(self) -> bytes:
        """The layer's random prefix: equal messages stay apart in a set."""
        return random.getrandbits(8 * self.prefix).to_bytes(self.prefix, "big")
