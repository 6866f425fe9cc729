"""Bots at the cash tables, over WebSockets and REST through the proxy, that
survive the faults: a socket that drops is opened again with the last
position it saw (``?after=``) and must get every later frame exactly once;
an action whose answer was lost (the socket or the server died, the
database or Redis was away) is sent again with the same command id, so it
is carried out once and the retry gets the first answer.

Under overload the bots wait rather than pile on (issue 17): a try is
sent again only when its answer cannot come any more (its socket or
connection closed, the server answered 5xx, 429 or ``unavailable``),
never because it is slow.  An open socket answers every frame it read, in
order, and a server goes on with a request whose client gave up, so a try
resent on a timeout only queued the same command again behind the first:
with answers slower than the timeout, every action entered the servers'
queues several times, the queues grew, and next to nothing was answered
in time.  Each table's REST calls keep one connection alive (no TCP
connect through the proxy per request), in a thread of its own.

The moves are ``bench.websockets.TableBot``'s (check, call or sometimes
fold; stand or discard from the player's own dealt cards; on a refusal,
from the player's legal menu); each table's driver makes one action a
second, half the tables over their players' sockets, half over REST.  Now
and then a driver leaves a draw to the clock, so timers fire throughout.
"""

from __future__ import annotations

import asyncio
import http.client
import json
import random
import time
import uuid
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from bench.tickets import ws_ticket
from bench.websockets import TableBot

PACE = 1.0
"""Seconds between two actions of one table."""
IDLE = 0.04
"""Share of draws left to the clock."""
RETRY_FOR_S = 45.0
"""How long an action may wait for its answer, tries included, before it
counts as lost (a try waits for as long as is left of it)."""
GET_TIMEOUT_S = 30.0
"""How long a driver waits for a table's view."""
OPEN_TIMEOUT_S = 60.0
"""How long a socket's handshake may take: a slow server still completes
it (a handshake given up on leaves its work queued in the server)."""
RECONNECT_S = (0.2, 0.5, 1.0, 2.0, 4.0)
"""Pauses before reconnecting, after 1, 2, ... failed tries in a row (with jitter)."""


class Lost(Exception):
    """A socket closed under a command waiting for its answer."""


@dataclass
class Sample:
    """One action: when it was sent (harness clock), how long until its
    answer, how it went."""

    sent: float
    latency: float
    via: str
    table: int
    retries: tuple[str, ...] = ()
    """Why each earlier try got no answer."""


@dataclass
class Room:
    """What every bot shares: where the proxy is, the clock, the tallies."""

    proxy_port: int
    started: float = field(default_factory=time.monotonic)
    stopping: bool = False
    samples: list[Sample] = field(default_factory=list)
    lost: list[str] = field(default_factory=list)
    """Actions never answered after ``RETRY_FOR_S`` of retries."""
    refusals: int = 0
    retried: Counter[str] = field(default_factory=Counter)
    """Tries sent again (same command id), by why the try got no answer."""
    sit_ins: int = 0
    idles: int = 0
    errors: list[str] = field(default_factory=list)

    def now(self) -> float:
        return time.monotonic() - self.started


