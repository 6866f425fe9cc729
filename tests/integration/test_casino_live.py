"""A casino table's live stream on real servers (uvicorn, two of them on one
Redis) with real WebSocket clients (the ``websockets`` library): every
viewer sees every feed position once and in order, a player his own box's
cards and no other's, a spectator no hidden card, everyone the dealer's
cards only once he turns them up; a client that reconnects from the last
position it saw misses nothing; the lobby follows the boxes taken."""

from __future__ import annotations

import asyncio
import json
import os
import uuid
from collections.abc import Iterator
from typing import Any

import pytest
from websockets.asyncio.client import connect

from tests.integration.clients import WAIT_S, FeedClient
from tests.integration.cluster import Server
from tests.integration.room import Cluster

pytestmark = [pytest.mark.postgres, pytest.mark.redis]


class CasinoClient(FeedClient):
    """A feed client of ``ws/casino/tables/<id>/``."""

    def url(self, after: int | None, ticket: str | None = None) -> str:
        return super().url(after, ticket).replace("/ws/tables/", "/ws/casino/tables/")


@pytest.fixture(scope="module")
def cluster() -> Iterator[tuple[Cluster, dict[str, Any]]]:
    cluster = Cluster(
        os.environ.get("TEST_DATABASE_URL") or "postgres://postgres@127.0.0.1:5432/test",
        os.environ.get("REDIS_URL") or "redis://127.0.0.1:6379/0",
    )
    try:
        seeded = cluster.db.seed(prefix="casino", players=["ann", "bob"], bankroll=1_000_000)
        cluster.start("one")
        cluster.start("two")
        yield cluster, seeded
    finally:
        cluster.close()


def ok(answer: tuple[int, Any], status: int = 200) -> Any:
    code, body = answer
    assert code == status, (code, body)
    return body


def command(server: Server, token: str, table: int, name: str, **body: Any) -> Any:
    body.setdefault("command_id", str(uuid.uuid4()))
    return ok(server.request("POST", f"/api/casino/tables/{table}/{name}/", token, body))


def view(server: Server, table: int, token: str | None = None) -> Any:
    return ok(server.request("GET", f"/api/casino/tables/{table}/", token))


def play_to_the_end(server: Server, table: int, tokens: dict[int, str], moves: int = 40) -> Any:
    """Each box to act exchanges its first card in the first exchange,
    stands in the second and plays (or folds) in the decision."""
    for _ in range(moves):
        current = view(server, table)["round"]
        if current is None or current["phase"] == "complete":
            return current
        player = next(b["player"] for b in current["boxes"] if b["box"] == current["to_act"])
        mine = view(server, table, tokens[player])["round"]
        legal = mine["legal"]["actions"]
        me = next(b for b in mine["boxes"] if b["box"] == current["to_act"])
        body = {"round": mine["id"], "version": mine["version"]}
        if "exchange" in legal and mine["phase"] == "first-exchange":
            command(server, tokens[player], table, "exchange", cards=me["cards"][:1], **body)
        elif "stand" in legal:
            command(server, tokens[player], table, "stand", **body)
        else:
            command(server, tokens[player], table, "play" if "play" in legal else "fold", **body)
    raise AssertionError("the round did not end")


def cards_in(frame: dict[str, Any]) -> list[str]:
    """Every card code a frame's event shows."""
    event = frame["event"]
    found: list[str] = []
    for key in ("cards", "dealer", "drawn", "discarded"):
        if isinstance(event.get(key), list):
            found += event[key]
    for hand in event.get("hands") or []:
        found += hand or []
    return found


