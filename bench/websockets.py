# ruff: noqa: E501, SIM102, SIM105, B023  (report strings; drain closures finish inside their loop pass)
"""WebSocket fan-out: bots playing many tables over real sockets through
two ASGI server processes, the Redis channel layer and PostgreSQL; and the
bare channel layer as the limit.

Why: every action is committed, then its frames go through channels-redis
to every socket of the table (5 players and a spectator), whichever server
process holds it.  The goal (issue 12): act-to-frame p99 under 50 ms at
``GOAL_TABLES`` (200) tables of 5 with a spectator each, on 2 ASGI
processes, the bots in a process of their own, and zero missed versions;
the curve at 10, 50, 100, 200, 400 and 800 tables (``WSBENCH_SCALES``).
Past what 2 cores serve (400 and 800 tables) the figures are bad and are
printed as they are: the missed versions, the commands answered
``unavailable``, the acts never answered (``ANSWER_SECONDS``), p50/p99
and the CPU per action; each scale's wall time (connect, play, close) is
printed with it, to plan a full curve.

Set-up (nothing of the developer's is touched):

- PostgreSQL database ``pokerroom_wsbench_<pid>``, the run's own (or the
  one ``WSBENCH_DATABASE_URL`` names), dropped and created, migrated with
  ``manage.py migrate`` and seeded in a subprocess of this module
  (``seed``): ``max(SCALES)`` tables of 32 Card Draw no limit 1/2, 5
  players each on deep stacks, API tokens; dropped at the end.
- Redis database ``REDIS_DB`` (5) of ``WSBENCH_REDIS_URL``'s server, under
  a key prefix of the run's own (channel layer, cache, clock timer queue),
  deleted at the end; the channel layer of the servers.
- ``SERVERS`` (2) ASGI server processes: ``uvicorn config.asgi:application``,
  one process each on a free port of 127.0.0.1, ``DEBUG=false``,
  ``CONN_MAX_AGE=60`` (the single thread of ``database_sync_to_async``
  keeps its connection), stopped at the end.
  Their options are the deployed ones (``deploy/``: uvicorn's own
  WebSocket implementation, ``websockets-sansio``, frames uncompressed);
  ``WSBENCH_SERVER_ARGS`` adds more, to compare settings.

Which server a table's sockets (and its REST view fetches) reach
(``WSBENCH_ROUTING``): ``table`` (the default) sends them all to one
server (chosen by the table id, as the deploy's nginx chooses one by a
hash of it), so an action finds the table as its server last wrote it and
may go as one statement; ``spread`` puts a table's sockets on the servers in turn (its
REST fetches on the first), so its actions reach a server that did not
write it last and its frames always cross the channel layer;
``table,spread`` plays each scale both ways, back to back on the same
servers, to compare them.

Per scale: every player of each table and one spectator per table open
``ws/tables/<id>/?ticket=..`` (a ticket asked with the player's API token) from this process, the bots' own (one asyncio
loop, the ``websockets`` library, ``Origin: http://127.0.0.1:<port>``),
each starting from a snapshot.  Each table's driver makes one action a second:
the player to act (from the previous answer's view) sends an ``act`` over
his own socket and waits for the answer.  The move is chosen from the
public view of the hand (check, call or sometimes fold; stand or discard
1-2 of his own cards, known from his private deal frame; show); on a
refusal the player fetches his view over REST and picks from its ``legal``
menu.  ``WARMUP`` s unrecorded, then ``DURATION`` s measured.

Quick runs: ``WSBENCH_SCALES=2 WSBENCH_WARMUP=0.5 WSBENCH_DURATION=2
WSBENCH_LAYER_SECONDS=0`` (the last skips the bare channel layer).

Latency measured: from just before the acting client sends the ``act``
frame to the arrival of the public frame of the action's own event (its
hand stream at the acted version + 1) at each subscriber of the table, all
six sockets, client clock (one process).  Reported per
subscriber (p50/p99 over every subscriber x action) and per action at the
last of its six subscribers.  Also the act -> answer time.  Missed
versions: each client's public frame positions must be consecutive from
its snapshot's position.

Server CPU: the servers' process CPU time (``/proc``) over the play
(warm-up and measure) per action answered in it, the cost of an action on
the whole live path (the command, the channel layer's receive, cutting and
sending the frames).  ``WSBENCH_PROFILE=200`` samples the first server with
py-spy at that scale, if installed (``pip install py-spy``).

Where a slow action's time went (``WSBENCH_TRACE``, on by default): the
servers run with ``LIVE_TRACE`` (``kernel/stalls.py``) and write a line per
stage with wall-clock times and the command id (the act frame read, the
command's start and end on a database thread, its frames' PUBLISH, each
server's decoding of them), each collector pause and each loop lag; the
clients note when each socket got the frame, this process's own collector
pauses (``gc.callbacks``) and loop lags.  For the slowest ``SLOWEST`` % of
actions (by the last of their six sockets) the report prints each stage,
what paused meanwhile in which process, whether the action ended its hand,
the same stages' medians over every action, and when the stalls fell.
Every process is on one host, so their wall clocks agree.  Tables keep
their own phase (a late action skips its slot rather than moving the next),
and this process freezes what it built before play (``gc.freeze``).

Channel layer: a ``RedisPubSubChannelLayer`` of its own (the servers'
Redis, channels under a prefix of its own) with a group of 5 channels,
group_send at a steady ``LAYER_RATES`` for ``LAYER_SECONDS`` each,
receivers draining, latency send -> receive; then a flood of ``FLOOD``
messages into the group with nobody receiving, and how many each channel
gets afterwards (pub/sub: the process's own queues keep them).
"""

from __future__ import annotations

import asyncio
import gc
import itertools
import json
import math
import os
import random
import re
import resource
import secrets
import signal
import socket
import statistics
import subprocess
import sys
import time
import urllib.error
import urllib.request
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from prometheus_client.parser import text_string_to_metric_families

