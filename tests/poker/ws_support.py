"""Helpers for the WebSocket tests (tests/poker/test_ws_*.py): socket clients
that keep every frame they received, database helpers run the way the
consumers run them (``database_sync_to_async``, so frames published after a
commit reach the in-memory channel layer on the test's event loop), a
random-play driver, and what the event store says each viewer may see.
"""

from __future__ import annotations

import asyncio
import json
import random
import typing
import uuid
from collections import defaultdict
from typing import Any, NotRequired

from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.contrib.auth import get_user_model
from knox.models import AuthToken
from knox.settings import CONSTANTS

from accounts.tickets import TOKEN, Credential, ticket_issue
from config.asgi import application
from kernel.models import Command, Event
from poker import selectors, services
from poker.models import Hand, Table
from tests.funds import fund
from tests.poker.api_support import card_codes, random_action

ORIGIN = (b"origin", b"http://localhost")
HOST = (b"host", b"localhost")
"""A browser's page of this site: its Origin and the Host it connects to."""

# --------------------------------------------------------------------------
# Socket clients


class Client:
    """One WebSocket connection and everything it received, in order."""

    def __init__(self, path: str, *, user: Any = None, headers: list[Any] | None = None) -> None:
        self.path = path
        self.user = user
        self.comm = WebsocketCommunicator(
            application, path, headers=[ORIGIN, HOST] if headers is None else headers
        )
        self.frames: list[dict[str, Any]] = []
        self.closed: int | None = None

    @property
    def viewer(self) -> int | None:
        return None if self.user is None else self.user.pk

    async def open(self) -> tuple[bool, Any]:
        return await self.comm.connect(timeout=5)

    async def close(self) -> None:
        await self.comm.disconnect()

    async def refusal(self) -> tuple[int, str, dict[str, Any]]:
        """Open a socket the server refuses: it is accepted, gets one error
        frame and is closed at once.  (close code, close reason, frame)."""
        accepted, _ = await self.open()
        assert accepted, f"{self.path}: refused before acceptance, so no client learns why"
        frame = await self.next()
        closing = await self.comm.receive_output(5)
        assert closing["type"] == "websocket.close", closing
        return closing["code"], closing.get("reason", ""), frame

    def _take(self, message: dict[str, Any]) -> dict[str, Any] | None:
        if message["type"] == "websocket.close":
            self.closed = message.get("code", 1000)
            return None
        assert message["type"] == "websocket.send", message
        assert "text" in message, message
        frame = json.loads(message["text"])
        self.frames.append(frame)
        return frame

    async def next(self, timeout: float = 5) -> dict[str, Any]:
        """The next frame (waits for it)."""
        frame = self._take(await self.comm.receive_output(timeout))
        assert frame is not None, f"{self.path}: closed with {self.closed}"
        return frame

    async def pump(self) -> None:
        """Take whatever has arrived, without waiting."""
        await asyncio.sleep(0)
        while not self.comm.output_queue.empty():
            self._take(self.comm.output_queue.get_nowait())

    async def quiet(self, timeout: float = 0.15) -> None:
        """Take frames until none arrives for ``timeout`` seconds."""
        while not await self.comm.receive_nothing(timeout=timeout, interval=0.01):
            self._take(await self.comm.receive_output(1))

    async def has(self, frame: dict[str, Any], timeout: float = 10) -> None:
        """Take frames until ``frame`` is among them."""
        if frame not in self.frames:
            await self.until(lambda f: f == frame, timeout)

    async def until(self, done: Any, timeout: float = 10) -> dict[str, Any]:
        """Take frames until one satisfies ``done``; that frame."""
        async with asyncio.timeout(timeout):
            while True:
                frame = await self.next(timeout)
                if done(frame):
                    return frame

    async def until_position(self, position: int, timeout: float = 10) -> None:
        """Take frames until the public frame at ``position`` (or a snapshot
        at or past it) has arrived."""
        if any(_reached(f, position) for f in self.frames):
            return
        await self.until(lambda f: _reached(f, position), timeout)

    async def send(self, frame: Any) -> None:
        await self.comm.send_to(text_data=frame if isinstance(frame, str) else json.dumps(frame))

    async def request(self, frame: dict[str, Any], timeout: float = 10) -> dict[str, Any]:
        """Send a frame and wait for its answer, error or pong (frames that
        arrive meanwhile are kept)."""
        await self.send(frame)
        return await self.until(lambda f: f["type"] in ("answer", "error", "pong"), timeout)

    async def ping(self) -> dict[str, Any]:
        return await self.request({"type": "ping"})

    def of(self, *types: str) -> list[dict[str, Any]]:
        return [f for f in self.frames if f["type"] in types]

    def feed(self) -> list[dict[str, Any]]:
        """The event and private frames, in the order received."""
        return self.of("event", "private")

    def public_positions(self) -> list[int]:
        return [f["position"] for f in self.of("event")]