class Feed:
    """One socket's view of a table's feed, kept open across faults."""

    def __init__(self, room: Room, table: int, token: str | None, player: int | None) -> None:
        self.room = room
        self.table = table
        self.token = token
        self.player = player
        self.last: int | None = None
        """The last public position seen (from a frame or a snapshot)."""
        self.gaps: list[tuple[int, int]] = []
        """(expected, got) for each public frame that was not the next."""
        self.connects = 0
        self.ws: Any = None
        self.up = asyncio.Event()
        self.answers: dict[str, asyncio.Future[dict[str, Any]]] = {}
        self.dealt: dict[str, list[str]] = {}
        self.task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self.task = asyncio.create_task(self.keep())

    async def keep(self) -> None:
        """Connect, read, and connect again after the last position seen."""
        from websockets.asyncio.client import connect
        from websockets.exceptions import ConnectionClosed, InvalidHandshake

        port = self.room.proxy_port
        failed = 0
        while not self.room.stopping:
            try:
                query = [] if self.token is None else [f"ticket={await self.ticket(port)}"]
                if self.last is not None:
                    query.append(f"after={self.last}")
                url = f"ws://127.0.0.1:{port}/ws/tables/{self.table}/?{'&'.join(query)}"
                async with connect(
                    url, origin=f"http://127.0.0.1:{port}", open_timeout=OPEN_TIMEOUT_S,
                    ping_interval=None, max_size=2**22, close_timeout=2,
                ) as ws:  # fmt: skip
                    self.ws = ws
                    self.connects += 1
                    failed = 0
                    self.up.set()
                    async for raw in ws:
                        self.on_frame(json.loads(raw))
            except ValueError:  # a ticket's answer that was not JSON: try again
                pass
            except (OSError, ConnectionClosed, InvalidHandshake, TimeoutError, LookupError):
                pass
            finally:
                self.up.clear()
                self.ws = None
                for fut in self.answers.values():
                    if not fut.done():
                        fut.set_exception(Lost())
                self.answers.clear()
            if not self.room.stopping:
                pause = RECONNECT_S[min(failed, len(RECONNECT_S) - 1)]
                failed += 1
                await asyncio.sleep(pause * (1 + random.random()))

    async def ticket(self, port: int) -> str:
        """A fresh ticket for this player's next connect (``bench.tickets``)."""
        assert self.token is not None
        http = f"http://127.0.0.1:{port}"
        return await asyncio.to_thread(ws_ticket, http, self.token, OPEN_TIMEOUT_S)

    def on_frame(self, frame: dict[str, Any]) -> None:
        kind = frame.get("type")
        if kind == "event":
            position = frame["position"]
            if self.last is not None and position != self.last + 1:
                self.gaps.append((self.last + 1, position))
            self.last = position
        elif kind == "snapshot":
            position = frame["position"]
            if self.last is not None and position != self.last:
                self.gaps.append((self.last + 1, position))  # a resume that could not replay
            self.last = position
        elif kind == "private":
            event = frame["event"]
            if event.get("type") == "hand.cards_dealt":
                mine = [h for h in event.get("hands", []) if h]
                if mine:
                    self.dealt[frame["stream"]] = mine[0]
        elif kind in ("answer", "error"):
            fut = self.answers.pop(frame.get("command_id"), None)
            if fut is not None and not fut.done():
                fut.set_result(frame)

    async def send(self, command_id: str, body: dict[str, Any], wait: float) -> dict[str, Any]:
        """One try: the answer or error frame; ``Lost`` once the socket
        closed under it, ``TimeoutError`` after ``wait`` s."""
        from websockets.exceptions import ConnectionClosed

        fut: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        try:
            async with asyncio.timeout(wait):
                await self.up.wait()
                ws = self.ws
                if ws is None:
                    raise Lost()
                self.answers[command_id] = fut
                try:
                    await ws.send(json.dumps({"type": "act", "command_id": command_id, **body}))
                except ConnectionClosed:  # closed between the check and the send: a drop
                    raise Lost() from None
                return await fut
        finally:
            if self.answers.get(command_id) is fut:
                del self.answers[command_id]

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()
        if self.task is not None:
            try:
                await asyncio.wait_for(self.task, 5)
            except (TimeoutError, asyncio.CancelledError):
                self.task.cancel()