from bench.service import drop_database, recreate_database, run_database_url
from bench.tickets import ws_ticket

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_DB_NAME = "pokerroom_wsbench"
DEFAULT_REDIS = "redis://127.0.0.1:6379"
REDIS_DB = 5
ROUTINGS = tuple(os.environ.get("WSBENCH_ROUTING", "table").split(","))
"""How each scale places a table's sockets: ``table`` and/or ``spread`` (module docstring)."""
SCALES = tuple(int(n) for n in os.environ.get("WSBENCH_SCALES", "10,50,100,200,400,800").split(","))
GOAL_TABLES = 200
"""The scale the goal is judged at."""
PLAYERS = 5
SERVERS = 2
WARMUP = float(os.environ.get("WSBENCH_WARMUP", "3"))
DURATION = float(os.environ.get("WSBENCH_DURATION", "12"))
PACE = 1.0
"""Seconds between two actions of one table."""
CONNECT_CONCURRENCY = 50
"""Sockets opening at once (each with its ticket): at 800 tables 4,800
sockets, which all at once would be a connect storm of the bench's own."""
SEED_SECONDS = 600.0
SEED_SECONDS_PER_TABLE = 2.0
"""How long seeding may take: 400 tables took 204 s on a loaded 2-core box."""
CONNECT_TRIES = 3
"""Tries a socket gets to open (its ticket, then the handshake), a second
apart and then two, as a client connects again after a ``503`` or a
refused handshake: a box loaded by the connect storm of the largest
scales refuses a few (PostgreSQL out of connections)."""
ANSWER_SECONDS = 30.0
"""How long an act waits for its answer before it counts as unanswered."""
FILES_PER_TABLE = 2 * (PLAYERS + 1)
"""File descriptors a table takes at most: its sockets' client ends in
this process and server ends in the servers (they share the limit set
here)."""
STACK = 100_000_000
GOAL_MS = 50.0
LAYER_RATES = (200, 1000)
LAYER_SECONDS = float(os.environ.get("WSBENCH_LAYER_SECONDS", "5"))
"""Seconds of each steady rate of the bare channel layer (0: not measured)."""
FLOOD = 1000
SERVER_ARGS = tuple(os.environ.get("WSBENCH_SERVER_ARGS", "").split())
"""More uvicorn options (the last of an option given twice wins), to compare
settings such as ``--ws wsproto`` or ``--ws-per-message-deflate false``."""
SEED = 20_240_611
TRACE = os.environ.get("WSBENCH_TRACE", "1") != "0"
"""Servers write trace lines (``LIVE_TRACE``, ``kernel.stalls``) and the
report shows where the slowest actions' time went (0: off)."""
SLOWEST = 1.0
"""The percentage of slowest actions whose time is broken down."""
DUMP = os.environ.get("WSBENCH_DUMP", "")
"""A path prefix: each scale's actions, stages and pauses as JSON to
``<prefix>-<tables>-<routing>.json``, to study them further."""
SERVER_ROOT = Path(os.environ.get("WSBENCH_SERVER_ROOT") or Path(__file__).resolve().parents[1])
"""The tree (with its ``.venv``) the servers, the migration and the seeding
run from: another worktree (an older main) measures its servers with this
bench's clients.  Its servers write no trace lines unless it has them."""
WALL_OFFSET = time.time() - time.perf_counter()


def wall_of(perf: float) -> float:
    """A ``perf_counter`` reading as wall clock (the servers' trace lines)."""
    return perf + WALL_OFFSET


class GcPauses:
    """This process's collector pauses: (generation, wall start, seconds)."""

    def __init__(self) -> None:
        self.pauses: list[tuple[int, float, float]] = []
        self._start = 0.0

    def __call__(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            self._start = time.perf_counter()
        else:
            took = time.perf_counter() - self._start
            self.pauses.append((info["generation"], wall_of(self._start), took))


CLIENT_GC = GcPauses()


# --------------------------------------------------------------------------
# Processes: database, seeding, servers


def server_python() -> str:
    """The interpreter of ``SERVER_ROOT``'s venv (this one's for this tree)."""
    other = SERVER_ROOT / ".venv" / "bin" / "python"
    return str(other) if SERVER_ROOT != ROOT and other.exists() else sys.executable


def child_env(**more: str) -> dict[str, str]:
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith("DJANGO_") and k not in ("DATABASE_URL", "REDIS_URL")
    }
    env.update(DJANGO_SETTINGS_MODULE="config.settings", PYTHONUNBUFFERED="1", **more)
    return env


def migrate_and_seed(url: str, tables: int, migrate: bool = True) -> list[dict[str, Any]]:
    env = child_env(DATABASE_URL=url)
    if migrate:
        subprocess.run(
            [server_python(), "manage.py", "migrate", "--noinput", "-v0"],
            cwd=SERVER_ROOT,
            env=env,
            check=True,
            timeout=300,
        )
    done = subprocess.run(
        [server_python(), "-m", "bench.websockets", "seed", str(tables)],
        cwd=SERVER_ROOT,
        env=env,
        capture_output=True,
        check=False,
        timeout=SEED_SECONDS + SEED_SECONDS_PER_TABLE * tables,
    )
    if done.returncode:
        raise RuntimeError(f"seeding failed:\n{done.stderr.decode()[-3000:]}")
    seeded: list[dict[str, Any]] = json.loads(done.stdout.decode().strip().splitlines()[-1])
    return seeded


def seed(count: int) -> None:
    """In a subprocess (DATABASE_URL set, no REDIS_URL: nothing published
    anywhere): tables, players, tokens, seats.  Prints one JSON line."""
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from knox.models import AuthToken

    from accounts import money
    from poker import services

    users = get_user_model()
    boss = users.objects.create_user("wsboss", is_staff=True)
    out = []
    for t in range(count):
        table = services.table_create(
            by=boss,
            name=f"ws bench {t}",
            game="32-card-draw",
            betting="no-limit",
            small_blind=1,
            big_blind=2,
            min_buy_in=20,
            max_buy_in=None,
            pause_seconds=0,  # hands back to back: the benchmark measures play
        )
        players = []
        for seat in range(1, PLAYERS + 1):
            user = users.objects.create_user(f"ws{t}s{seat}")
            _, token = AuthToken.objects.create(user=user)
            money.wallet_deposit(transfer_id=uuid.uuid4(), user_id=user.pk, amount=STACK)
            services.seat_sit(
                by=user, table_id=table.pk, seat=seat, buy_in=STACK, command_id=uuid.uuid4()
            )
            players.append({"id": user.pk, "token": token, "seat": seat})
        out.append({"table": table.pk, "players": players})
    print(json.dumps(out), flush=True)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class Server:
    """One uvicorn process (no ``--workers``: the process is the server)."""

    def __init__(self, db_url: str, redis_url: str, prefix: str) -> None:
        self.port = free_port()
        self.log_path = Path(f"/tmp/wsbench-uvicorn-{self.port}.log")
        self.env = child_env(
            DATABASE_URL=db_url,
            REDIS_URL=redis_url,
            DEBUG="false",
            SECRET_KEY=secrets.token_urlsafe(40),
            ALLOWED_HOSTS="127.0.0.1,localhost",
            LOG_LEVEL="WARNING",
            CONN_MAX_AGE="60",
            CHANNEL_LAYER_PREFIX=prefix,
            CACHE_KEY_PREFIX=prefix,
            CLOCK_QUEUE=prefix,
            LIVE_TRACE="true" if TRACE else "false",
        )
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        """Start the process (``wait`` until it answers)."""
        log = self.log_path.open("wb")
        self.process = subprocess.Popen(
            [
                server_python(),
                "-m",
                "uvicorn",
                "config.asgi:application",
                "--host",
                "127.0.0.1",
                "--port",
                str(self.port),
                "--lifespan",
                "off",
                "--no-access-log",
                "--log-level",
                "warning",
                "--backlog",
                "4096",
                "--ws-per-message-deflate",
                "false",
                "--ws-max-size",
                "16384",
                *SERVER_ARGS,
            ],
            cwd=SERVER_ROOT,
            env=self.env,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )

    def wait(self) -> None:
        assert self.process is not None
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"uvicorn exited:\n{self.tail()}")
            try:
                with urllib.request.urlopen(self.http + "/api/health/", timeout=1) as answer:
                    if json.load(answer) == {"status": "ok"}:
                        return
            except (OSError, ValueError):
                time.sleep(0.2)
        raise RuntimeError(f"uvicorn never answered:\n{self.tail()}")

    @property
    def http(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def pids(self) -> list[int]:
        if self.process is None:
            return []
        out = [self.process.pid]
        try:
            children = Path(f"/proc/{self.process.pid}/task/{self.process.pid}/children")
            out += [int(p) for p in children.read_text().split()]
        except OSError:
            pass
        return out

    def cpu_seconds(self) -> float:
        total = 0.0
        tick = os.sysconf("SC_CLK_TCK")
        for pid in self.pids():
            try:
                fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
                total += (int(fields[11]) + int(fields[12])) / tick
            except (OSError, IndexError, ValueError):
                pass
        return total

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)  # the master stops its workers
            try:
                self.process.wait(15)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait(10)

    def tail(self, size: int = 3000) -> str:
        try:
            return self.log_path.read_text(errors="replace")[-size:]
        except OSError:
            return ""

    def crashes(self) -> int:
        """'Exception in ASGI application' in the log so far (cumulative)."""
        return self.tail(10**8).count("Exception in ASGI application")

    def errors_logged(self) -> int:
        text = self.tail(10**7)
        return text.count("Traceback") + text.count("ERROR")


