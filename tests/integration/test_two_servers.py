"""Two real ASGI servers on one PostgreSQL database and one Redis channel layer.

The module gets a PostgreSQL database of its own (``pokerroom_it_<random>``,
migrated by ``manage.py migrate`` in a subprocess), a Redis database of its
own (one of 1-15, claimed for the module and flushed before and after, whatever
``REDIS_URL`` names), and two ``uvicorn config.asgi:application`` processes,
A and B, with DEBUG off, on both.  Real WebSocket clients (the ``websockets``
library, with the ``Origin`` a browser sends) watch a table on both servers;
players act through their socket on their home server or with REST POSTs to
the other one.  After every action the test waits until every client of both
servers has seen the feed positions the action took, and at the end checks
that each client saw every position once, in order, with no gap, that all of
them saw the very same public frames, that these are the store's events, and
that each player's private frames are his own cards.
"""

from __future__ import annotations

import asyncio
import itertools
import os
from collections.abc import AsyncIterator, Callable, Iterator
from urllib.parse import urlsplit

import pytest

from tests.integration.clients import FeedClient
from tests.integration.cluster import Server
from tests.integration.room import Cluster, Player, Room
from tests.integration.slowlink import SlowLink

pytestmark = [pytest.mark.postgres, pytest.mark.redis]

DEFAULT_TEST_DATABASE_URL = "postgres://postgres@127.0.0.1:5432/test"
DEFAULT_REDIS_URL = "redis://127.0.0.1:6379/0"
HANDS = 3
"""Hands played to their end in the first test."""


@pytest.fixture(scope="module")
def cluster() -> Iterator[Cluster]:
    """The module's own databases, and servers A and B on them."""
    cluster = Cluster(
        os.environ.get("TEST_DATABASE_URL") or DEFAULT_TEST_DATABASE_URL,
        # Only the server: the Redis database is the cluster's own.
        os.environ.get("REDIS_URL") or DEFAULT_REDIS_URL,
    )
    try:
        cluster.start("A")
        cluster.start("B")
        yield cluster
    finally:
        cluster.close()


@pytest.fixture
async def rooms(cluster: Cluster) -> AsyncIterator[Callable[[str, dict[str, Server]], Room]]:
    """Seed tables; every client of them is closed at the end."""
    made: list[Room] = []

    def make(prefix: str, homes: dict[str, Server]) -> Room:
        made.append(Room(cluster, prefix, homes))
        return made[-1]

    yield make
    await asyncio.gather(*(c.close() for room in made for c in room.clients))


def sometimes_rest(k: int, a: Server, b: Server) -> Callable[[Player], Server | None]:
    """Route of the k-th action: every third one a REST POST to the server
    that is not the actor's home, the others through his socket at home."""
    if k % 3 != 2:
        return lambda player: None
    return lambda player: b if player.home is a else a


# --------------------------------------------------------------------------
# Checks


def positions(client: FeedClient) -> list[int]:
    return [f["position"] for f in client.public]


def first_position(client: FeedClient) -> int:
    """Where a client's public frames start: right after its ``after``, or
    after its snapshot."""
    if client.after is not None:
        return client.after + 1
    return int(client.snapshots[0]["position"]) + 1


def assert_no_gap(client: FeedClient, last: int) -> None:
    """Every position from the client's start to ``last``, once and in order."""
    seen = positions(client)
    expected = list(range(first_position(client), last + 1))
    if seen != expected:
        missing = sorted(set(expected) - set(seen))
        jumps = [p for q, p in itertools.pairwise(seen) if p != q + 1]
        raise AssertionError(
            f"{client}: saw {len(seen)} positions, not {expected[0]}..{last}: "
            f"missing {missing[:20]}, jumps to {jumps[:20]}"
        )


def assert_same_public_frames(room: Room, last: int) -> None:
    """Every client: no gap, the same public frames (from where it began) as
    every other, and those are the store's feed, with no hidden card."""
    for client in room.clients:
        assert_no_gap(client, last)
    reference = next(c for c in room.clients if first_position(c) == 1).public
    for client in room.clients:
        start = first_position(client) - 1
        assert client.public == reference[start:], f"{client} saw other frames"
    seen = [(f["position"], f["stream"], f["version"], f["event"]["type"]) for f in reference]
    assert seen == room.feed()
    for frame in reference:
        event = frame["event"]
        if event["type"] == "hand.cards_dealt":
            assert all(h["cards"] is None for h in event["hands"]), frame
        if event["type"] in ("hand.discarded", "hand.cards_drawn"):
            assert event.get("cards") is None, frame


