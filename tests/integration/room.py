"""A cash table played by real clients through real servers.

``Cluster`` is one PostgreSQL database, one Redis database and named uvicorn
servers on both.  ``Room`` is one seeded table of it: its players (each with
a home server), and lock-step play, where each action goes through a socket
or the REST API of a chosen server and the room waits until every live client
has seen the positions the action took in the table's feed.
"""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import psycopg

from tests.integration.clients import FeedClient
from tests.integration.cluster import Database, Server
from tests.redisdb import RedisSlot

PASSIVE = ("call", "check", "stand", "decline", "show")


class Cluster:
    def __init__(self, server_dsn: str, redis_server_url: str) -> None:
        self.servers: dict[str, Server] = {}
        self.started: list[Server] = []
        self.db = Database(server_dsn)
        try:
            self.redis = RedisSlot(redis_server_url)
        except BaseException:
            self.db.drop()
            raise

    def start(self, name: str, port: int = 0, redis_url: str | None = None) -> Server:
        """A server ``name`` (on ``port``, e.g. a dead one's, or a free one;
        on the cluster's Redis database, or through ``redis_url`` to it)."""
        server = Server(name, self.db.url, redis_url or self.redis.url, port)
        self.servers[name] = server
        self.started.append(server)
        return server.start()

    def close(self) -> None:
        try:
            for server in self.started:
                server.stop()
        finally:
            try:
                self.db.drop()
            finally:
                self.redis.release()


@dataclass
class Player:
    id: int
    name: str
    token: str
    home: Server
    socket: FeedClient | None = None


@dataclass
class Move:
    """One action: who, what, through which server and how, and the feed
    positions its command took."""

    player: str
    action: str
    server: str
    via: str
    positions: range


class Room:
    def __init__(self, cluster: Cluster, prefix: str, homes: dict[str, Server]) -> None:
        self.cluster = cluster
        seeded = cluster.db.seed(prefix=prefix, players=list(homes))
        self.table: int = seeded["table"]
        self.players = {
            p["name"]: Player(p["id"], p["name"], p["token"], homes[p["name"]])
            for p in seeded["players"]
        }
        self.by_id = {p.id: p for p in self.players.values()}
        self.clients: list[FeedClient] = []
        self.moves: list[Move] = []

    # -- the store ----------------------------------------------------------

    def position(self) -> int:
        """The table's feed position as committed."""
        position: int = self.cluster.db.one(
            "SELECT position FROM poker_table WHERE id = %s", self.table
        )
        return position

    def feed(self) -> list[tuple[int, str, int, str]]:
        """(position, stream, version, type) of every event of the feed."""
        with psycopg.connect(self.cluster.db.url, autocommit=True) as conn:
            rows = conn.execute(
                "SELECT position, stream, version, type FROM poker_event"
                " WHERE feed = %s ORDER BY position",
                [self.table],
            ).fetchall()
        return [tuple(r) for r in rows]

    # -- clients ------------------------------------------------------------

    async def watch(
        self, label: str, server: Server, after: int | None = 0, player: str | None = None
    ) -> FeedClient:
        token = self.players[player].token if player else None
        client = await FeedClient(label, server, self.table, token, after, player).open()
        self.clients.append(client)
        if player is not None and self.players[player].socket is None:
            self.players[player].socket = client
        return client

    def live(self) -> list[FeedClient]:
        return [c for c in self.clients if not c.closed]

    async def settle(self) -> int:
        """Until every live client has seen the committed feed; its position."""
        position = self.position()
        await asyncio.gather(*(c.until(position) for c in self.live()))
        return position

    # -- playing ------------------------------------------------------------

    async def request(
        self, server: Server, method: str, path: str, player: str | None, body: Any = None
    ) -> Any:
        token = self.players[player].token if player else None
        status, answer = await asyncio.to_thread(server.request, method, path, token, body)
        assert status == 200, (server.name, method, path, player, status, answer)
        return answer

    async def sit(self, player: str, seat: int, server: Server) -> None:
        before = self.position()
        await self.request(
            server, "POST", f"/api/tables/{self.table}/sit/", player, {"seat": seat, "buy_in": 100}
        )
        after = await self.settle()
        self.moves.append(Move(player, "sit", server.name, "rest", range(before + 1, after + 1)))

    async def view(self, server: Server, player: str | None = None) -> dict[str, Any]:
        view: dict[str, Any] = await self.request(
            server, "GET", f"/api/tables/{self.table}/", player
        )
        return view

    async def step(
        self, view_from: Server, via: Callable[[Player], Server | None] = lambda p: None
    ) -> Move:
        """The player to act (as ``view_from`` shows the table) acts: through
        his socket on his home server when ``via(player)`` is None, else with
        a REST POST to that server; then every live client sees what his
        action took in the feed."""
        public = await self.view(view_from)
        hand = public["hand"]
        assert hand is not None and hand["to_act_seat"] is not None, public
        seat = next(s for s in public["seats"] if s["seat"] == hand["to_act_seat"])
        actor = self.by_id[seat["player"]]
        mine = (await self.view(view_from, actor.name))["hand"]
        action, more = choose(mine)
        before = self.position()
        through = via(actor)
        if through is None:
            assert actor.socket is not None and actor.socket.server is actor.home
            answer = await actor.socket.act(mine, action, **more)
            assert answer["type"] == "answer", (actor.name, action, more, answer)
            server, how = actor.home, "ws"
        else:
            body = {"hand": mine["id"], "version": mine["version"], "action": action, **more}
            body["command_id"] = str(uuid.uuid4())
            path = f"/api/tables/{self.table}/actions/"
            await self.request(through, "POST", path, actor.name, body)
            server, how = through, "rest"
        after = await self.settle()
        assert after > before, (actor.name, action, before, after)
        move = Move(actor.name, action, server.name, how, range(before + 1, after + 1))
        self.moves.append(move)
        return move

    async def hand_number(self, server: Server) -> int:
        number: int = (await self.view(server))["table"]["hand_number"]
        return number


def choose(hand: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    """A legal move for the player to act (``hand`` as he sees it): throw two
    cards when he may draw; in even hands the first to act in the first
    round raises the minimum; otherwise the least committal action."""
    legal = hand["legal"]
    assert legal is not None, hand
    actions = legal["actions"]
    me = next(p for p in hand["players"] if p["seat"] == hand["your_seat"])
    if "discard" in actions and legal.get("max_discard", 0) >= 2:
        return "discard", {"cards": me["cards"][:2]}
    opening = hand["round"] == 0 and hand["current_bet"] == hand["blinds"][1]
    if hand["number"] % 2 == 0 and opening and "raise" in actions:
        return "raise", {"amount": legal["min_raise_to"]}
    for action in PASSIVE:
        if action in actions:
            return action, {}
    return actions[0], {}