def one_statement_counts(servers: list[Server]) -> dict[str, float] | None:
    """The servers' actions tried as one statement so far, by outcome
    (``poker_one_statement_total`` on their ``/metrics``), or None when a
    server's could not be read.  Where a table's sockets are spread over
    the servers, an action often reaches the one that did not write the
    table last: its held work is stale (``declined`` or ``conflict``)."""
    total: dict[str, float] = {}
    for server in servers:
        try:
            with urllib.request.urlopen(server.http + "/metrics", timeout=15) as answer:
                text = answer.read().decode()
        except OSError:
            return None
        for family in text_string_to_metric_families(text):
            for sample in family.samples:
                if (
                    sample.name == "poker_one_statement_total"
                    and sample.labels["kind"] == "hand.act"
                ):
                    outcome = sample.labels["outcome"]
                    total[outcome] = total.get(outcome, 0.0) + sample.value
    return total


def get_view(http: str, table: int, token: str | None) -> dict[str, Any]:
    headers = {"Accept": "application/json"}
    if token is not None:
        headers["Authorization"] = f"Token {token}"
    req = urllib.request.Request(f"{http}/api/tables/{table}/", headers=headers)
    with urllib.request.urlopen(req, timeout=15) as answer:
        view: dict[str, Any] = json.load(answer)
        return view


# --------------------------------------------------------------------------
# Clients


@dataclass
class Act:
    seq: int
    sent: float
    position: int
    """The table's feed position (highest seen by its clients) at send time."""
    command_id: str = ""
    wall: float = 0.0
    """Wall clock at send (the servers' trace lines are in wall clock)."""
    action: str = ""
    server: int = 0
    """Index of the server the actor's socket is on."""
    ended: bool = False
    """The answer shows another hand: this action ended its hand."""
    arrivals: list[tuple[int, float]] = field(default_factory=list)
    """(server index of the socket, wall clock) of each subscriber's receipt."""


class Client:
    def __init__(
        self, bench: Bench, table: TableBot, token: str | None, player: int | None, server: Server
    ):
        self.bench = bench
        self.server = server
        self.table = table
        self.token = token
        self.player = player
        self.ws: Any = None
        self.reader: asyncio.Task[None] | None = None
        self.snapshot_position: int | None = None
        self.snapshot: dict[str, Any] | None = None
        self.positions: list[int] = []
        self.measured_seq = 0
        self.answers: dict[str, asyncio.Future[dict[str, Any]]] = {}
        self.dealt: dict[str, list[str]] = {}
        """Own cards by hand stream, from private deal frames."""
        self.closed_early = False

    async def open(self) -> None:
        port = self.server.port
        url = f"ws://127.0.0.1:{port}/ws/tables/{self.table.id}/"
        if self.token:
            ticket = await asyncio.to_thread(ws_ticket, self.server.http, self.token)
            url += f"?ticket={ticket}"
        from websockets.asyncio.client import connect

        self.ws = await connect(
            url,
            origin=f"http://127.0.0.1:{port}",
            open_timeout=60,
            max_size=2**22,
            ping_interval=None,
        )
        self.reader = asyncio.create_task(self.read())

    async def read(self) -> None:
        from websockets.exceptions import ConnectionClosed

        try:
            async for raw in self.ws:
                now = time.perf_counter()
                frame = json.loads(raw)
                kind = frame.get("type")
                if kind == "event":
                    self.on_public(frame, now)
                elif kind == "private":
                    ev = frame["event"]
                    if ev.get("type") == "hand.cards_dealt":
                        # by seat: {"seat", "cards", "count"}, cards only his own
                        mine = [h["cards"] for h in ev.get("hands", []) if h.get("cards")]
                        if mine:
                            self.dealt[frame["stream"]] = mine[0]
                elif kind in ("answer", "error"):
                    fut = self.answers.pop(frame.get("command_id"), None)
                    if fut is not None and not fut.done():
                        fut.set_result(frame)
                    elif kind == "error":
                        self.bench.stray_errors += 1
                elif kind == "snapshot":
                    self.snapshot_position = frame["position"]
                    self.snapshot = frame["view"]
                    self.table.seen(frame["position"])
        except ConnectionClosed:
            pass
        finally:
            if not self.bench.closing:
                self.closed_early = True

    def on_public(self, frame: dict[str, Any], now: float) -> None:
        position = frame["position"]
        self.positions.append(position)
        self.table.seen(position)
        act = self.table.acts.get((frame["stream"], frame["version"]))
        if act is not None:
            if self.bench.in_window(act.sent):
                act.arrivals.append((self.bench.servers.index(self.server), wall_of(now)))
                latency = now - act.sent
                self.bench.latencies.append(latency)
                worst = self.table.worst.get(act.seq, 0.0)
                self.table.worst[act.seq] = max(worst, latency)
                self.table.arrivals[act.seq] = self.table.arrivals.get(act.seq, 0) + 1
        if (
            self.player is None
            and frame["event"].get("type") == "hand.started"
            and self.bench.in_window(now)
        ):
            self.bench.hands += 1

    def missed(self) -> int:
        """Positions skipped (or repeated/out of order) after the snapshot."""
        expected = self.snapshot_position
        bad = 0
        for p in self.positions:
            if expected is not None and p != expected + 1:
                bad += 1
            expected = p
        return bad

    async def act(self, body: dict[str, Any], command_id: str) -> dict[str, Any]:
        fut: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self.answers[command_id] = fut
        await self.ws.send(json.dumps({"type": "act", "command_id": command_id, **body}))
        try:
            return await asyncio.wait_for(fut, ANSWER_SECONDS)
        except TimeoutError:
            self.answers.pop(command_id, None)
            self.bench.unanswered += 1
            raise

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()
        if self.reader is not None:
            try:
                await asyncio.wait_for(self.reader, 10)
            except (TimeoutError, asyncio.CancelledError):
                pass