class Http:
    """One table's REST client: one connection through the proxy, kept
    alive, used by one call at a time (a driver's calls come one after
    another), each call in a thread of the bots' pool."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.conn: http.client.HTTPConnection | None = None

    def __call__(
        self, method: str, path: str, token: str | None, timeout: float,
        body: dict[str, Any] | None = None,
    ) -> tuple[int, dict[str, Any]]:  # fmt: skip
        """(status, JSON body); 0 and {} when the connection failed or the
        answer took longer than ``timeout`` s."""
        headers = {"Accept": "application/json"}
        if token is not None:
            headers["Authorization"] = f"Token {token}"
        data = None
        if body is not None:
            headers["Content-Type"] = "application/json"
            data = json.dumps(body).encode()
        for _ in range(2):
            fresh = self.conn is None
            if self.conn is None:
                self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout)
            elif self.conn.sock is not None:
                self.conn.sock.settimeout(timeout)
            try:
                self.conn.request(method, path, body=data, headers=headers)
                answer = self.conn.getresponse()
                raw = answer.read()
            except TimeoutError:
                self.close()
                return 0, {}
            except (OSError, http.client.HTTPException):
                self.close()
                if fresh:
                    return 0, {}
                continue  # the kept connection was closed meanwhile: once more, on a new one
            if answer.will_close:
                self.close()
            try:
                return answer.status, json.loads(raw)
            except ValueError:
                return answer.status, {}
        return 0, {}

    def close(self) -> None:
        if self.conn is not None:
            self.conn.close()
            self.conn = None


class Driver(TableBot):
    """One table's bots: its players' and a spectator's sockets, and the
    driver that acts for whoever is to act (over the sockets or REST)."""

    def __init__(self, room: Room, seeded: dict[str, Any], rng: random.Random, rest: bool) -> None:
        self.room = room
        self.id: int = seeded["table"]
        self.rng = rng
        self.rest = rest
        self.tokens = {p["id"]: p["token"] for p in seeded["players"]}
        self.players = {
            p["id"]: Feed(room, self.id, p["token"], p["id"]) for p in seeded["players"]
        }
        self.spectator = Feed(room, self.id, None, None)
        self.feeds = [*self.players.values(), self.spectator]
        self.view: dict[str, Any] | None = None
        self.left_to_clock: tuple[str, int] | None = None
        """The hand and version whose draw this driver leaves to the clock."""
        self.http = Http(room.proxy_port)

    async def get(self, token: str | None) -> dict[str, Any] | None:
        status, view = await asyncio.to_thread(
            self.http, "GET", f"/api/tables/{self.id}/", token, GET_TIMEOUT_S
        )
        return view if status == 200 else None

    async def run(self, until: float) -> None:
        await asyncio.sleep(self.rng.random() * PACE)
        next_at = self.room.now()
        while self.room.now() < until and not self.room.stopping:
            try:
                await self.step()
            except Exception as error:  # a bot's bug, not the service's: counted, shown
                self.room.errors.append(f"table {self.id}: {type(error).__name__}: {error}")
                self.view = None
            next_at = max(next_at + PACE, self.room.now())
            await asyncio.sleep(max(0.0, next_at - self.room.now()))
        self.http.close()

    async def step(self) -> None:
        view = self.view or await self.get(None)
        self.view = None
        if view is None:
            return
        for seat in view["seats"]:
            if seat.get("sitting_out") and seat.get("player") in self.tokens:
                await self.sit_in(seat["player"])
                return
        hand = view.get("hand")
        if hand is None or hand.get("to_act_seat") is None:
            return
        seat = next(s for s in view["seats"] if s["seat"] == hand["to_act_seat"])
        player = seat["player"]
        at = (hand["id"], hand["version"])
        if at == self.left_to_clock:
            return  # until the clock has acted (or anything else moved the hand)
        if hand["phase"] == "draw" and (self.room.idles == 0 or self.rng.random() < IDLE):
            # the draw clock stands him pat; the run's first draw always, so
            # every run has clocks to check, whatever the dice
            self.left_to_clock = at
            self.room.idles += 1
            return
        move = self.choose_public(hand, self.players[player])
        for _ in range(3):
            frame = await self.act(player, {"hand": hand["id"], "version": hand["version"], **move})
            if frame is None:
                return
            if frame.get("type") == "answer":
                self.view = frame["answer"]
                return
            self.room.refusals += 1  # stale (a clock acted first): his own menu
            mine = await self.get(self.tokens[player])
            hand = None if mine is None else mine.get("hand")
            if hand is None or hand.get("legal") is None:
                return
            move = self.choose_legal(hand)

    async def sit_in(self, player: int) -> None:
        body = {"command_id": str(uuid.uuid4())}
        path = f"/api/tables/{self.id}/sit-in/"
        status, _ = await asyncio.to_thread(
            self.http, "POST", path, self.tokens[player], GET_TIMEOUT_S, body
        )
        self.room.sit_ins += status == 200

    async def act(self, player: int, body: dict[str, Any]) -> dict[str, Any] | None:
        """Send the action until it is answered (the same command id each
        time); the answer or error frame, None if it was lost."""
        command_id = str(uuid.uuid4())
        sent = self.room.now()
        why: list[str] = []
        via = "rest" if self.rest else "ws"
        while (left := sent + RETRY_FOR_S - self.room.now()) > 0:
            frame = await (self._rest if self.rest else self._ws)(player, command_id, body, left)
            if not isinstance(frame, str):
                latency = self.room.now() - sent
                self.room.samples.append(Sample(sent, latency, via, self.id, tuple(why)))
                return frame
            why.append(frame)
            self.room.retried[frame] += 1
            await asyncio.sleep(0.3)
        self.room.lost.append(f"table {self.id} at {sent:.1f} s command {command_id}: {body}")
        return None

    async def _ws(
        self, player: int, command_id: str, body: dict[str, Any], wait: float
    ) -> dict[str, Any] | str:
        """The answer or error frame, or why there was none."""
        try:
            frame = await self.players[player].send(command_id, body, wait)
        except Lost:
            return "ws: socket closed"
        except TimeoutError:
            return "ws: no answer in time"
        except OSError as error:
            return f"ws: {type(error).__name__}"
        retry = ("server_error", "throttled", "unavailable")  # unavailable: PostgreSQL/Redis away
        if frame.get("type") == "error" and frame.get("code") in retry:
            return f"ws: {frame['code']}"
        return frame

    async def _rest(
        self, player: int, command_id: str, body: dict[str, Any], wait: float
    ) -> dict[str, Any] | str:
        """The answer or the refusal, or why there was neither."""
        path = f"/api/tables/{self.id}/actions/"
        status, answer = await asyncio.to_thread(
            self.http, "POST", path, self.tokens[player], wait, {"command_id": command_id, **body}
        )
        if status == 200:
            return {"type": "answer", "answer": answer}
        if status == 0 or status >= 500 or status == 429:
            return f"rest: {status or 'connection failed or no answer'}"
        return {"type": "error", **answer}
