"""Frames out through the channel layer: the one primitive every app's
publishing uses (after its commit), below the apps that decide what to say."""

from __future__ import annotations

from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer


def send_all(messages: list[tuple[str, dict[str, Any]]]) -> None:
    """Send (group, frame) pairs through the channel layer, in order."""
    layer = get_channel_layer()
    if layer is None or not messages:
        return
    async_to_sync(_send_all)(layer, messages)


async def _send_all(layer: Any, messages: list[tuple[str, dict[str, Any]]]) -> None:
    """One hop to the event loop for a command's frames, sent in order."""
    for group, frame in messages:
        await layer.group_send(group, {"type": "frame", "frame": frame})
