"""Frames a client sends: anything but a JSON object of a known type, of at
most 16 KiB, gets an error frame with a code and changes nothing - the
connection stays open (a ping still gets its pong), the table and the event
store stay as they were, and nobody else receives anything."""

from __future__ import annotations

import json
from typing import Any

import pytest

from kernel.consumers import MAX_FRAME
from tests.poker.ws_support import (
    Client,
    act_frame,
    actor,
    make_users,
    me_client,
    open_table,
    position_of_table,
    seat_all,
    table_client,
    written,
)

pytestmark = pytest.mark.django_db(transaction=True)


async def a_hand() -> tuple[int, list[Any], Client, Client]:
    """A table with ann and bob in a hand; ann's table socket and a spectator's."""
    tid = await open_table()
    users = await make_users("ann", "bob")
    await seat_all(tid, users)
    ann, spectator = await table_client(tid, users[0]), await table_client(tid)
    for client in (ann, spectator):
        await client.quiet(0.05)
    return tid, users, ann, spectator


async def refused(
    tid: int, client: Client, spectator: Client, data: str | bytes, code: str, timeout: float = 5
) -> dict[str, Any]:
    """Send ``data``: an error frame with ``code`` comes back, the connection
    stays open, nothing is written and nobody else hears of it."""
    before, seen, position = await written(), len(spectator.frames), await position_of_table(tid)
    key = "bytes" if isinstance(data, bytes) else "text"
    await client.comm.send_input({"type": "websocket.receive", key: data})
    error = await client.next(timeout)
    assert error["type"] == "error" and error["code"] == code, error
    assert isinstance(error["message"], str) and error["message"]
    pong = await client.ping()  # the table stream says where it stands; the others only pong
    assert pong["type"] == "pong" and pong.get("position", position) == position
    assert await written() == before
    await spectator.quiet(0.05)
    assert len(spectator.frames) == seen
    return error


async def test_a_frame_that_is_not_json_gets_a_malformed_error():
    tid, _, ann, spectator = await a_hand()
    for data in ("not json", "{", '{"type": "ping"', "", "\x00", "{'type': 'ping'}", "NaN]"):
        error = await refused(tid, ann, spectator, data, "malformed")
        assert error["command_id"] is None


async def test_a_json_value_that_is_not_an_object_gets_a_malformed_error():
    tid, _, ann, spectator = await a_hand()
    for value in ([], [{"type": "ping"}], "ping", 3, None, True):
        await refused(tid, ann, spectator, json.dumps(value), "malformed")


async def test_an_unknown_type_gets_an_unknown_type_error():
    tid, _, ann, spectator = await a_hand()
    for value in (
        {"type": "shout"},
        {},
        {"type": None},
        {"type": ["act"]},
        {"type": "ACT"},
        {"kind": "ping"},
        {"type": "answer", "command_id": "x"},
    ):
        await refused(tid, ann, spectator, json.dumps(value), "unknown_type")


async def test_an_act_with_missing_fields_gets_an_invalid_error():
    tid, users, ann, spectator = await a_hand()
    user, view = await actor(tid, users)
    me = ann if user == users[0] else await table_client(tid, user)
    whole = act_frame(view["hand"], action="call")
    for field in ("hand", "version", "command_id", "action"):
        frame = {k: v for k, v in whole.items() if k != field}
        error = await refused(tid, me, spectator, json.dumps(frame), "invalid")
        assert field in error["message"]
        assert error["command_id"] == frame.get("command_id")
    await refused(tid, me, spectator, json.dumps({"type": "act"}), "invalid")
    # An anonymous client is told to log in first, whatever it sent.
    await refused(tid, spectator, ann, json.dumps({"type": "act"}), "not_authenticated")
    # The whole frame still works.
    reply = await me.request(whole)
    assert reply["type"] == "answer", reply


async def test_an_oversized_frame_gets_a_malformed_error():
    tid, _, ann, spectator = await a_hand()
    pad = MAX_FRAME - len(json.dumps({"type": "ping", "pad": ""}))
    at_most = json.dumps({"type": "ping", "pad": "x" * pad})
    assert len(at_most.encode()) == MAX_FRAME == 16 * 1024
    await ann.send(at_most)
    assert (await ann.next())["type"] == "pong"
    for size in (MAX_FRAME + 1, 4 * MAX_FRAME, 1024 * 1024):
        frame = json.dumps({"type": "ping", "pad": "x" * (size - len(at_most) + pad)})
        assert len(frame) == size
        await refused(tid, ann, spectator, frame, "malformed")
    await refused(tid, ann, spectator, b"x" * (MAX_FRAME + 1), "malformed")


async def test_a_binary_frame_gets_a_malformed_error():
    tid, _, ann, spectator = await a_hand()
    for data in (b'{"type": "ping"}', b"\x00\xff", b""):
        await refused(tid, ann, spectator, data, "malformed")


async def test_a_ping_gets_a_pong_at_the_last_position_seen():
    tid, _, ann, spectator = await a_hand()
    now = await position_of_table(tid)
    assert await ann.ping() == {"type": "pong", "position": now}
    assert await spectator.ping() == {"type": "pong", "position": now}


async def test_frames_sent_to_the_lobby_or_the_own_stream_get_a_read_only_error():
    _, users, _, _ = await a_hand()
    lobby = Client("/ws/lobby/")
    assert (await lobby.open())[0]
    assert (await lobby.next())["type"] == "snapshot"
    mine = await me_client(users[0])
    for client in (lobby, mine):
        before = await written()
        await client.send({"type": "act", "hand": "1-1"})
        error = await client.next()
        assert error["type"] == "error" and error["code"] == "read_only", error
        assert await written() == before
        await client.close()


# --------------------------------------------------------------------------
# Bugs


async def test_an_oversized_frame_is_measured_in_bytes():
    tid, _, ann, spectator = await a_hand()
    frame = json.dumps({"type": "ping", "pad": "é" * (MAX_FRAME // 2)}, ensure_ascii=False)
    assert len(frame) < MAX_FRAME < len(frame.encode())
    await refused(tid, ann, spectator, frame, "malformed")


async def test_a_deeply_nested_frame_gets_a_malformed_error():
    tid, _, ann, spectator = await a_hand()
    await refused(tid, ann, spectator, "[" * 5000 + "]" * 5000, "malformed")


@pytest.mark.parametrize("data", ["not json", b"\x00"], ids=["text", "binary"])
async def test_a_bad_frame_on_the_lobby_or_own_stream_gets_an_error_frame(data):
    tid, users, _, spectator = await a_hand()
    mine = await me_client(users[0])
    await refused(tid, mine, spectator, data, "malformed")