class TableBot:
    def __init__(self, bench: Bench, seeded: dict[str, Any], rng: random.Random) -> None:
        self.bench = bench
        self.id: int = seeded["table"]
        self.rng = rng
        servers = bench.servers
        if bench.routing == "table":
            servers = [servers[self.id % len(servers)]]
        self.home = servers[0]
        """Where its REST view fetches go."""
        self.players = {
            p["id"]: Client(bench, self, p["token"], p["id"], servers[i % len(servers)])
            for i, p in enumerate(seeded["players"])
        }
        self.spectator = Client(bench, self, None, None, servers[len(self.players) % len(servers)])
        self.clients = [*self.players.values(), self.spectator]
        self.position = 0
        self.acts: dict[tuple[str, int], Act] = {}
        """Each action by the (hand stream, version) of its own event."""
        self.seq = 0
        self.worst: dict[int, float] = {}
        self.arrivals: dict[int, int] = {}
        self.view: dict[str, Any] | None = None

    def seen(self, position: int) -> None:
        self.position = max(self.position, position)

    async def run(self, t_end: float) -> None:
        await asyncio.sleep(self.rng.random() * PACE)
        self.view = self.spectator.snapshot
        next_at = time.perf_counter()
        while True:
            now = time.perf_counter()
            if next_at > now:
                await asyncio.sleep(next_at - now)
            if time.perf_counter() >= t_end:
                return
            # The table's own phase, a slot skipped when late: a slow action
            # never lines tables up (all their players' commands at one
            # server at once, every second after).
            next_at += PACE * max(1, math.ceil((time.perf_counter() - next_at) / PACE))
            try:
                await self.one_action()
            except Exception as error:
                self.bench.failures.append(f"table {self.id}: {type(error).__name__}: {error}")
                self.view = None

    async def one_action(self) -> None:
        for attempt in range(4):
            view = self.view
            hand = None if view is None else view.get("hand")
            if hand is None or hand.get("to_act_seat") is None:
                self.bench.view_fetches += 1
                view = await asyncio.to_thread(get_view, self.home.http, self.id, None)
                self.view = view
                hand = view.get("hand")
                if hand is None or hand.get("to_act_seat") is None:
                    await asyncio.sleep(0.2)
                    continue
            seat = next(s for s in view["seats"] if s["seat"] == hand["to_act_seat"])
            client = self.players[seat["player"]]
            if attempt == 0:
                move = self.choose_public(hand, client)
            else:  # after a refusal: the player's own view and menu over REST
                self.bench.view_fetches += 1
                mine = await asyncio.to_thread(get_view, self.home.http, self.id, client.token)
                hand = mine["hand"]
                if hand is None or hand.get("legal") is None:
                    self.view = mine
                    continue
                move = self.choose_legal(hand)
            self.seq += 1
            command_id = str(uuid.uuid4())
            sent = time.perf_counter()
            record = self.acts[(f"hand-{hand['id']}", hand["version"] + 1)] = Act(
                self.seq,
                sent,
                self.position,
                command_id,
                wall_of(sent),
                move["action"],
                self.bench.servers.index(client.server),
            )
            frame = await client.act(
                {"hand": hand["id"], "version": hand["version"], **move}, command_id
            )
            done = time.perf_counter()
            if frame["type"] == "answer":
                self.bench.answered += 1
                now_hand = (frame["answer"].get("hand") or {}).get("id")
                record.ended = now_hand != hand["id"]
                if self.bench.in_window(sent):
                    self.bench.actions += 1
                    self.bench.answer_latencies.append(done - sent)
                    self.bench.acts_sent.append((self.id, self.seq))
                    self.bench.measured.append((record, done - sent))
                self.view = frame["answer"]
                return
            if frame.get("code") == "unavailable":
                self.bench.unavailable += 1
            else:
                self.bench.refusals += 1
            if len(self.bench.refusal_samples) < 5:
                self.bench.refusal_samples.append(
                    f"{move} -> {frame.get('code')}: {str(frame.get('message'))[:120]}"
                )
            self.view = None
        raise RuntimeError("no action after 4 attempts")

    def choose_public(self, hand: dict[str, Any], client: Client) -> dict[str, Any]:
        legal = hand.get("legal")
        if legal is not None and hand.get("your_seat") == hand.get("to_act"):
            return self.choose_legal(hand)
        me = next(p for p in hand["players"] if p["seat"] == hand["to_act"])
        phase = hand["phase"]
        r = self.rng.random()
        if phase == "betting":
            if hand["current_bet"] > me["bet"]:
                return {"action": "fold" if r < 0.12 else "call"}
            return {"action": "check"}
        if phase == "draw":
            cards = client.dealt.get(f"hand-{hand['id']}")
            if cards and r < 0.7:
                return {
                    "action": "discard",
                    "cards": self.rng.sample(sorted(cards), self.rng.randint(1, 2)),
                }
            return {"action": "stand"}
        if phase == "parole":
            return {"action": "decline"}
        return {"action": "show"}

    def choose_legal(self, hand: dict[str, Any]) -> dict[str, Any]:
        legal = hand["legal"]
        weights = {"fold": 1, "call": 6, "check": 6, "stand": 3, "discard": 3, "show": 6}
        actions = [a for a in legal["actions"] for _ in range(weights.get(a, 1))]
        action = self.rng.choice(actions)
        move: dict[str, Any] = {"action": action}
        if action in ("bet", "raise"):
            move["amount"] = legal[f"min_{action}_to"]
        elif action == "discard":
            mine = next(p for p in hand["players"] if p["seat"] == hand["your_seat"])
            move["cards"] = self.rng.sample(mine["cards"], min(1, legal["max_discard"]))
        return move


@dataclass
class Result:
    tables: int
    routing: str = "table"
    """How the tables' sockets were placed (``ROUTINGS``)."""
    per_server: list[int] = field(default_factory=list)
    """Sockets opened on each server."""
    sockets: int = 0
    connect_s: float = 0.0
    connect_errors: int = 0
    connect_retries: int = 0
    """Sockets' opens tried again after a failed try (``CONNECT_TRIES``)."""
    open_s: float = 0.0
    """Of ``connect_s``: until every socket opened (or gave up)."""
    actions: int = 0
    hands: int = 0
    seconds: float = DURATION
    latencies: list[float] = field(default_factory=list)
    worst: list[float] = field(default_factory=list)
    answers: list[float] = field(default_factory=list)
    incomplete: int = 0
    missed: int = 0
    clients_missing: int = 0
    refusals: int = 0
    unavailable: int = 0
    """Commands answered ``unavailable`` (the database or Redis out of reach)."""
    unanswered: int = 0
    """Acts with no answer within ``ANSWER_SECONDS``."""
    wall_s: float = 0.0
    one_statement: dict[str, int] | None = None
    """The servers' actions tried as one statement over the play (warm-up
    too), by outcome; None if their ``/metrics`` could not be read."""
    answered: int = 0
    """Actions answered over the play (warm-up too)."""
    """The scale's wall time: connect, play, trailing frames and close."""
    view_fetches: int = 0
    failures: list[str] = field(default_factory=list)
    closed_early: int = 0
    loop_lag_p99: float = 0.0
    loop_lag_max: float = 0.0
    server_cpu: float = 0.0
    server_cpu_per_action: float = 0.0
    """Server CPU seconds (both processes) over every action answered from
    the start of play (warm-up included: the span the CPU is read over)."""
    client_cpu: float = 0.0
    load: float = 0.0
    """The machine's 1-minute load average at the end of play."""
    refusal_samples: list[str] = field(default_factory=list)
    server_crashes_run: int = 0
    server_crashes_close: int = 0
    uptime: list[str] = field(default_factory=list)
    """/proc/loadavg's 1, 5 and 15-minute load at the end of play."""
    measured: list[tuple[Act, float]] = field(default_factory=list)
    """Each measured action that reached every socket, with its act -> answer time."""
    lag_events: list[tuple[float, float]] = field(default_factory=list)
    client_gc: list[tuple[int, float, float]] = field(default_factory=list)
    window: tuple[float, float] = (0.0, 0.0)
    """The measured span, wall clock."""
    logs: list[Path] = field(default_factory=list)
    """The servers' logs, by server index (their trace lines)."""


