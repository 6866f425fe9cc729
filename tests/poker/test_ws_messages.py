"""What a command puts on the channel layer: one message for its table,
whatever the number of viewers, its frames cut once by the command; each
socket takes its own from it, encoded once per process; the message
carries no deck or seed and packs for Redis (msgpack), and no client ever
receives it as such."""

from __future__ import annotations

import random
import threading
import uuid
from typing import Any

import msgpack
import pytest
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer

from accounts.frames import player_group
from kernel import feed
from poker import publish, services
from tests.poker.api_support import random_action, seed_decks
from tests.poker.ws_support import (
    Store,
    actor,
    keep_stacks,
    keys_in,
    leaks,
    make_users,
    me_client,
    open_table,
    position_of_table,
    seat_all,
    table_client,
)

pytestmark = pytest.mark.django_db(transaction=True)


def record_sends(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, dict[str, Any]]]:
    """Every (group, message) sent through the channel layer from now on."""
    layer = get_channel_layer()
    send = layer.group_send
    sent: list[tuple[str, dict[str, Any]]] = []

    async def recording(group: str, message: dict[str, Any]) -> None:
        sent.append((group, message))
        await send(group, message)

    monkeypatch.setattr(layer, "group_send", recording)
    return sent


async def act(table: int, user: Any, view: dict[str, Any], rng: random.Random) -> None:
    hand = view["hand"]
    await database_sync_to_async(services.hand_act)(
        by=user,
        table_id=table,
        hand=hand["id"],
        version=hand["version"],
        command_id=uuid.uuid4(),
        **random_action(rng, hand),
    )


async def test_an_action_inside_a_hand_sends_one_message_whatever_the_viewers(monkeypatch):
    seed_decks(monkeypatch, 12)
    rng = random.Random(12)
    tid = await open_table()
    users = await make_users("ann", "bob", "cy")
    sockets = [await table_client(tid, u) for u in users] + [await table_client(tid)]
    sockets += [await me_client(u) for u in users]
    await seat_all(tid, users)
    sent = record_sends(monkeypatch)
    single = draws = ends = 0
    while single + draws + ends < 120:
        turn = await actor(tid, users)
        if turn is None:
            await keep_stacks(tid, users)
            continue
        user, view = turn
        sent.clear()
        await act(tid, user, view, rng)
        # Always exactly one message for the table, first, whatever happened.
        assert [g for g, _ in sent].count(publish.table_group(tid)) == 1
        group, message = sent[0]
        assert group == publish.table_group(tid) and message["frame"]["type"] == feed.FEED
        cuts = message["frame"]["cuts"]
        if any(not cut["public"]["stream"].startswith("hand-") for cut in cuts):
            ends += 1  # the hand ended: seats, the lobby and a new deal may follow
            continue
        drawn = [cut for cut in cuts if cut["private"]]
        if not drawn:
            assert len(sent) == 1, sent  # a bet, a call, a fold, standing pat...
            single += 1
            continue
        # A draw: besides, one message to the drawer's own stream, his cards.
        assert [g for g, _ in sent[1:]] == [player_group(user.pk)], sent
        assert [f["type"] for f in sent[1][1]["frame"]["frames"]] == ["private"] * len(drawn)
        draws += 1
    assert single > 50 and draws > 5 and ends > 5
    end = await position_of_table(tid)
    for socket in sockets[: len(users) + 1]:
        await socket.until_position(end)
    store = await database_sync_to_async(Store)(tid)
    for socket in sockets:
        await socket.quiet()
        assert leaks(store, socket) == [], socket.path
        assert not any(f["type"] == feed.FEED for f in socket.frames)
        await socket.close()


async def test_the_command_cuts_and_each_process_encodes_a_message_once(monkeypatch):
    seed_decks(monkeypatch, 13)
    rng = random.Random(13)
    tid = await open_table()
    users = await make_users("ann", "bob")
    sockets = [await table_client(tid) for _ in range(6)] + [await table_client(tid, users[0])]
    cut_rows, shared = publish.cut_rows, feed._shared
    cuts_by_sockets: list[Any] = []
    encoded: list[int] = []

    def cutting(*args: Any) -> list[feed.Cut]:
        if threading.current_thread() is threading.main_thread():
            cuts_by_sockets.append(args)  # the command runs in a database thread
        return cut_rows(*args)

    def encoding(frame: feed.Frame) -> feed.Shared:
        encoded.append(frame["position"])
        return shared(frame)

    monkeypatch.setattr(publish, "cut_rows", cutting)
    monkeypatch.setattr(feed, "_shared", encoding)
    sent = record_sends(monkeypatch)
    await seat_all(tid, users)
    for _ in range(20):
        turn = await actor(tid, users)
        if turn is None:
            await keep_stacks(tid, users)
            continue
        await act(tid, *turn, rng)
    end = await position_of_table(tid)
    for socket in sockets:
        await socket.until_position(end)
        await socket.quiet(0.05)
    tables = [m["frame"] for g, m in sent if g == publish.table_group(tid)]
    assert len(tables) >= 20
    assert cuts_by_sockets == []
    # Each frame of each message encoded once, not once per socket.
    frames = [c["public"] for m in tables for c in m["cuts"]]
    frames += [f for m in tables for c in m["cuts"] for _, f in c["private"]]
    assert sorted(encoded) == sorted(f["position"] for f in frames)
    assert all(s.feed() == sockets[0].feed() for s in sockets[:6])
    for socket in sockets:
        await socket.close()


async def test_the_table_message_packs_for_redis_without_deck_or_seed(monkeypatch):
    tid = await open_table()
    users = await make_users("ann", "bob")
    sent = record_sends(monkeypatch)
    await seat_all(tid, users)  # the second one deals
    [deal] = [
        m["frame"]
        for g, m in sent
        if g == publish.table_group(tid) and any(c["private"] for c in m["frame"]["cuts"])
    ]
    # What the Redis layer does with it: msgpack (a 128-bit seed would not pack).
    packed = msgpack.unpackb(msgpack.packb(deal))
    assert packed["group"] == publish.table_group(tid)
    [dealt] = [c for c in packed["cuts"] if c["private"]]
    assert sorted(owner for owner, _ in dealt["private"]) == sorted(u.pk for u in users)
    assert dealt["public"]["private_for"] == [owner for owner, _ in dealt["private"]]
    assert not keys_in(packed) & {"deck", "seed"}


async def test_a_send_the_server_refuses_as_closed_ends_the_sockets_sends_quietly():
    """uvicorn raises ``RuntimeError`` for a frame sent after it closed the
    socket itself (a missed ping): the frame is dropped, nothing after it
    is sent, and the application does not fail; any other refusal still
    raises."""
    from kernel.consumers import JsonFrames

    sent: list[dict[str, Any]] = []

    async def server_send(message: dict[str, Any]) -> None:
        if message["type"] == "websocket.send" and not sent:
            sent.append(message)
            raise RuntimeError(
                "Unexpected ASGI message 'websocket.send', after sending 'websocket.close'."
            )
        sent.append(message)

    socket = JsonFrames()
    socket.base_send = server_send
    await socket.send_json({"type": "answer"})
    await socket.send_json({"type": "pong"})
    assert [m["type"] for m in sent] == ["websocket.send"] and socket.closed
    fresh = JsonFrames()

    async def refusing(message: dict[str, Any]) -> None:
        raise RuntimeError("Expected ASGI message 'websocket.accept'")

    fresh.base_send = refusing
    with pytest.raises(RuntimeError):
        await fresh.accept()
