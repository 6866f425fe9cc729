"""The casino table's stream and the lobby's casino lines, in process
(``channels.testing``; the real servers' test is
tests/integration/test_casino_live.py)."""

from __future__ import annotations

import uuid
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.contrib.auth import get_user_model

from accounts import locks, money
from config.asgi import application
from kernel.consumers import ACCOUNT_LOCKED
from poker.casino import services
from tests.funds import fund
from tests.poker.ws_support import ticket_for

pytestmark = pytest.mark.django_db(transaction=True)

WAIT = 5


def connect(path: str) -> WebsocketCommunicator:
    return WebsocketCommunicator(
        application, path, headers=[(b"origin", b"http://localhost"), (b"host", b"localhost")]
    )


@database_sync_to_async
def a_table() -> tuple[int, Any, Any]:
    users = get_user_model()
    boss = users.objects.create_user("boss", is_staff=True)
    money.bankroll_fund(transfer_id=uuid.uuid4(), amount=1_000_000)
    table = services.casino_table_open(by=boss, name="Live")
    ann, bob = (fund(users.objects.create_user(n), 10_000) for n in ("ann", "bob"))
    return table.pk, ann, bob


async def test_the_lobby_lists_casino_tables_and_follows_boxes_taken_and_left():
    lobby = connect("/ws/lobby/")
    assert (await lobby.connect())[0]
    assert (await lobby.receive_json_from(timeout=WAIT))["casino_tables"] == []
    table, ann, bob = await a_table()
    opened = await lobby.receive_json_from(timeout=WAIT)
    assert opened["type"] == "casino_lobby" and opened["table"]["id"] == table
    assert opened["table"]["players_seated"] == 0 and opened["table"]["status"] == "open"
    await database_sync_to_async(services.casino_sit)(by=ann, table_id=table, box=2)
    line = await lobby.receive_json_from(timeout=WAIT)
    assert (line["table"]["id"], line["table"]["players_seated"]) == (table, 1)
    assert line["table"]["boxes_taken"] == [2]
    await database_sync_to_async(services.casino_sit)(by=bob, table_id=table, box=4)
    line = await lobby.receive_json_from(timeout=WAIT)
    assert (line["table"]["players_seated"], line["table"]["boxes_taken"]) == (2, [2, 4])
    await database_sync_to_async(services.casino_bet)(by=ann, table_id=table, amount=10)
    assert await lobby.receive_nothing(timeout=0.3)  # a bet (no deal yet) changes no line
    await database_sync_to_async(services.casino_leave)(by=ann, table_id=table)
    line = await lobby.receive_json_from(timeout=WAIT)
    assert (line["table"]["players_seated"], line["table"]["boxes_taken"]) == (1, [4])
    await lobby.disconnect()

    again = connect("/ws/lobby/")
    assert (await again.connect())[0]
    [listed] = (await again.receive_json_from(timeout=WAIT))["casino_tables"]
    assert listed["boxes_taken"] == [4] and listed["game"] == "casino-draw"
    assert (listed["id"], listed["min_bet"], listed["max_bet"], listed["jokers"]) == (
        table,
        10,
        100,
        2,
    )
    await again.disconnect()


async def test_a_socket_of_no_table_is_refused_and_a_ping_says_the_position():
    table, ann, _ = await a_table()
    missing = connect(f"/ws/casino/tables/{table + 100}/")
    assert (await missing.connect())[0]
    frame = await missing.receive_json_from(timeout=WAIT)
    assert (frame["type"], frame["code"]) == ("error", "not_found")
    await missing.disconnect()

    socket = connect(f"/ws/casino/tables/{table}/")
    assert (await socket.connect())[0]
    snapshot = await socket.receive_json_from(timeout=WAIT)
    assert snapshot["type"] == "snapshot" and snapshot["position"] == 1
    assert snapshot["view"]["table"]["id"] == table
    await database_sync_to_async(services.casino_sit)(by=ann, table_id=table, box=1)
    sat = await socket.receive_json_from(timeout=WAIT)
    assert (sat["position"], sat["event"]["type"], sat["event"]["box"]) == (
        2,
        "casino_table.player_sat",
        1,
    )
    await socket.send_json_to({"type": "ping"})
    assert await socket.receive_json_from(timeout=WAIT) == {"type": "pong", "position": 2}
    await socket.send_json_to({"type": "act"})
    assert (await socket.receive_json_from(timeout=WAIT))["code"] == "read_only"
    await socket.disconnect()


