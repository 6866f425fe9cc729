"""WebSocket streams, first checks (the full suite lives beside this)."""

from __future__ import annotations

import uuid
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.contrib.auth import get_user_model

from config.asgi import application
from poker import services
from tests.funds import fund
from tests.poker.ws_support import ticket_for

pytestmark = pytest.mark.django_db(transaction=True)


WAIT = 5
"""Seconds to wait for a frame that must come: generous, for a loaded machine."""


def connect(path: str) -> WebsocketCommunicator:
    return WebsocketCommunicator(
        application, path, headers=[(b"origin", b"http://localhost"), (b"host", b"localhost")]
    )


async def frames_until(socket: WebsocketCommunicator, last: Any) -> list[dict[str, Any]]:
    """Frames up to and including the first for which ``last`` holds."""
    frames = [await socket.receive_json_from(timeout=WAIT)]
    while not last(frames[-1]):
        frames.append(await socket.receive_json_from(timeout=WAIT))
    return frames


@database_sync_to_async
def setup_table() -> tuple[int, list]:
    users = get_user_model()
    boss = users.objects.create_user("boss", is_staff=True)
    table = services.table_create(
        by=boss, name="t", game="32-card-draw", betting="no-limit", small_blind=1, big_blind=2
    )
    players = [fund(users.objects.create_user(n)) for n in ("ann", "bob", "cy")]
    return table.pk, players


async def test_spectator_gets_snapshot_then_live_frames_without_hidden_cards():
    tid, players = await setup_table()
    spectator = connect(f"/ws/tables/{tid}/")
    assert (await spectator.connect())[0]
    snapshot = await spectator.receive_json_from(timeout=WAIT)
    assert snapshot["type"] == "snapshot"
    for seat, player in enumerate(players, start=1):
        await database_sync_to_async(services.seat_sit)(
            by=player, table_id=tid, seat=seat, buy_in=100
        )
    seen = await frames_until(spectator, lambda f: f["event"]["type"] == "hand.cards_dealt")
    positions = [f["position"] for f in seen]
    assert positions == sorted(positions) and positions[0] == snapshot["position"] + 1
    dealt = [f for f in seen if f["event"]["type"] == "hand.cards_dealt"]
    assert dealt and all(h["cards"] is None for f in dealt for h in f["event"]["hands"])
    await spectator.disconnect()


async def test_player_acts_over_the_socket_and_sees_his_own_cards():
    tid, players = await setup_table()
    for seat, player in enumerate(players[:2], start=1):
        await database_sync_to_async(services.seat_sit)(
            by=player, table_id=tid, seat=seat, buy_in=100
        )
    tickets = [await ticket_for(p) for p in players[:2]]
    sockets = [connect(f"/ws/tables/{tid}/?after=0&ticket={t}") for t in tickets]
    for s in sockets:
        assert (await s.connect())[0]
    frames = await frames_until(sockets[0], lambda f: f["type"] == "private")
    assert frames[-1]["event"]["hands"][0]["cards"] is not None  # his own cards
    view = await database_sync_to_async(services.seat_sit_out)(by=players[0], table_id=tid)
    hand = view["hand"]
    seated = {s["seat"]: s["player"] for s in view["seats"]}
    actor = players.index(next(p for p in players if p.pk == seated[hand["to_act"]]))
    await sockets[actor].send_json_to(
        {
            "type": "act",
            "hand": hand["id"],
            "version": hand["version"],
            "command_id": str(uuid.uuid4()),
            "action": "call",
        }
    )
    while True:
        reply = await sockets[actor].receive_json_from(timeout=WAIT)
        if reply["type"] in ("answer", "error"):
            break
    assert reply["type"] == "answer", reply
    await sockets[actor].send_to(text_data="not json")
    while True:
        bad = await sockets[actor].receive_json_from(timeout=WAIT)
        if bad["type"] == "error":
            break
    assert bad["code"] == "malformed"
    for s in sockets:
        await s.disconnect()


async def test_the_lobby_sends_its_list_then_each_change():
    lobby = connect("/ws/lobby/")
    assert (await lobby.connect())[0]
    assert (await lobby.receive_json_from(timeout=WAIT)) == {
        "type": "snapshot",
        "tables": [],
        "casino_tables": [],
    }
    tid, players = await setup_table()
    line = await lobby.receive_json_from(timeout=WAIT)
    assert line["type"] == "lobby" and line["table"]["id"] == tid
    await database_sync_to_async(services.seat_sit)(by=players[0], table_id=tid, seat=1, buy_in=100)
    line = await lobby.receive_json_from(timeout=WAIT)
    assert line["table"]["players_seated"] == 1
    await lobby.disconnect()