class Bench:
    def __init__(
        self, servers: list[Server], seeded: list[dict[str, Any]], tables: int, routing: str
    ) -> None:
        self.servers = servers
        self.routing = routing
        rng = random.Random(SEED + tables)
        self.tables = [TableBot(self, s, random.Random(rng.random())) for s in seeded[:tables]]
        self.t0 = self.t1 = 0.0
        self.closing = False
        self.latencies: list[float] = []
        self.answer_latencies: list[float] = []
        self.acts_sent: list[tuple[int, int]] = []
        self.actions = 0
        self.answered = 0
        """Actions answered since play began (warm-up too)."""
        self.hands = 0
        self.refusals = 0
        self.unavailable = 0
        self.unanswered = 0
        self.refusal_samples: list[str] = []
        self.view_fetches = 0
        self.stray_errors = 0
        self.failures: list[str] = []
        self.lags: list[float] = []
        self.lag_events: list[tuple[float, float]] = []
        """(wall-clock start, seconds) of each client loop lag of 5 ms or more."""
        self.measured: list[tuple[Act, float]] = []
        """Each measured, answered action and its act -> answer time."""

    async def trailing_frames(self, most: float) -> None:
        """Wait (at most ``most`` s) until every measured action's frame
        reached all its table's sockets."""
        deadline = time.perf_counter() + most
        tables = {t.id: t for t in self.tables}
        while time.perf_counter() < deadline and any(
            tables[table].arrivals.get(seq, 0) < len(tables[table].clients)
            for table, seq in self.acts_sent
        ):
            await asyncio.sleep(0.05)

    def server_cpu(self) -> float:
        return sum(s.cpu_seconds() for s in self.servers)

    def crashes(self) -> int:
        return sum(s.crashes() for s in self.servers)

    def in_window(self, t: float) -> bool:
        return self.t0 <= t < self.t1

    async def lag_monitor(self, until: float) -> None:
        step = 0.01
        while time.perf_counter() < until:
            before = time.perf_counter()
            await asyncio.sleep(step)
            late = time.perf_counter() - before - step
            if self.in_window(before):
                self.lags.append(late)
                if late >= 0.005:
                    self.lag_events.append((wall_of(before + step), late))

    async def run(self) -> Result:
        result = Result(len(self.tables), self.routing, seconds=DURATION)
        clients = [c for t in self.tables for c in t.clients]
        result.sockets = len(clients)
        result.per_server = [sum(c.server is s for c in clients) for s in self.servers]
        gate = asyncio.Semaphore(CONNECT_CONCURRENCY)
        errors: list[str] = []

        async def open_one(c: Client) -> None:
            failed = ""
            for attempt in range(CONNECT_TRIES):
                if attempt:
                    result.connect_retries += 1
                    await asyncio.sleep(attempt)
                async with gate:
                    try:
                        await c.open()
                        return
                    except Exception as error:
                        failed = f"{type(error).__name__}: {error}"
            errors.append(failed)

        started = time.perf_counter()
        await asyncio.gather(*(open_one(c) for c in clients))
        result.open_s = time.perf_counter() - started
        # every snapshot in (spectators first: the drivers start from them)
        deadline = time.perf_counter() + 60
        while time.perf_counter() < deadline and any(
            c.ws is not None and c.snapshot_position is None for c in clients
        ):
            await asyncio.sleep(0.05)
        result.connect_s = time.perf_counter() - started
        # What the clients built (sockets, snapshots) out of the collector's
        # way: a full collection of this process delays every frame read.
        gc.collect()
        gc.freeze()
        result.connect_errors = len(errors)
        if errors:
            result.failures.append(f"connect: {errors[0]}")
        live = [t for t in self.tables if all(c.ws is not None for c in t.clients)]
        self.t0 = time.perf_counter() + WARMUP
        self.t1 = self.t0 + DURATION
        tried0 = one_statement_counts(self.servers)
        cpu0, own0 = self.server_cpu(), time.process_time()
        monitor = asyncio.create_task(self.lag_monitor(self.t1))
        profiler = profile(self.servers[0], len(self.tables))
        await asyncio.gather(*(t.run(self.t1) for t in live))
        await monitor
        cpu1, own1 = self.server_cpu(), time.process_time()
        tried1 = one_statement_counts(self.servers)
        if tried0 is not None and tried1 is not None:
            result.one_statement = {k: int(v - tried0.get(k, 0.0)) for k, v in tried1.items()}
        result.load = os.getloadavg()[0]
        result.uptime = Path("/proc/loadavg").read_text().split()[:3]
        if profiler is not None:
            profiler.wait()
        await self.trailing_frames(max(2.0, len(self.tables) / 40))  # late when overloaded
        result.server_crashes_run = self.crashes()
        self.closing = True
        await asyncio.gather(*(c.close() for c in clients))
        await asyncio.sleep(1.0)
        result.server_crashes_close = self.crashes() - result.server_crashes_run

        result.actions = self.actions
        result.hands = self.hands
        result.latencies = self.latencies
        result.answers = self.answer_latencies
        for table_id, seq in self.acts_sent:
            table = next(t for t in self.tables if t.id == table_id)
            if table.arrivals.get(seq, 0) < len(table.clients):
                result.incomplete += 1
            else:
                result.worst.append(table.worst[seq])
        result.measured = [
            (act, answer) for act, answer in self.measured if len(act.arrivals) >= PLAYERS + 1
        ]
        result.lag_events = self.lag_events
        result.client_gc = [p for p in CLIENT_GC.pauses if p[1] >= wall_of(self.t0) - 1]
        result.window = (wall_of(self.t0), wall_of(self.t1))
        for c in clients:
            m = c.missed()
            result.missed += m
            result.clients_missing += m > 0
            result.closed_early += c.closed_early
        result.refusals = self.refusals
        result.answered = self.answered
        result.unavailable = self.unavailable
        result.unanswered = self.unanswered
        result.wall_s = time.perf_counter() - started
        result.refusal_samples = self.refusal_samples
        result.view_fetches = self.view_fetches
        result.failures += self.failures
        if self.stray_errors:
            result.failures.append(f"{self.stray_errors} error frames not answering an act")
        if self.lags:
            result.loop_lag_p99 = pct(self.lags, 99)
            result.loop_lag_max = max(self.lags)
        span = DURATION + WARMUP
        result.server_cpu = (cpu1 - cpu0) / span
        result.server_cpu_per_action = (cpu1 - cpu0) / max(self.answered, 1)
        result.client_cpu = (own1 - own0) / span
        return result


PROFILE = {int(n) for n in os.environ.get("WSBENCH_PROFILE", "").split(",") if n}
"""Scales at which the first server is sampled with py-spy while they play."""


def profile(server: Server, tables: int) -> subprocess.Popen[bytes] | None:
    """py-spy sampling the first server for the whole play (warm-up and
    measure) at a scale of ``PROFILE``, to ``/tmp/wsbench-pyspy-<tables>.txt``
    (collapsed stacks), if py-spy is installed (it is not a dependency)."""
    spy = Path(sys.executable).with_name("py-spy")
    if tables not in PROFILE or server.process is None or not spy.exists():
        return None
    out = f"/tmp/wsbench-pyspy-{tables}.txt"
    print(f"  profiling server pid {server.process.pid} to {out}", flush=True)
    return subprocess.Popen(
        [
            str(spy),
            "record",
            "-p",
            str(server.process.pid),
            "-d",
            str(int(WARMUP + DURATION)),
            "-r",
            "50",
            "-f",
            "raw",
            "-o",
            out,
            "--nonblocking",
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )


def pct(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))]


# --------------------------------------------------------------------------
# The bare channel layer


@dataclass
class LayerResult:
    rate: int
    sent: int
    received: int
    latencies: list[float]


