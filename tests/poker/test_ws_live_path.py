"""The live path of a socket does not wait for the database's thread: the
ORM runs in one thread of the process (``database_sync_to_async``), where
commands queue; a frame to send or a ping to answer needs none of it, so a
busy thread must not hold the frames of every socket of the process."""

from __future__ import annotations

import asyncio
import threading

import pytest
from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer

from kernel.lobby import LOBBY_GROUP
from tests.poker.ws_support import Client, open_table, table_client

pytestmark = pytest.mark.django_db(transaction=True)


async def test_frames_and_pongs_go_out_while_the_database_thread_is_busy():
    table = await open_table()
    spectator = await table_client(table)
    lobby = Client("/ws/lobby/")
    assert (await lobby.open())[0]
    await lobby.next()  # its snapshot
    busy, release = threading.Event(), threading.Event()

    def hold() -> None:  # a long command, in the ORM's thread
        busy.set()
        release.wait(30)

    holding = asyncio.ensure_future(sync_to_async(hold)())
    try:
        assert await asyncio.to_thread(busy.wait, 10)
        assert await spectator.request({"type": "ping"}, timeout=5) == {
            "type": "pong",
            "position": spectator.frames[0]["position"],
        }
        line = {"type": "table", "id": table, "name": "Main"}
        await get_channel_layer().group_send(LOBBY_GROUP, {"type": "frame", "frame": line})
        assert await lobby.next(timeout=5) == line
        assert not holding.done()  # all of it while the thread was held
    finally:
        release.set()
        await holding
    await spectator.close()
    await lobby.close()
