"""Every frame a socket sends has the keys its ``TypedDict`` declares (its
required ones, none undeclared), read off real sockets: the declarations
mypy checks the builders against are the wire's.  And docs/websockets.md
lists each frame type with exactly its declared fields."""

from __future__ import annotations

import importlib
import re
import uuid
from pathlib import Path
from typing import Any

import pytest
from channels.db import database_sync_to_async
from django.contrib.auth import get_user_model

from accounts import money
from accounts.frames import WalletFrame
from casino import publish as casino_publish
from casino import services as casino_services
from kernel import feed
from kernel.consumers import ErrorFrame, Pong
from poker.consumers import Answer
from poker.publish import LobbyLine, LobbySnapshot, SeatFrame
from tests.funds import fund
from tests.poker.ws_support import (
    Client,
    act_frame,
    actor,
    assert_declared,
    declared_keys,
    make_users,
    me_client,
    open_table,
    seat_all,
    table_client,
    ticket_for,
)

DOCS = Path(__file__).resolve().parents[2] / "docs" / "websockets.md"


@pytest.mark.django_db(transaction=True)
async def test_a_table_socket_sends_its_declared_frames():
    tid = await open_table()
    users = await make_users("ann", "bob")
    spectator = await table_client(tid, snapshot=False)
    players = {u.pk: await table_client(tid, u, snapshot=False) for u in users}
    for client in (spectator, *players.values()):
        assert_declared(await client.next(), feed.Snapshot)
    await seat_all(tid, users)
    await spectator.until(lambda f: f["type"] == "event" and "private_for" in f)
    user, view = await actor(tid, users)
    player = players[user.pk]
    assert_declared(await player.ping(), Pong)
    refused = await player.request(act_frame(view["hand"], action="raise", amount=10**6))
    assert refused["code"] != "invalid" and "values" in refused, refused  # the engine's refusal
    assert_declared(refused, ErrorFrame)
    answer = await player.request(act_frame(view["hand"], action="call"))
    assert_declared(answer, Answer)
    stale = await player.request(act_frame(view["hand"], action="check"))
    assert stale["code"] == "stale_version" and "current" in stale, stale
    assert_declared(stale, ErrorFrame)
    await player.send("not json")
    assert_declared(await player.until(lambda f: f["type"] == "error"), ErrorFrame)
    for client in (spectator, *players.values()):
        await client.quiet(0.1)
        assert bool(client.of("private")) == (client is not spectator)
        for frame in client.feed():
            assert_declared(frame, feed.EventFrame)
        await client.close()


@pytest.mark.django_db(transaction=True)
async def test_the_own_stream_sends_its_declared_frames():
    tid = await open_table()
    users = await make_users("ann", "bob")
    me = await me_client(users[0])  # its first frame taken: the wallet
    await seat_all(tid, users)
    await me.until(lambda f: f["type"] == "private")
    await me.quiet(0.1)
    kinds = {"wallet": WalletFrame, "seat": SeatFrame, "private": feed.EventFrame}
    assert {f["type"] for f in me.frames} == set(kinds), me.frames
    for frame in me.frames:
        assert_declared(frame, kinds[frame["type"]])
    assert_declared(await me.ping(), Pong)
    await me.close()


@pytest.mark.django_db(transaction=True)
async def test_the_lobby_sends_its_declared_frames():
    lobby = Client("/ws/lobby/")
    assert (await lobby.open())[0]
    assert_declared(await lobby.next(), LobbySnapshot, casino_publish.LobbySection)
    await open_table()
    assert_declared(await lobby.next(), LobbyLine)
    await _casino_table()
    assert_declared(await lobby.next(), casino_publish.LobbyLine)
    await lobby.close()
    again = Client("/ws/lobby/")
    assert (await again.open())[0]
    snapshot = await again.next()
    assert snapshot["tables"] and snapshot["casino_tables"]
    assert_declared(snapshot, LobbySnapshot, casino_publish.LobbySection)
    await again.close()


@pytest.mark.django_db(transaction=True)
async def test_a_casino_table_socket_sends_its_declared_frames():
    table, ann = await _casino_table()
    watcher = Client(f"/ws/casino/tables/{table}/?ticket={await ticket_for(ann)}", user=ann)
    assert (await watcher.open())[0]
    assert_declared(await watcher.next(), feed.Snapshot)
    await database_sync_to_async(casino_services.casino_sit)(by=ann, table_id=table, box=1)
    frame = await watcher.until(lambda f: f["type"] == "event")
    assert_declared(frame, feed.EventFrame)
    await watcher.close()


@pytest.mark.django_db(transaction=True)
async def test_a_refused_socket_sends_a_declared_error_frame():
    _, _, frame = await Client("/ws/me/").refusal()
    assert_declared(frame, ErrorFrame)


def documented() -> dict[tuple[str, str], set[str]]:
    """docs/websockets.md's frame table: (type, declared in) -> the fields
    it lists (a field in brackets, or explained in parentheses, by name)."""
    rows: dict[tuple[str, str], set[str]] = {}
    for line in DOCS.read_text().splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) != 4 or not cells[3].startswith("`") or "." not in cells[3]:
            continue
        fields = re.sub(r"\([^)]*\)", "", cells[1])
        fields = re.sub(r"\[`(\w+)`[^\]]*\]", r"`\1`", fields)
        for kind in re.findall(r"`(\w+)`", cells[0]):
            rows[(kind, cells[3].strip("`"))] = set(re.findall(r"`(\w+)`", fields))
    return rows


def test_the_docs_list_each_frame_with_its_declared_fields():
    rows = documented()
    assert len(rows) >= 14, rows
    for (kind, where), fields in rows.items():
        module, name = where.rsplit(".", 1)
        declared = getattr(importlib.import_module(module), name)
        assert fields | {"type"} == declared_keys(declared)[1], (kind, where, fields)


@database_sync_to_async
def _casino_table() -> tuple[int, Any]:
    users = get_user_model()
    boss = users.objects.filter(username="boss").first() or users.objects.create_user(
        "boss", is_staff=True
    )
    money.bankroll_fund(transfer_id=uuid.uuid4(), amount=1_000_000)
    table = casino_services.casino_table_open(by=boss, name="Live")
    ann = users.objects.filter(username="ann").first() or users.objects.create_user("ann")
    return table.pk, fund(ann, 10_000)