async def layer_bench(redis_url: str, prefix: str) -> tuple[list[LayerResult], dict[str, Any]]:
    """Steady rates, then a flood; the layers' keys under ``prefix`` (their
    ``flush`` deletes only those)."""
    from channels_redis.pubsub import RedisPubSubChannelLayer

    def new_layer() -> RedisPubSubChannelLayer:
        return RedisPubSubChannelLayer(hosts=[{"address": redis_url}], prefix=prefix)

    out = []
    for rate in LAYER_RATES:
        layer = new_layer()
        channels = [await layer.new_channel() for _ in range(5)]
        for ch in channels:
            await layer.group_add("wsbench", ch)
        latencies: list[float] = []
        received = 0
        stop = asyncio.Event()

        async def drain(ch: str) -> None:
            nonlocal received
            while True:
                message = await layer.receive(ch)
                if message.get("stop"):
                    return
                received += 1
                latencies.append(time.perf_counter() - message["t"])

        tasks = [asyncio.create_task(drain(ch)) for ch in channels]
        await asyncio.sleep(0.2)
        count = int(rate * LAYER_SECONDS)
        start = time.perf_counter()
        for i in range(count):
            due = start + i / rate
            delay = due - time.perf_counter()
            if delay > 0:
                await asyncio.sleep(delay)
            await layer.group_send("wsbench", {"type": "frame", "t": time.perf_counter(), "i": i})
        await asyncio.sleep(0.5)
        await layer.group_send("wsbench", {"type": "frame", "stop": True})
        try:
            await asyncio.wait_for(asyncio.gather(*tasks), 10)
        except TimeoutError:
            for t in tasks:
                t.cancel()
        stop.set()
        out.append(LayerResult(rate, count * 5, received, latencies))
        await layer.flush()

    # flood: FLOOD messages to the group, nobody receiving, then drain
    layer = new_layer()
    channels = [await layer.new_channel() for _ in range(5)]
    for ch in channels:
        await layer.group_add("wsflood", ch)
    for i in range(FLOOD):
        await layer.group_send("wsflood", {"type": "frame", "i": i})
    got = []
    for ch in channels:
        n = 0
        while True:
            try:
                await asyncio.wait_for(layer.receive(ch), 0.3)
            except TimeoutError:
                break
            n += 1
        got.append(n)
    flood = {"sent": FLOOD, "received": got}
    await layer.flush()
    return out, flood


# --------------------------------------------------------------------------
# Main


def reachable(redis_url: str) -> str | None:
    import redis

    try:
        redis.Redis.from_url(redis_url, socket_timeout=2).ping()
    except Exception as error:
        from bench.service import redact

        return f"Redis not reachable at {redact(redis_url)} ({error})"
    return None


def main() -> None:
    db_url = os.environ.get("WSBENCH_DATABASE_URL") or run_database_url(DEFAULT_DB_NAME)
    base = os.environ.get("WSBENCH_REDIS_URL") or DEFAULT_REDIS
    redis_url = urlunsplit(urlsplit(base)._replace(path=f"/{REDIS_DB}"))
    if not ROUTINGS or set(ROUTINGS) - {"table", "spread"}:
        print(f"skipped: WSBENCH_ROUTING is table, spread or table,spread, not {ROUTINGS}")
        return
    problem = reachable(redis_url) or recreate_database(db_url)
    if problem is not None:
        print(f"skipped: {problem}")
        return
    try:
        results, layer, flood, server_errors, server_tail = run(db_url, redis_url, migrate=True)
    finally:
        drop_database(db_url)
    report(results, layer, flood, server_errors, server_tail)


def run(
    db_url: str, redis_url: str, *, migrate: bool
) -> tuple[list[Result], list[LayerResult], dict[str, Any], int, str]:
    """Every scale on the database at ``db_url`` (migrated first if
    ``migrate``), then the bare layer: (results, layer, flood, server error
    lines, the servers' log tail if any)."""
    started = time.perf_counter()
    if CLIENT_GC not in gc.callbacks:
        gc.callbacks.append(CLIENT_GC)
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    want = min(hard, 65536) if hard != resource.RLIM_INFINITY else 65536
    if soft < want:
        resource.setrlimit(resource.RLIMIT_NOFILE, (want, hard))
    files = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
    if files < FILES_PER_TABLE * max(SCALES) + 1024:
        print(
            f"  open files limited to {files}: scales past "
            f"{(files - 1024) // FILES_PER_TABLE} tables will fail to connect some sockets",
            flush=True,
        )
    prefix = f"wsbench-{uuid.uuid4().hex[:8]}"
    servers: list[Server] = []
    results: list[Result] = []
    try:
        seeded = migrate_and_seed(db_url, max(SCALES), migrate)
        print(
            f"database {urlsplit(db_url).path.lstrip('/')} seeded: {len(seeded)} tables x {PLAYERS} "
            f"players in {time.perf_counter() - started:.0f} s; Redis DB {REDIS_DB} (keys "
            f"{prefix}*); {SERVERS} uvicorn processes",
            flush=True,
        )
        servers = [Server(db_url, redis_url, prefix) for _ in range(SERVERS)]
        for server in servers:
            server.start()
        for server in servers:
            server.wait()
        for n, routing in itertools.product(SCALES, ROUTINGS):
            result = asyncio.run(Bench(servers, seeded, n, routing).run())
            result.logs = [s.log_path for s in servers]
            results.append(result)
            print(
                f"  {n} tables {routing} (sockets {'/'.join(map(str, result.per_server))}): "
                f"{result.actions} actions, act-to-frame p50 "
                f"{ms(pct(result.latencies, 50))} ms p99 {ms(pct(result.latencies, 99))} ms "
                f"(all six p99 {ms(pct(result.worst, 99))} ms), "
                f"missed {result.missed}, refusals {result.refusals}, unavailable {result.unavailable}, "
                f"unanswered {result.unanswered}, failures {len(result.failures)}, "
                f"server {ms(result.server_cpu_per_action)} ms CPU per action (load {' '.join(result.uptime)}); "
                f"{one_statement_note(result)}; "
                f"{result.wall_s:.0f} s for the scale (connect {result.connect_s:.0f} s)",
                flush=True,
            )
        server_errors = sum(s.errors_logged() for s in servers)
        server_tail = "".join(s.tail(1500) for s in servers) if server_errors else ""
        for server in servers:
            server.stop()
        servers = []
        layer, flood = [], {}
        if LAYER_SECONDS > 0:
            layer, flood = asyncio.run(layer_bench(redis_url, f"{prefix}-layer"))
    finally:
        for server in servers:
            server.stop()
        from bench.service import forget_keys

        forget_keys(redis_url, prefix)
    return results, layer, flood, server_errors, server_tail


def ms(x: float) -> str:
    return f"{1000 * x:.1f}"