def assert_private_frames(room: Room, client: FeedClient) -> None:
    """A spectator gets no private frame; a player gets his own cards of
    every hand he is dealt in, and nobody else's, each right after its
    public frame."""
    if client.player is None:
        assert client.private == [], client
        return
    me = room.players[client.player].id
    seats: dict[str, int] = {}  # hand stream -> his seat in it
    dealt = []
    frames = [f for f in client.received if f["type"] in ("event", "private")]
    for before, frame in zip([None, *frames], frames, strict=False):
        event = frame["event"]
        if frame["type"] == "event":
            if event["type"] == "hand.started":
                seated = {p["player"]: p["seat"] for p in event["players"]}
                if me in seated:
                    seats[frame["stream"]] = seated[me]
            if event["type"] == "hand.cards_dealt" and frame["stream"] in seats:
                dealt.append(frame["stream"])
            continue
        assert before is not None and before["type"] == "event", (client, frame)
        assert (before["position"], before["stream"]) == (frame["position"], frame["stream"])
        mine = seats[frame["stream"]]
        if event["type"] == "hand.cards_dealt":
            hands = {h["seat"]: h["cards"] for h in event["hands"]}
            assert hands[mine] is not None and len(hands[mine]) == 5, (client, frame)
            assert all(h is None for k, h in hands.items() if k != mine), (client, frame)
        else:
            assert event["type"] in ("hand.discarded", "hand.cards_drawn"), frame
            assert event["seat"] == mine and event["cards"], (client, frame)
    got = [f["stream"] for f in client.private if f["event"]["type"] == "hand.cards_dealt"]
    assert got == dealt, (client, got, dealt)


def crossings(room: Room) -> dict[str, int]:
    """How many actions made through each server reached every client of
    the other servers (all of them must)."""
    out: dict[str, int] = {}
    for move in room.moves:
        for client in room.clients:
            if client.server.name == move.server:
                continue
            seen = set(positions(client))
            if client.after is None:
                seen |= set(range(1, first_position(client)))  # in its snapshot
            assert set(move.positions) <= seen, (move, client)
        out[move.server] = out.get(move.server, 0) + 1
    return out


# --------------------------------------------------------------------------
# Tests


async def test_actions_through_either_server_reach_every_client_in_order(
    cluster: Cluster, rooms: Callable[[str, dict[str, Server]], Room]
) -> None:
    a, b = cluster.servers["A"], cluster.servers["B"]
    room = rooms("two", {"ann": a, "bob": b, "cy": a, "dan": b})
    # Spectators from the start and from a snapshot, the players on their
    # home servers, and ann a second time on the other server.
    for server in (a, b):
        await room.watch(f"spectator-{server.name}", server)
        await room.watch(f"snapshot-{server.name}", server, after=None)
    for name, player in room.players.items():
        await room.watch(name, player.home, player=name)
    ann_on_b = await room.watch("ann-on-B", b, player="ann")

    # Seats taken through both servers; the first hand is dealt at the second.
    await room.sit("ann", 1, a)
    await room.sit("bob", 2, b)
    await room.sit("cy", 3, b)
    await room.sit("dan", 4, a)
    # Hands played to their end, the table read from either server in turn.
    k = 0
    while await room.hand_number(a) <= HANDS:
        await room.step((a, b)[k % 2], via=sometimes_rest(k, a, b))
        k += 1
        assert k < 200, "the hands never end"
    last = await room.settle()

    assert_same_public_frames(room, last)
    for client in room.clients:
        assert_private_frames(room, client)
    assert room.players["ann"].socket is not None
    assert ann_on_b.private == room.players["ann"].socket.private
    through = crossings(room)
    assert through.get("A", 0) >= 10 and through.get("B", 0) >= 10, through
    assert {(m.server, m.via) for m in room.moves} >= {
        ("A", "ws"),
        ("B", "ws"),
        ("A", "rest"),
        ("B", "rest"),
    }