async def quiet_all(clients: Any, timeout: float = 0.15) -> None:
    """``Client.quiet`` for all of them at once: one quiet spell of
    ``timeout``, not one per client in turn (wait first for the frames
    that must come: this only takes what else may still be on its way)."""
    await asyncio.gather(*(client.quiet(timeout) for client in clients))


def _reached(frame: dict[str, Any], position: int) -> bool:
    return (frame["type"] == "event" and frame["position"] == position) or (
        frame["type"] == "snapshot" and frame["position"] >= position
    )


def declared_keys(kind: Any) -> tuple[frozenset[str], frozenset[str]]:
    """The keys a frame's ``TypedDict`` declares: (required, all).  Read
    from its annotations: under ``from __future__ import annotations``
    Python 3.11 counts a ``NotRequired`` key among ``__required_keys__``."""
    hints = typing.get_type_hints(kind, include_extras=True)
    optional = {key for key, hint in hints.items() if typing.get_origin(hint) is NotRequired}
    optional |= kind.__optional_keys__  # total=False
    return frozenset(hints) - optional, frozenset(hints)


def assert_declared(frame: dict[str, Any], kind: Any, *sections: Any) -> None:
    """``frame``, as a socket received it, has every key its ``TypedDict``
    ``kind`` requires and no key it does not declare, but the keys of the
    ``sections`` other apps add beside (the lobby snapshot's), each there."""
    beside = {key for section in sections for key in declared_keys(section)[1]}
    assert beside <= set(frame), (sorted(beside - set(frame)), frame)
    frame = {key: value for key, value in frame.items() if key not in beside}
    required, known = declared_keys(kind)
    kinds = typing.get_args(typing.get_type_hints(kind)["type"])
    assert frame["type"] in kinds, (kind.__name__, frame)
    keys = set(frame)
    assert required <= keys, (kind.__name__, sorted(required - keys), frame)
    assert keys <= known, (kind.__name__, sorted(keys - known), frame)


def table_path(table: int, *, ticket: str | None = None, after: int | None = None) -> str:
    query = []
    if after is not None:
        query.append(f"after={after}")
    if ticket is not None:
        query.append(f"ticket={ticket}")
    return f"/ws/tables/{table}/" + ("?" + "&".join(query) if query else "")


async def table_client(
    table: int, user: Any = None, *, after: int | None = None, snapshot: bool = True
) -> Client:
    """A connected table socket (a ticket for a user); with ``snapshot``
    its first frame, the snapshot, already taken."""
    ticket = None if user is None else await ticket_for(user)
    client = Client(table_path(table, ticket=ticket, after=after), user=user)
    accepted, _ = await client.open()
    assert accepted, client.path
    if snapshot:
        first = await client.next()
        assert first["type"] == "snapshot", first
    return client


async def me_client(user: Any) -> Client:
    """A player's own stream, its first frame (his wallet now) taken."""
    client = Client(f"/ws/me/?ticket={await ticket_for(user)}", user=user)
    accepted, _ = await client.open()
    assert accepted
    first = await client.next()
    assert first["type"] == "wallet" and first["wallet"]["user"] == user.pk, first
    return client


def act_frame(hand: dict[str, Any], **body: Any) -> dict[str, Any]:
    """An act frame at the version ``hand`` (a hand view) shows."""
    return {
        "type": "act",
        "hand": hand["id"],
        "version": hand["version"],
        "command_id": str(uuid.uuid4()),
        **body,
    }


# --------------------------------------------------------------------------
# The database, as the consumers use it


@database_sync_to_async
def make_users(*names: str) -> list[Any]:
    users = get_user_model()
    return [fund(users.objects.create_user(n)) for n in names]


