"""How the channel layer's messages are encoded: msgpack, as channels_redis
encodes them by default, but each message decoded once per process.

The pub/sub layer hands the bytes of a group message, one object, to the
queue of each of the process's sockets in the group, and each socket's
``receive`` decodes them again: a table's message was unpacked once per
socket of the table on that server.  ``SharedMsgPack`` keeps the last
``KEPT`` messages it decoded, by their bytes, and gives every socket the
same decoded message (the consumers only read what they receive; the
frames they send are encoded once per message too: ``kernel.feed.frames_for``).

Registered under ``FORMAT`` in channels_redis's serializer registry (its
documented way to add a format) when the ``config`` app is ready, before
any layer is made; ``settings.CHANNEL_LAYERS`` names it.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Any

from channels_redis.serializers import MsgPackSerializer, registry

FORMAT = "msgpack-shared"
KEPT = 256
"""Decoded messages kept: a process's sockets of a group receive a message
within moments of each other."""


class SharedMsgPack(MsgPackSerializer):  # type: ignore[misc]
    """msgpack, each message decoded once per process (see the module)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.recent: OrderedDict[bytes, Any] = OrderedDict()

    def deserialize(self, message: bytes) -> Any:
        found = self.recent.get(message)
        if found is None:
            found = self.recent[message] = super().deserialize(message)
            while len(self.recent) > KEPT:
                self.recent.popitem(last=False)
        return found


def register() -> None:
    registry.register_serializer(FORMAT, SharedMsgPack)