def report(
    results: list[Result],
    layer: list[LayerResult],
    flood: dict[str, Any],
    server_errors: int,
    server_tail: str,
) -> None:
    print(
        f"\n{'tables':>6}{'routing':>8}{'sockets':>8}{'act/s':>8}{'hands/s':>8}"
        f"{'sub p50':>9}{'sub p99':>9}{'all p50':>9}{'all p99':>9}{'ans p50':>9}{'ans p99':>9}"
        f"{'missed':>7}{'incompl':>8}{'refused':>8}{'unavail':>8}{'no ans':>7}{'srv cpu':>8}{'ms/act':>7}{'cli cpu':>8}{'lag p99':>8}{'load':>6}{'1 stmt':>7}"
    )
    for r in results:
        print(
            f"{r.tables:>6}{r.routing:>8}{r.sockets:>8}{r.actions / r.seconds:>8.1f}{r.hands / r.seconds:>8.2f}"
            f"{ms(pct(r.latencies, 50)):>9}{ms(pct(r.latencies, 99)):>9}"
            f"{ms(pct(r.worst, 50)):>9}{ms(pct(r.worst, 99)):>9}"
            f"{ms(pct(r.answers, 50)):>9}{ms(pct(r.answers, 99)):>9}"
            f"{r.missed:>7}{r.incomplete:>8}{r.refusals:>8}{r.unavailable:>8}{r.unanswered:>7}"
            f"{r.server_cpu:>8.0%}{ms(r.server_cpu_per_action):>7}{r.client_cpu:>8.0%}"
            f"{ms(r.loop_lag_p99):>8}{r.load:>6.1f}{one_statement_share(r):>7}"
        )
    print(
        "latency (ms): act frame sent -> public frame of the action's own event (hand stream, version+1) received, client clock; "
        "sub = each subscriber x action, all = per action at the last of its 6 sockets, "
        "ans = act -> answer at the actor. missed = public positions not consecutive from the "
        "snapshot, summed over clients; incompl = measured actions some socket never got the "
        "frame of the action's own event; refused = other refusals; unavail = answered unavailable; "
        f"no ans = acts unanswered after {ANSWER_SECONDS:g} s. srv cpu = uvicorn processes (1 core = 100%), ms/act = their CPU ms per action answered "
        "(both processes, over the same span), cli cpu = this process; lag p99 = "
        "client event-loop lag (10 ms timer); load = 1-minute load average at the end of play; "
        "1 stmt = answered actions that went as one statement (routing: table = a table's "
        "sockets on the server nginx routes it to, spread = on the servers in turn)."
    )
    for r in results:
        notes = [
            f"connect {r.sockets} sockets in {r.connect_s:.1f} s (opened in {r.open_s:.1f} s,"
            f" {r.connect_retries} tries again, {r.connect_errors} errors)",
            f"{r.wall_s:.0f} s for the scale",
            f"{r.view_fetches} REST view fetches",
            f"{r.clients_missing} clients with gaps",
            f"{r.closed_early} sockets closed by the server",
            f"loop lag max {ms(r.loop_lag_max)} ms",
            f"server 'Exception in ASGI application': {r.server_crashes_run} by the end of "
            f"play (cumulative), {r.server_crashes_close} more while the clients closed",
        ]
        notes.append(one_statement_note(r))
        print(f"  {r.tables} tables {r.routing}: " + "; ".join(notes))
        for sample in r.refusal_samples[:3]:
            print(f"    refused: {sample}")
        for failure in r.failures[:3]:
            print(f"    failure: {failure}")
    print(
        f"scope: {SERVERS} uvicorn processes, a table's sockets on one by its id or on both in turn, "
        "CONN_MAX_AGE=60; bots only check, call or fold (never bet or raise), stand or discard "
        "1-2, show; the bots and spectators in this process, on the same machine as the "
        f"servers, PostgreSQL and Redis (load {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores)"
    )
    print(f"server log: {server_errors} ERROR/Traceback lines")
    for r in results:
        print(breakdown(r))
    if server_tail:
        print("  " + server_tail.replace("\n", "\n  ")[-1500:])

    if layer:
        print(
            f"\nbare channel layer (channels-redis, group of 5 channels, {LAYER_SECONDS:g} s each):"
        )
        for lr in layer:
            print(
                f"  {lr.rate:>5} group_send/s: {lr.received}/{lr.sent} delivered, "
                f"p50 {ms(pct(lr.latencies, 50))} ms, p99 {ms(pct(lr.latencies, 99))} ms"
            )
        print(
            f"  flood of {flood['sent']} group_send with nobody receiving (pub/sub: each process buffers its own): "
            f"each channel then got {flood['received']} -> "
            f"{'messages dropped silently' if max(flood['received']) < flood['sent'] else 'none dropped'}"
        )
    print(f"\n{goal_line(results)}")


# --------------------------------------------------------------------------
# Where the slowest actions' time went

TRACE_LINE = re.compile(r"trace (\{.*?\})")


@dataclass
class Traces:
    """The servers' trace lines (``kernel.stalls``), by server index."""

    arrive: dict[str, float] = field(default_factory=dict)
    command: dict[str, tuple[float, float]] = field(default_factory=dict)
    publish: dict[str, tuple[float, float, float]] = field(default_factory=dict)
    receive: dict[tuple[int, str], float] = field(default_factory=dict)
    gc: dict[int, list[tuple[int, float, float]]] = field(default_factory=dict)
    lag: dict[int, list[tuple[float, float]]] = field(default_factory=dict)

    @classmethod
    def read(cls, logs: list[Path], window: tuple[float, float]) -> Traces:
        out = cls()
        start, end = window[0] - 5, window[1] + 10
        for index, path in enumerate(logs):
            out.gc[index], out.lag[index] = [], []
            try:
                text = path.read_text(errors="replace")
            except OSError:
                continue
            for found in TRACE_LINE.finditer(text):
                try:
                    line = json.loads(found.group(1))
                except ValueError:
                    continue
                t = line.get("t", line.get("t0", 0.0))
                if not start <= t <= end:
                    continue
                stage, cmd = line["s"], line.get("cmd")
                if stage == "arrive":
                    out.arrive.setdefault(cmd, t)
                elif stage == "command":
                    out.command.setdefault(cmd, (line["t0"], line["t1"]))
                elif stage == "publish":
                    out.publish.setdefault(cmd, (line["t0"], line["t1"], line["t2"]))
                elif stage == "receive":
                    out.receive.setdefault((index, cmd), t)
                elif stage == "gc":
                    out.gc[index].append((line["gen"], t, line["d"]))
                elif stage == "lag":
                    out.lag[index].append((t, line["d"]))
        return out


STAGES = (
    "in",
    "queue",
    "command",
    "to pub",
    "publish",
    "deliv 0",
    "deliv 1",
    "fanout 0",
    "fanout 1",
)
"""A slow action's time (ms): ``in`` send -> its act frame read by the server; ``queue``
-> the command started on a database thread; ``command`` its run (commit
and hand-over to the publisher included); ``to pub`` -> its PUBLISH began;
``publish`` the PUBLISH; ``deliv N`` PUBLISH began -> server N decoded it;
``fanout N`` -> the last of server N's sockets got the frame at the client."""


def stages(act: Act, tr: Traces) -> dict[str, float] | None:
    cmd = act.command_id
    if cmd not in tr.command or cmd not in tr.publish or cmd not in tr.arrive:
        return None
    c0, c1 = tr.command[cmd]
    _, p1, p2 = tr.publish[cmd]
    out = {
        "in": tr.arrive[cmd] - act.wall,
        "queue": c0 - tr.arrive[cmd],
        "command": c1 - c0,
        "to pub": p1 - c1,
        "publish": p2 - p1,
    }
    for index in (0, 1):
        last = max((t for i, t in act.arrivals if i == index), default=None)
        if last is None:
            continue  # none of the table's sockets there (routed to the other)
        got = tr.receive.get((index, cmd))
        if got is None:
            return None
        out[f"deliv {index}"] = got - p1
        out[f"fanout {index}"] = last - got
    return {k: 1000 * v for k, v in out.items()}


def medians(rows: list[dict[str, float]]) -> str:
    """Each stage's median over the rows that have it (``-``: none)."""
    cells = []
    for stage in STAGES:
        values = [row[stage] for row in rows if stage in row]
        cells.append(f"{stage} {statistics.median(values):.1f}" if values else f"{stage} -")
    return " ".join(cells)


