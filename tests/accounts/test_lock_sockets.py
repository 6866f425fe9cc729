"""A socket keeps the user it opened with, so a lock closes every socket
the player has open (a table's and his own stream), with an error frame
saying why; other players' sockets stay open."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async

from accounts import locks
from kernel.consumers import ACCOUNT_LOCKED
from tests.poker.ws_support import make_users, me_client, open_table, table_client

pytestmark = pytest.mark.django_db(transaction=True)


async def closed_with(client):
    frame = await client.until(lambda f: f["type"] == "error")
    closing = await client.comm.receive_output(5)
    assert closing["type"] == "websocket.close", closing
    return frame, closing["code"]


async def test_a_lock_closes_the_players_sockets_and_no_one_elses():
    tid = await open_table()
    ann, bob = await make_users("ann", "bob")
    at_table, own = await table_client(tid, ann), await me_client(ann)
    others = await table_client(tid, bob)
    await database_sync_to_async(locks.account_lock)(user=ann, reason="bot")
    for client in (at_table, own):
        frame, code = await closed_with(client)
        assert (frame["code"], code) == ("account_locked", ACCOUNT_LOCKED.close_code)
    assert (await others.ping())["type"] == "pong"
    await others.close()


async def test_a_socket_closed_by_a_lock_sends_nothing_after_its_close():
    """What the consumer still had to say (an answer, a live frame; here a
    pong) is dropped: the server would refuse it with an error."""
    tid = await open_table()
    (ann,) = await make_users("ann")
    client = await table_client(tid, ann)
    await database_sync_to_async(locks.account_lock)(user=ann, reason="bot")
    await closed_with(client)
    await client.comm.send_json_to({"type": "ping"})
    assert await client.comm.receive_nothing(timeout=0.5)


async def test_an_unlock_closes_nothing():
    tid = await open_table()
    (ann,) = await make_users("ann")
    client = await table_client(tid, ann)
    await database_sync_to_async(locks.account_unlock)(user=ann, reason="cleared")
    assert (await client.ping())["type"] == "pong"
    await client.close()