async def test_a_player_is_told_what_his_bet_holds_and_nobody_else_is():
    table, ann, bob = await a_table()
    await database_sync_to_async(services.casino_sit)(by=ann, table_id=table, box=1)
    await database_sync_to_async(services.casino_sit)(by=bob, table_id=table, box=2)
    await database_sync_to_async(services.casino_bet)(by=ann, table_id=table, amount=10)
    # ann's own socket, resuming from before her bet; bob's too
    frames = {}
    for who in (ann, bob):
        socket = connect(f"/ws/casino/tables/{table}/?after=3&ticket={await ticket_for(who)}")
        assert (await socket.connect())[0]
        public = await socket.receive_json_from(timeout=WAIT)
        assert public["type"] == "event" and public["position"] == 4
        assert public["event"]["type"] == "casino_table.bet_placed"
        assert public["event"]["held"] is None and public["private_for"] == [ann.pk]
        frames[who.pk] = [public]
        if who is ann:
            frames[who.pk].append(await socket.receive_json_from(timeout=WAIT))
        assert await socket.receive_nothing(timeout=0.2)
        await socket.disconnect()
    private = frames[ann.pk][1]
    assert (private["type"], private["position"], private["event"]["held"]) == (
        "private",
        4,
        90,
    )
    assert len(frames[bob.pk]) == 1


async def test_a_lock_ends_the_players_casino_socket_and_no_one_elses():
    table, ann, _ = await a_table()
    own = connect(f"/ws/casino/tables/{table}/?ticket={await ticket_for(ann)}")
    other = connect(f"/ws/casino/tables/{table}/")
    for socket in (own, other):
        assert (await socket.connect())[0]
        assert (await socket.receive_json_from(timeout=WAIT))["type"] == "snapshot"
    await database_sync_to_async(locks.account_lock)(user=ann, reason="bot")
    frame = await own.receive_json_from(timeout=WAIT)
    assert (frame["type"], frame["code"]) == ("error", "account_locked")
    closing = await own.receive_output(WAIT)
    assert (closing["type"], closing["code"]) == ("websocket.close", ACCOUNT_LOCKED.close_code)
    await other.send_json_to({"type": "ping"})
    assert (await other.receive_json_from(timeout=WAIT))["type"] == "pong"
    await other.disconnect()


async def test_live_frames_reach_each_viewer_cut_for_him_alone():
    """The feed's live path: one message per command, from which each
    socket takes the public frame and only its own viewer's private one."""
    table, ann, bob = await a_table()
    await database_sync_to_async(services.casino_sit)(by=ann, table_id=table, box=1)
    await database_sync_to_async(services.casino_sit)(by=bob, table_id=table, box=2)
    sockets = {}
    for who in (ann, bob, None):
        ticket = "" if who is None else f"&ticket={await ticket_for(who)}"
        socket = connect(f"/ws/casino/tables/{table}/?after=3{ticket}")
        assert (await socket.connect())[0]
        assert await socket.receive_nothing(timeout=0.2)  # nothing after position 3
        sockets[None if who is None else who.pk] = socket
    await database_sync_to_async(services.casino_bet)(by=ann, table_id=table, amount=10)
    got = {}
    for viewer, socket in sockets.items():
        got[viewer] = [await socket.receive_json_from(timeout=WAIT)]
        if viewer == ann.pk:
            got[viewer].append(await socket.receive_json_from(timeout=WAIT))
        assert await socket.receive_nothing(timeout=0.2)
        await socket.disconnect()
    public = got[None][0]
    assert (public["type"], public["position"], public["private_for"]) == ("event", 4, [ann.pk])
    assert public["event"]["held"] is None
    assert got[bob.pk] == [public]
    assert got[ann.pk][0] == public
    assert (got[ann.pk][1]["type"], got[ann.pk][1]["event"]["held"]) == ("private", 90)