def overlapping(
    events: list[tuple[float, float]], start: float, end: float
) -> list[tuple[float, float]]:
    return [(t, d) for t, d in events if t < end and t + d > start]


def breakdown(r: Result) -> str:
    """The slowest ``SLOWEST`` % of actions (by their last socket's frame)
    and where their time went, beside the median action's; what paused
    meanwhile; and how the stalls are spaced in time."""
    if not r.measured:
        return f"\n{r.tables} tables: no action measured"
    tr = Traces.read(r.logs, r.window)
    t0 = r.window[0]
    worst = {id(a): max(t for _, t in a.arrivals) - a.wall for a, _ in r.measured}
    ranked = sorted(r.measured, key=lambda m: worst[id(m[0])], reverse=True)
    slow = ranked[: max(5, round(len(ranked) * SLOWEST / 100))]
    pauses: dict[str, list[tuple[float, float]]] = {
        "cli": [(t, d) for _, t, d in r.client_gc],
        **{f"s{i}": [(t, d) for _, t, d in p] for i, p in tr.gc.items()},
    }
    gen2: dict[str, list[tuple[float, float]]] = {
        "cli": [(t, d) for g, t, d in r.client_gc if g == 2],
        **{f"s{i}": [(t, d) for g, t, d in p if g == 2] for i, p in tr.gc.items()},
    }
    lags = {"cli": r.lag_events, **{f"s{i}": lag for i, lag in tr.lag.items()}}
    lines = [
        f"\n{r.tables} tables: where the slowest {len(slow)} of {len(ranked)} actions' time went "
        f"(routing {r.routing}; all six sockets' worst; ms; wall clocks of one host; load {' '.join(r.uptime)})",
        f"  {'at s':>6} {'action':>8} {'end':>3} {'worst':>6} {'answer':>6} "
        + " ".join(f"{s:>8}" for s in STAGES)
        + "  gc pauses / loop lags overlapping (process:ms)",
    ]
    typical = [x for x in (stages(a, tr) for a, _ in ranked) if x is not None]
    if DUMP:
        rows = [
            {"at": a.wall - t0, "worst": worst[id(a)], "answer": answer, "action": a.action,
             "ended": a.ended, "server": a.server, "stages": stages(a, tr)}
            for a, answer in ranked
        ]  # fmt: skip
        events = {"gc": {k: v for k, v in pauses.items()}, "gen2": gen2, "lag": lags}
        Path(f"{DUMP}-{r.tables}-{r.routing}.json").write_text(
            json.dumps({"t0": t0, "rows": rows, "events": events})
        )
    for act, answer in slow:
        parts = stages(act, tr)
        end = act.wall + worst[id(act)]
        gcs = [
            f"{who}:{1000 * max(d for _, d in hit):.0f}"
            for who, events in pauses.items()
            if (hit := overlapping(events, act.wall, end))
        ]
        lagged = [
            f"{who}:{1000 * max(d for _, d in hit):.0f}"
            for who, events in lags.items()
            if (hit := overlapping([(t, d) for t, d in events], act.wall, end))
        ]
        cells = (
            " ".join(f"{parts[s]:>8.1f}" if s in parts else f"{'-':>8}" for s in STAGES)
            if parts
            else f"{'(no trace lines)':>{9 * len(STAGES) - 1}}"
        )
        lines.append(
            f"  {act.wall - t0:>6.1f} {act.action:>8} {'yes' if act.ended else '':>3} "
            f"{1000 * worst[id(act)]:>6.1f} {1000 * answer:>6.1f} {cells}  "
            f"gc {','.join(gcs) or '-'} lag {','.join(lagged) or '-'}"
        )
    traced_slow = [x for x in (stages(a, tr) for a, _ in slow) if x is not None]
    if typical and traced_slow:
        lines.append("  median, all actions:  " + medians(typical))
        lines.append("  median, the slowest:  " + medians(traced_slow))

    def share(acts: list[tuple[Act, float]], events: dict[str, list[tuple[float, float]]]) -> str:
        hit = sum(
            any(overlapping(e, a.wall, a.wall + worst[id(a)]) for e in events.values())
            for a, _ in acts
        )
        return f"{hit}/{len(acts)} ({100 * hit / max(len(acts), 1):.0f}%)"

    ended = sum(a.ended for a, _ in slow)
    lines.append(
        f"  overlapping a gen-2 collection in any process: slowest {share(slow, gen2)}, "
        f"all {share(ranked, gen2)}; any collection: slowest {share(slow, pauses)}, "
        f"all {share(ranked, pauses)}; ended a hand: slowest {ended}/{len(slow)}, "
        f"all {sum(a.ended for a, _ in ranked)}/{len(ranked)}"
    )
    for who, events in pauses.items():
        within = [(t, d) for t, d in events if r.window[0] <= t < r.window[1]]
        two = [t for t, _ in gen2[who] if r.window[0] <= t < r.window[1]]
        if within:
            gaps = [b - a for a, b in itertools.pairwise(two)]
            lines.append(
                f"  {who} collections: {len(within)}, longest {1000 * max(d for _, d in within):.1f} ms, "
                f"gen 2 at s {', '.join(f'{t - t0:.1f}' for t in two) or '-'}"
                + (f" (every {statistics.median(gaps):.1f} s)" if gaps else "")
            )
    for who, events in lags.items():
        big = [(t, d) for t, d in events if d >= 0.02 and r.window[0] <= t < r.window[1]]
        if big:
            lines.append(
                f"  {who} loop lags of 20 ms or more: {len(big)}, at s "
                + ", ".join(f"{t - t0:.1f} ({1000 * d:.0f})" for t, d in big[:20])
            )
    slow_at = sorted(a.wall - t0 for a, _ in slow)
    lines.append(f"  the slowest at s: {', '.join(f'{t:.1f}' for t in slow_at)}")
    return "\n".join(lines)


def one_statement_share(r: Result) -> str:
    """The share of answered actions written as one statement."""
    if r.one_statement is None:
        return "?"
    return f"{r.one_statement.get('written', 0) / max(1, r.answered):.0%}"


def one_statement_note(r: Result) -> str:
    """How the play's answered actions went on the servers' one-statement
    path (warm-up included)."""
    if r.one_statement is None:
        return "one statement: servers' /metrics unread"
    got = r.one_statement
    written = got.get("written", 0)
    return (
        f"one statement: {written} of {r.answered} answered actions"
        f" ({written / max(1, r.answered):.0%}); {got.get('conflict', 0)} conflicts and"
        f" {got.get('declined', 0)} declined (stale work on a shared table, or the hand"
        " ended), run again on the locked path"
    )


def goal_line(results: list[Result]) -> str:
    """The goal judged at ``GOAL_TABLES`` tables, if that scale ran."""
    goal = f"act-to-frame p99 under {GOAL_MS:g} ms at {GOAL_TABLES} tables, no missed version"
    top = next((r for r in results if r.tables == GOAL_TABLES), None)
    if top is None:
        return f"{goal}: not measured (scales {','.join(str(r.tables) for r in results)})"
    met = (
        top.actions > 0
        and pct(top.latencies, 99) * 1000 < GOAL_MS
        and pct(top.worst, 99) * 1000 < GOAL_MS
        and top.missed == 0
        and top.incomplete == 0
        and top.connect_errors == 0
    )
    return f"{goal}: {'met' if met else 'NOT met'}"


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "seed":
        sys.path.insert(0, str(ROOT))
        seed(int(sys.argv[2]))
    else:
        main()