async def test_viewers_see_what_they_may_in_order_and_a_reconnect_misses_nothing(cluster):
    cluster, seeded = cluster
    one, two = cluster.servers["one"], cluster.servers["two"]
    staff = seeded["staff"]["token"]
    ann, bob = seeded["players"]
    tokens = {ann["id"]: ann["token"], bob["id"]: bob["token"]}
    settings = {"name": "Live", "min_bet": 10, "max_bet": 100, "bet_seconds": 600}
    table = ok(one.request("POST", "/api/casino/tables/", staff, settings), 201)["table"]["id"]

    lobby = await connect(
        f"{two.ws}/ws/lobby/", origin=f"http://127.0.0.1:{two.port}", open_timeout=WAIT_S
    )  # type: ignore[arg-type]
    snapshot = json.loads(await asyncio.wait_for(lobby.recv(), WAIT_S))
    line = next(t for t in snapshot["casino_tables"] if t["id"] == table)
    assert (line["game"], line["jokers"], line["min_bet"], line["max_bet"]) == (
        "casino-draw",
        2,
        10,
        100,
    )
    assert (line["players_seated"], line["status"]) == (0, "open")

    spectator = await CasinoClient("spectator", one, table, after=None).open()
    watcher = await CasinoClient("ann", two, table, ann["token"], after=None, player="ann").open()
    bobs = await CasinoClient("bob", one, table, bob["token"], after=None, player="bob").open()
    opened = view_position(cluster, table)
    for client in (spectator, watcher, bobs):
        await client.until(opened)  # its snapshot; the positions after it are checked below
        assert [f["type"] for f in client.received] == ["snapshot"]

    command(one, ann["token"], table, "sit", box=1)
    line = json.loads(await asyncio.wait_for(lobby.recv(), WAIT_S))
    assert line["type"] == "casino_lobby" and line["table"]["players_seated"] == 1
    command(two, bob["token"], table, "sit", box=3)
    line = json.loads(await asyncio.wait_for(lobby.recv(), WAIT_S))
    assert (line["table"]["players_seated"], line["table"]["boxes_taken"]) == (2, [1, 3])
    await lobby.close()

    command(one, ann["token"], table, "bet", amount=10)
    command(two, bob["token"], table, "bet", amount=20)  # every box has bet: the deal
    dealt = view(one, table)["table"]["version"]
    assert view(one, table)["round"]["phase"] == "first-exchange" and dealt

    # Bob drops out; the round goes on; he comes back from where he was.
    position = view_position(cluster, table)
    await bobs.until(position)
    await bobs.close()
    left_at = bobs.last_position
    assert 0 < left_at == position
    last = play_to_the_end(two, table, tokens)
    assert last["phase"] == "complete"
    end = view_position(cluster, table)
    assert end > left_at + 5  # he missed a good part of the round
    await bobs.open(after=left_at, server=two)
    command(two, ann["token"], table, "sit-out")  # a last frame: all before it came already
    marker = view_position(cluster, table)
    assert marker > end
    for client in (spectator, watcher, bobs):
        await client.until(marker)

    for client in (spectator, watcher, bobs):
        start = client.snapshots[0]["position"]
        assert [f["position"] for f in client.public] == list(range(start + 1, marker + 1)), client
    assert bobs.afters == [None, left_at] and len(bobs.snapshots) == 1

    # Nobody sees a card he may not.
    annex, bobx = ann["id"], bob["id"]
    assert spectator.private == []
    for frame in spectator.public:
        event = frame["event"]
        if event["type"] in ("casino.cards_dealt",):
            assert event["hands"] == [None, None] and event["dealer"] is None
        if event["type"] in ("casino.cards_drawn", "casino.exchanged"):
            assert event["cards"] is None and event["count"] >= 1
        assert "deck" not in event and "seed" not in event
    revealed = next(
        f["position"] for f in spectator.public if f["event"]["type"] == "casino.dealer_revealed"
    )
    dealer = next(
        f["event"]["cards"]
        for f in spectator.public
        if f["event"]["type"] == "casino.dealer_revealed"
    )
    for client in (spectator, watcher, bobs):
        before = [f for f in client.received if f.get("position", 0) < revealed]
        assert not set(dealer) & {c for f in before if "event" in f for c in cards_in(f)}, client

    ann_deal = next(f for f in watcher.private if f["event"]["type"] == "casino.cards_dealt")
    bob_deal = next(f for f in bobs.private if f["event"]["type"] == "casino.cards_dealt")
    assert ann_deal["event"]["hands"][1] is None and len(ann_deal["event"]["hands"][0]) == 5
    assert bob_deal["event"]["hands"][0] is None and len(bob_deal["event"]["hands"][1]) == 5
    assert not set(ann_deal["event"]["hands"][0]) & set(bob_deal["event"]["hands"][1])
    for frame in watcher.private:
        assert frame["event"].get("box") in (None, 1), frame
        if frame["event"]["type"] == "casino.round_started":
            stacks = {b["box"]: b["stack"] for b in frame["event"]["boxes"]}
            assert stacks[1] is not None and stacks[3] is None
    for frame in bobs.private:
        assert frame["event"].get("box") in (None, 3), frame
    assert {p for f in spectator.public for p in f.get("private_for", [])} == {annex, bobx}

    # A private frame's openings prove its cards against the published root.
    root = next(f for f in spectator.public if f["event"]["type"] == "casino.round_started")
    assert len(root["event"]["root"]) == 64 and root["event"]["count"] == 54
    assert {o["card"] for o in ann_deal["openings"]} == set(ann_deal["event"]["hands"][0])
    assert "openings" not in next(
        f for f in spectator.public if f["event"]["type"] == "casino.cards_dealt"
    )

    for client in (spectator, watcher, bobs):
        await client.close()


def view_position(cluster: Cluster, table: int) -> int:
    """Where the table's feed stands (its row)."""
    return int(cluster.db.one("SELECT position FROM poker_casinotable WHERE id = %s", table))