async def test_clients_of_a_killed_server_catch_up_on_its_successor(
    cluster: Cluster, rooms: Callable[[str, dict[str, Server]], Room]
) -> None:
    a, b = cluster.servers["A"], cluster.servers["B"]
    room = rooms("kill", {"eve": a, "fay": b, "gus": a})
    for server in (a, b):
        await room.watch(f"spectator-{server.name}", server)
    for name, player in room.players.items():
        await room.watch(name, player.home, player=name)
    await room.sit("eve", 1, b)
    await room.sit("fay", 2, a)
    await room.sit("gus", 3, b)
    for k in range(6):
        await room.step((a, b)[k % 2], via=sometimes_rest(k, a, b))

    # B dies (SIGKILL) in the middle of a hand; its clients lose their sockets.
    on_b = [c for c in room.clients if c.server is b]
    b.kill()
    await asyncio.gather(*(c.wait_closed() for c in on_b))
    at_death = {c.label: c.last_position for c in on_b}
    assert set(at_death.values()) == {room.position()}

    # Play goes on through A alone (fay, at home on B, by REST on A) until
    # the hand running at B's death has ended and the next one is dealt.
    number = await room.hand_number(a)
    steps = 0
    while await room.hand_number(a) == number or steps < 4:
        await room.step(a, via=lambda player: a if player.home is b else None)
        steps += 1
        assert steps < 100, "the hand never ends"
    missed = room.position()
    assert missed > max(at_death.values())
    assert {c.label: c.last_position for c in on_b} == at_death

    # B again, a new process on the same port: its clients reconnect there
    # with after=<the last position each saw> and catch up with no gap; a
    # newcomer there watches from the start.
    b = cluster.start("B", port=b.port)
    for player in room.players.values():
        if player.home.name == "B":
            player.home = b
    for client in on_b:
        await client.open(server=b)
        assert client.afters == [0, at_death[client.label]]
    late = await room.watch("late-B", b)
    await room.settle()
    for client in on_b:
        caught_up = [p for p in positions(client) if p > at_death[client.label]]
        assert caught_up[: missed - at_death[client.label]] == list(
            range(at_death[client.label] + 1, missed + 1)
        ), client
    assert positions(late)[0] == 1

    # And both servers carry on, either way.
    for k in range(6):
        await room.step((b, a)[k % 2], via=sometimes_rest(k, a, b))
    last = await room.settle()
    assert_same_public_frames(room, last)
    for client in room.clients:
        assert_private_frames(room, client)
    crossings(room)
    assert {m.server for m in room.moves if m.positions.start > missed} == {"A", "B"}


async def test_frames_published_out_of_order_by_two_servers_leave_no_gap(
    cluster: Cluster, rooms: Callable[[str, dict[str, Server]], Room]
) -> None:
    """Server C's link to Redis is slow for a moment: its command commits
    first (position N) but its frame reaches Redis after that of the command
    B commits right after it (N+1).  Each client should still see N, then
    N+1: the store has both by then."""
    a, b = cluster.servers["A"], cluster.servers["B"]
    redis_at = urlsplit(cluster.redis.url)
    link = SlowLink(redis_at.hostname or "127.0.0.1", redis_at.port or 6379)
    try:
        c = cluster.start("C", redis_url=link.url(cluster.redis.number))
        room = rooms("order", {"eve": c, "fay": b, "gus": a})
        for server in (a, b):
            await room.watch(f"spectator-{server.name}", server)
        await room.watch("fay", b, player="fay")
        await room.watch("gus", a, player="gus")
        await room.sit("eve", 1, c)
        await room.sit("fay", 2, b)
        await room.sit("gus", 3, a)
        first = await room.settle()

        link.delay = 1.0
        path = f"/api/tables/{room.table}/sit-out/"
        slow = asyncio.create_task(room.request(c, "POST", path, "eve", {}))
        async with asyncio.timeout(10):  # eve's command has committed: N
            while room.position() == first:
                await asyncio.sleep(0.005)
        await room.request(b, "POST", path, "fay", {})  # committed and published: N+1
        link.delay = 0.0
        await slow
        last = await room.settle()
        assert last == first + 2
        for client in room.clients:
            assert_no_gap(client, last)
    finally:
        if "C" in cluster.servers:
            cluster.servers.pop("C").stop()
        link.close()


async def test_an_idle_client_stays_connected(
    cluster: Cluster, rooms: Callable[[str, dict[str, Server]], Room]
) -> None:
    """Nothing happens at a table for 7 s: its watchers stay connected and
    still answer a ping.  (A server of its own: an idle socket left on a
    server takes the timeout in its place.)"""
    quiet = cluster.start("quiet")
    try:
        room = rooms("idle", {"hal": quiet})
        client = await room.watch("idle-spectator", quiet)
        await client.until(1)
        await asyncio.sleep(7)
        assert not client.closed, f"{client} was dropped while idle"
        await room.sit("hal", 1, quiet)
        await room.settle()
    finally:
        cluster.servers.pop("quiet").stop()