@database_sync_to_async
def token_for(user: Any) -> str:
    """A new API token of ``user`` (as a login makes one)."""
    return str(AuthToken.objects.create(user=user)[1])


@database_sync_to_async
def ticket_for(user: Any, token: str | None = None) -> str:
    """A WebSocket ticket of ``user``, as ``POST /api/ws-ticket/`` gives
    one for his API token ``token`` (a new one if None)."""
    key = token or str(AuthToken.objects.create(user=user)[1])
    row = AuthToken.objects.get(token_key=key[: CONSTANTS.TOKEN_KEY_LENGTH])
    return ticket_issue(Credential(user.pk, TOKEN, row.digest))


@database_sync_to_async
def open_table(**settings: Any) -> int:
    users = get_user_model()
    boss = users.objects.filter(username="boss").first() or users.objects.create_user(
        "boss", is_staff=True
    )
    body = {
        "name": "Main",
        "game": "32-card-draw",
        "betting": "no-limit",
        "small_blind": 1,
        "big_blind": 2,
        **settings,
    }
    return int(services.table_create(by=boss, **body).pk)


async def seat_all(table: int, users: list[Any], buy_in: int = 200) -> None:
    for seat, user in enumerate(users, start=1):
        await database_sync_to_async(services.seat_sit)(
            by=user, table_id=table, seat=seat, buy_in=buy_in, command_id=uuid.uuid4()
        )


@database_sync_to_async
def view_of(table: int, user: Any = None) -> dict[str, Any]:
    """The table as ``user`` sees it (what GET /api/tables/<id>/ answers)."""
    return json.loads(json.dumps(selectors.table_view(Table.objects.get(pk=table), user)))


@database_sync_to_async
def position_of_table(table: int) -> int:
    return int(Table.objects.get(pk=table).position)


@database_sync_to_async
def written() -> dict[str, Any]:
    """What a refused command must leave as it was."""
    return {
        "events": Event.objects.count(),
        "commands": Command.objects.count(),
        "tables": list(Table.objects.order_by("id").values("id", "version", "position")),
        "hands": list(Hand.objects.order_by("id").values("id", "version")),
    }


async def actor(table: int, users: list[Any]) -> tuple[Any, dict[str, Any]] | None:
    """The user whose turn it is and his view (None: no hand to act in)."""
    public = await view_of(table)
    hand = public["hand"]
    if hand is None or hand["phase"] == "complete" or hand["to_act_seat"] is None:
        return None
    pk = next(s["player"] for s in public["seats"] if s["seat"] == hand["to_act_seat"])
    user = next(u for u in users if u.pk == pk)
    return user, await view_of(table, user)


async def keep_stacks(table: int, users: list[Any], low: int = 60, high: int = 200) -> None:
    """Top up anyone whose stack (with what is queued) fell under ``low``."""
    for seat in (await view_of(table))["seats"]:
        have = seat["stack"] + seat["top_up_queued"]
        if have < low and not seat["leaving"]:
            user = next(u for u in users if u.pk == seat["player"])
            await database_sync_to_async(services.seat_top_up)(
                by=user, table_id=table, amount=high - have, command_id=uuid.uuid4()
            )


async def play(table: int, users: list[Any], rng: random.Random, acts: int) -> None:
    """``acts`` random legal actions through the service (as REST would)."""
    for _ in range(acts):
        turn = await actor(table, users)
        if turn is None:
            await keep_stacks(table, users)
            turn = await actor(table, users)
            assert turn is not None, "no hand is running"
        user, view = turn
        body = random_action(rng, view["hand"])
        await database_sync_to_async(services.hand_act)(
            by=user,
            table_id=table,
            hand=view["hand"]["id"],
            version=view["hand"]["version"],
            command_id=uuid.uuid4(),
            **body,
        )


# --------------------------------------------------------------------------
# What the event store says each viewer may see


class Store:
    """A table's feed as stored, and the cards each viewer may see of each
    hand at each version: his own dealt, discarded and drawn cards and the
    hands shown, nothing else."""

    def __init__(self, table: int) -> None:
        rows = Event.objects.filter(feed=table).order_by("position")
        self.rows = list(rows.values("stream", "version", "type", "data", "position"))
        self.at = {r["position"]: r for r in self.rows}
        self.hands: dict[str, list[dict[str, Any]]] = defaultdict(list)
        for row in self.rows:
            if row["stream"].startswith("hand-"):
                self.hands[row["stream"]].append(row)
        self._seen: dict[tuple[str, int | None], list[frozenset[str]]] = {}

    @property
    def last(self) -> int:
        return self.rows[-1]["position"] if self.rows else 0

    def names(self, stream: str) -> list[str]:
        return [p["name"] for p in self.hands[stream][0]["data"]["players"]]

    def seat_in(self, stream: str, viewer: int | None) -> int | None:
        """The viewer's position in a hand (None: not dealt in, or nobody)."""
        names = self.names(stream)
        return None if viewer is None or str(viewer) not in names else names.index(str(viewer))

    def visible(self, stream: str, version: int, position: int | None) -> frozenset[str]:
        key = (stream, position)
        if key not in self._seen:
            seen: set[str] = set()
            out = [frozenset()]
            for row in self.hands[stream]:
                data, kind = row["data"], row["type"]
                if kind == "hand.cards_dealt" and position is not None:
                    seen.update(data["hands"][position])
                elif kind == "hand.shown" or (
                    kind in ("hand.discarded", "hand.cards_drawn") and data["player"] == position
                ):
                    seen.update(data["cards"])
                out.append(frozenset(seen))
            self._seen[key] = out
        return self._seen[key][version]

    def owners(self, viewer: int | None) -> list[int]:
        """Positions of the events that have a private frame for ``viewer``."""
        out = []
        for row in self.rows:
            if not row["stream"].startswith("hand-") or viewer is None:
                continue
            me = self.seat_in(row["stream"], viewer)
            if me is None:
                continue
            if row["type"] == "hand.cards_dealt" or (
                row["type"] in ("hand.discarded", "hand.cards_drawn")
                and row["data"]["player"] == me
                and row["data"]["cards"]
            ):
                out.append(row["position"])
        return out

    def allowed(self, frame: dict[str, Any], viewer: int | None) -> frozenset[str]:
        """The cards ``frame`` may name for ``viewer``."""
        kind = frame["type"]
        if kind in ("event", "private"):
            stream = frame["stream"]
            if stream.startswith("table-"):
                return frozenset()
            # A public frame is for everyone: a spectator's cards only.
            who = self.seat_in(stream, viewer) if kind == "private" else None
            return self.visible(stream, frame["version"], who)
        view = _view_in(frame)
        if view is None or view["hand"] is None:
            return frozenset()
        hand = view["hand"]
        stream = f"hand-{hand['id']}"
        mine = None if hand["your_seat"] is None else hand["seats"].index(hand["your_seat"])
        assert mine == self.seat_in(stream, viewer), (hand, viewer)
        return self.visible(stream, hand["version"], mine)


def _view_in(frame: dict[str, Any]) -> dict[str, Any] | None:
    if frame["type"] == "snapshot":
        return frame["view"]
    if frame["type"] == "answer":
        return frame["answer"]
    if frame["type"] == "error":
        return frame.get("current")
    return None


def keys_in(value: Any) -> set[str]:
    """Every key anywhere in a JSON value."""
    if isinstance(value, dict):
        return set(value).union(*(keys_in(v) for v in value.values()))
    if isinstance(value, list):
        return set().union(*(keys_in(v) for v in value))
    return set()


def named_cards(frame: dict[str, Any]) -> set[str]:
    """Every card code in a frame's JSON text, leaving out the command id and
    a wallet entry's transfer id (a UUID may spell ``9c3d``)."""
    frame = json.loads(json.dumps(frame))
    frame.pop("command_id", None)
    if frame["type"] == "wallet" and frame["entry"] is not None:
        frame["entry"].pop("transfer")  # a UUID too
    return card_codes(json.dumps(frame))


def leaks(store: Store, client: Client) -> list[tuple[dict[str, Any], set[str]]]:
    """Frames of ``client`` that name cards it may not see, with those cards;
    also any frame carrying a deck, a seed or a reveal (nobody may have
    them, during the hand or after it)."""
    out = []
    for frame in client.frames:
        bad = named_cards(frame) - store.allowed(frame, client.viewer)
        if keys_in(frame) & {"deck", "seed", "reveal"}:
            bad.add("<deck/seed/reveal>")
        if bad:
            out.append((frame, bad))
    return out
