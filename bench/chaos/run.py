"""The run: the stack up, the bots playing, the faults one by one, the
stack down, the checks and the figures.  ``main`` returns the exit code."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import resource
import secrets
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request
import uuid
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime, timedelta
from functools import partial
from pathlib import Path
from typing import Any

from bench.chaos import bots, checks, instances
from bench.chaos.proxy import Proxy
from bench.chaos.stack import AsgiServer, Celery, stack_env
from bench.websockets import ROOT, pct

CLOCK_S = 4
"""Every clock of the cash tables (action, draw, Parole), no time bank."""
PAUSE_S = 1
"""The pause between hands at the cash tables: every hand's next is dealt by a timer."""
STACK = 1_000_000
REBUY_LEVELS = 3
LOST_AFTER_S = 10
"""A clock still overdue this long (past the sweeps' grace) when the
workers stopped was lost: the sweeps (every ``CLOCK_SWEEP_SECONDS``, 5 by
default) fire a lost timer's clock well within it."""
OPEN_MAX_S = 60
"""How long every socket may take to get its first frame before play starts."""
SETTLE_MAX_S = 30
"""How long the sockets may take, once nothing moves, to reach their
tables' last positions (a frame never sent is never caught up: the socket
learns of a missed frame only from the next one)."""
SEED_THREADS = 4
"""Tables seeded at once (each thread its own database connection)."""
SEED = 20_261_125


@dataclass(frozen=True)
class Size:
    """How big and how long: ``tables`` cash tables of 5, a satellite of
    ``players`` (rebuys through level ``REBUY_LEVELS``) for seats worth ``seat_value``,
    its clock's minutes ``minute_seconds`` s; ``warmup`` s of play not
    measured, then the first fault ``first`` s into measured play, one
    every ``spacing`` s, ``recovery`` s of each counted as during
    it, play going on ``tail`` s after the last (and until the satellite
    ends, at most ``limit`` s from the start of play)."""

    tables: int
    players: int
    seat_value: int
    minute_seconds: int
    warmup: float
    first: float
    spacing: float
    recovery: float
    tail: float
    limit: float


FULL = Size(200, 300, 1_100, 4, warmup=10, first=30, spacing=30, recovery=10, tail=40, limit=900)
SHORT = Size(20, 16, 700, 3, warmup=3, first=5, spacing=6, recovery=3, tail=5, limit=100)

FAULTS = ("kill an ASGI server", "kill a Celery worker", "restart Redis",
          "restart PostgreSQL", "drop a tenth of the connections")  # fmt: skip


@dataclass
class Log:
    """Timestamped lines, printed as they come and kept for the report."""

    started: float = field(default_factory=time.monotonic)
    faults: list[tuple[str, float, float]] = field(default_factory=list)
    """(fault, from, to) in seconds of the bots' clock."""

    def __call__(self, line: str) -> None:
        stamp = datetime.now(UTC).strftime("%H:%M:%S.%f")[:-3]
        print(f"[{stamp} +{time.monotonic() - self.started:6.1f}s] {line}", flush=True)


class TooBig(Exception):
    """The stack could not even open the run's sockets: nothing to measure."""


def main(size: Size, keep: bool = False) -> int:
    problem = instances.missing()
    if problem is not None:
        print(f"cannot run: {problem}")
        return 2
    _raise_file_limit()
    root = Path(tempfile.mkdtemp(prefix="chaos-"))
    root.chmod(0o755)  # PostgreSQL's own user reaches its directories
    sys.stdout = Tee(sys.stdout, (root / "chaos.log").open("a"))
    say = Log()
    say(f"run directory {root} (logs of every process)")
    pg, redis = instances.Postgres(root), instances.Redis(root)
    procs: list[Any] = []
    ok = False
    try:
        pg.init()
        redis.start()
        say(f"own PostgreSQL on port {pg.port}, own Redis on port {redis.port}")
        env = stack_env(pg.url, redis.url, secrets.token_urlsafe(40))
        _migrate(env, say)
        servers = [AsgiServer(f"asgi{n}", env, root) for n in (1, 2)]
        workers = [Celery(f"worker{n}", "worker", env, root) for n in (1, 2)]
        beat = Celery("beat", "beat", env, root)
        procs += [*servers, *workers, beat]
        for p in procs:
            p.start()
        satellite = _satellite(env, size, root)
        procs.append(satellite)
        seeded = _seed(env, size, say)  # while the servers start and the satellite sets up
        for server in servers:
            _wait_http(server)
        say(f"2 uvicorn servers (ports {servers[0].port}, {servers[1].port}), 2 workers, beat")
        ready = _ready(satellite, size, root, say)
        try:
            outcome = asyncio.run(_play(size, seeded, servers, workers, beat, pg, redis, root, say))
        except TooBig as error:
            say(f"chaos run FAILED: {error}")
            return 1
        say("stack stopped; checking")
        results = _checks(outcome, ready, workers)
        ok = _report(size, outcome, results, say)
    finally:
        for p in reversed(procs):
            with contextlib.suppress(Exception):
                p.stop()
        with contextlib.suppress(Exception):
            pg.stop("immediate")
        redis.stop()
        if ok and not keep:
            shutil.rmtree(root, ignore_errors=True)
        else:
            print(f"logs kept in {root}")
    return 0 if ok else 1


class Tee:
    """What the harness prints, also in ``chaos.log`` of the run's directory."""

    def __init__(self, out: Any, copy: Any) -> None:
        self.out, self.copy = out, copy

    def write(self, text: str) -> int:
        self.copy.write(text)
        return int(self.out.write(text))

    def flush(self) -> None:
        self.copy.flush()
        self.out.flush()


def _raise_file_limit() -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    want = 65536 if hard == resource.RLIM_INFINITY else min(hard, 65536)
    if soft < want:
        resource.setrlimit(resource.RLIMIT_NOFILE, (want, hard))


# --------------------------------------------------------------------------
# Setting up


def _migrate(env: dict[str, str], say: Log) -> None:
    """As deployed: ``manage.py migrate``."""
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput", "-v0"],
        cwd=ROOT, env=env, check=True, timeout=600,
    )  # fmt: skip
    say("migrated")


def _seed(env: dict[str, str], size: Size, say: Log) -> list[dict[str, Any]]:
    """Django in this process on the harness's database: the cash tables
    and their players, seated, with API tokens."""
    os.environ.update(env)
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.db import connection, connections
    from knox.models import AuthToken

    from accounts import money
    from poker import services

    users = get_user_model()
    boss = users.objects.create_user("chaosboss", is_staff=True)

    def table(t: int) -> dict[str, Any]:
        try:
            return one(t)
        finally:
            connection.close()  # this thread's own

    def one(t: int) -> dict[str, Any]:
        table = services.table_create(
            by=boss, name=f"chaos {t}", game="32-card-draw", betting="no-limit",
            small_blind=1, big_blind=2, min_buy_in=20, max_buy_in=None,
            action_seconds=CLOCK_S, draw_seconds=CLOCK_S, bet_seconds=CLOCK_S,
            parole_seconds=CLOCK_S, time_bank_seconds=0, pause_seconds=PAUSE_S,
        )  # fmt: skip
        players = []
        for seat in range(1, 6):
            user = users.objects.create_user(f"chaos{t}s{seat}")
            _, token = AuthToken.objects.create(user=user)
            money.wallet_deposit(transfer_id=uuid.uuid4(), user_id=user.pk, amount=STACK)
            services.seat_sit(
                by=user, table_id=table.pk, seat=seat, buy_in=STACK, command_id=uuid.uuid4()
            )
            players.append({"id": user.pk, "token": token, "seat": seat})
        return {"table": table.pk, "players": players}

    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(SEED_THREADS) as pool:
        seeded = list(pool.map(table, range(size.tables)))
    connections.close_all()
    say(f"{size.tables} cash tables of 5 players seeded")
    return seeded


def _wait_http(server: AsgiServer) -> None:
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        assert server.process is not None
        if server.process.poll() is not None:
            raise RuntimeError(f"{server.name} exited:\n{server.tail()}")
        try:
            with urllib.request.urlopen(server.http + "/api/health/", timeout=2) as answer:
                if answer.status == 200:
                    return
        except OSError:
            time.sleep(0.3)
    raise RuntimeError(f"{server.name} never answered:\n{server.tail()}")


class Satellite:
    """The satellite's bots in a process of their own (``satellite.py``)."""

    def __init__(self, env: dict[str, str], plan: dict[str, Any], root: Path) -> None:
        self.root = root
        log = (root / "satellite.log").open("ab")
        self.process = subprocess.Popen(
            [sys.executable, "-m", "bench.chaos", "satellite", json.dumps(plan), str(root)],
            cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
        )  # fmt: skip

    def done(self) -> bool:
        return (self.root / "done.json").exists() or self.process.poll() is not None

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.process.wait(10)
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait(10)


def _satellite(env: dict[str, str], size: Size, root: Path) -> Satellite:
    plan = {
        "players": size.players, "level_minutes": 1, "minute_seconds": size.minute_seconds,
        "break_minutes": 1, "rebuy_until": REBUY_LEVELS, "max_rebuys": 1,
        "seat_value": size.seat_value, "seed": SEED, "time_limit": size.limit,
        "progress_seconds": 10.0,
    }  # fmt: skip
    return Satellite(env, plan, root)


def _ready(satellite: Satellite, size: Size, root: Path, say: Log) -> dict[str, Any]:
    deadline = time.monotonic() + 300
    while not (root / "ready.json").exists():
        if satellite.process.poll() is not None or time.monotonic() > deadline:
            raise RuntimeError(f"the satellite did not start: see {root / 'satellite.log'}")
        time.sleep(0.2)
    say(f"satellite of {size.players} players set up (satellite.log)")
    ready: dict[str, Any] = json.loads((root / "ready.json").read_text())
    return ready


# --------------------------------------------------------------------------
# Playing, and the faults


@dataclass
class Outcome:
    room: bots.Room
    drivers: list[bots.Driver]
    faults: list[tuple[str, float, float]]
    play: tuple[float, float]
    stopped: datetime
    final: dict[int, int]
    """Each cash table's feed position once everything stopped."""
    proxy_refused: int
    satellite_done: bool
    server_errors: dict[str, int] = field(default_factory=dict)
    """Lines of the servers' logs by kind (500s, ASGI exceptions)."""
    unexpected: list[str] = field(default_factory=list)
    """Processes that exited by themselves (and were started again)."""


async def _play(
    size: Size,
    seeded: list[dict[str, Any]],
    servers: list[AsgiServer],
    workers: list[Celery],
    beat: Celery,
    pg: instances.Postgres,
    redis: instances.Redis,
    root: Path,
    say: Log,
) -> Outcome:
    loop = asyncio.get_running_loop()
    from concurrent.futures import ThreadPoolExecutor

    # A thread for each table's REST calls (one at a time each): with fewer,
    # the tables' calls queued in the bots' own pool whenever the servers
    # were slow, and the bots, not the servers, set the pace.
    loop.set_default_executor(ThreadPoolExecutor(len(seeded) + 16))
    proxy = Proxy([s.port for s in servers])
    await proxy.start()
    room = bots.Room(proxy.port)
    rng = random.Random(SEED)
    drivers = [
        bots.Driver(room, s, random.Random(rng.random()), rest=i % 2 == 1)
        for i, s in enumerate(seeded)
    ]
    feeds = [f for d in drivers for f in d.feeds]
    for feed in feeds:
        feed.start()
    deadline = time.monotonic() + OPEN_MAX_S
    while any(f.last is None for f in feeds) and time.monotonic() < deadline:
        await asyncio.sleep(0.1)
    opened = sum(f.last is not None for f in feeds)
    if opened < len(feeds):
        room.stopping = True
        await asyncio.gather(*(feed.close() for feed in feeds))
        await proxy.close()
        await asyncio.sleep(1)  # its pipes end, rather than being cancelled by asyncio.run
        raise TooBig(
            f"only {opened} of {len(feeds)} sockets had their first frame within "
            f"{OPEN_MAX_S} s: the servers cannot take {size.tables} tables on this machine "
            "(see docs/chaos.md for the sizes it runs)"
        )
    rest = sum(d.rest for d in drivers)
    say(f"proxy on port {proxy.port}: {len(feeds)} sockets open; {rest} tables act over REST")
    (root / "go").touch()  # the satellite's bots register: it starts
    play = asyncio.gather(*(d.run(room.now() + size.limit) for d in drivers))
    say(f"bots playing; the satellite registering; {size.warmup:g} s of warm-up")
    await asyncio.sleep(size.warmup)
    start = room.now()
    end = start + size.first + size.spacing * (len(FAULTS) - 1) + size.tail
    limit = start + size.limit
    faults: list[tuple[str, float, float]] = []

    faulting = ThreadPoolExecutor(4, thread_name_prefix="faults")
    """The faults' and the restarts' own threads: behind the bots' requests
    in the default pool, a fault or a restart came late by as long as the
    servers were slow (a killed server was started again 76 s late)."""

    async def blocking(what: Callable[[], Any]) -> Any:
        return await loop.run_in_executor(faulting, what)

    down: set[str] = set()
    """Processes a fault killed; it starts them again itself."""
    unexpected: list[str] = []

    def later(seconds: float, what: Callable[[], None], name: str) -> asyncio.Task[None]:
        """Start process ``name`` again ``seconds`` after its fault."""

        async def go() -> None:
            await asyncio.sleep(seconds)
            await blocking(what)
            down.discard(name)
            say(f"recovered: {name} started again")

        return asyncio.create_task(go())

    async def supervise() -> None:
        """What systemd's ``Restart=always`` does for the deployed units: a
        process that exits by itself is started again (and reported)."""
        while not room.stopping:
            await asyncio.sleep(1)
            for p in (*servers, *workers, beat):
                code = None if p.process is None else p.process.poll()
                if p.name in down or code is None or room.stopping:
                    continue
                unexpected.append(f"{p.name} exited by itself (code {code}) at {room.now():.1f} s")
                say(f"UNEXPECTED: {p.name} exited by itself (code {code}); started again")
                await blocking(p.start if isinstance(p, Celery) else partial(_restart_server, p))

    supervisor = asyncio.create_task(supervise())

    restarts: list[asyncio.Task[None]] = []
    for n, name in enumerate(FAULTS):
        at = start + size.first + n * size.spacing
        await asyncio.sleep(max(0.0, at - room.now()))
        t = room.now()
        if n == 0:
            say(f"FAULT kill -9 {servers[0].name} (pid {servers[0].pids()[0]}, "
                f"{len(proxy.open)} connections through the proxy)")  # fmt: skip
            down.add(servers[0].name)
            await blocking(servers[0].kill)
            restarts.append(
                later(size.recovery, partial(_restart_server, servers[0]), servers[0].name)
            )
        elif n == 1:
            held = await blocking(partial(_unacked, redis.url))
            say(f"FAULT kill -9 {workers[0].name} (pid {workers[0].pid}; {held} timers "
                "unacknowledged in the broker, held by the workers)")  # fmt: skip
            down.add(workers[0].name)
            await blocking(workers[0].kill)
            restarts.append(later(size.recovery, workers[0].start, workers[0].name))
        elif n == 2:
            say("FAULT restart Redis (SIGTERM, start again on its port and data)")
            await blocking(redis.restart)
            say("Redis up again")
        elif n == 3:
            say("FAULT restart PostgreSQL (pg_ctl stop -m fast, start)")
            await blocking(pg.restart)
            say("PostgreSQL up again")
        else:
            dropped = proxy.drop(0.1, rng)
            say(f"FAULT dropped {dropped} of {len(proxy.open) + dropped} connections at once")
        faults.append((name, t, t + size.recovery))
    await asyncio.gather(*restarts)
    await asyncio.sleep(max(0.0, end - room.now()))
    while not (root / "done.json").exists() and room.now() < limit:
        await asyncio.sleep(0.5)
    satellite_done = (root / "done.json").exists()
    say(f"play over (the satellite {'finished' if satellite_done else 'did NOT finish'})")
    room.stopping = True
    await play
    await supervisor
    stop_at = room.now()
    await asyncio.gather(*(asyncio.to_thread(p.stop, 2) for p in (beat, *workers)))
    stopped = datetime.now(UTC)
    say("beat and workers stopped; the feeds settle")
    await asyncio.sleep(1)
    final = await asyncio.to_thread(_positions)
    settle = time.monotonic() + SETTLE_MAX_S
    while time.monotonic() < settle and any(f.last != final.get(f.table) for f in feeds):
        await asyncio.sleep(0.5)  # a loaded server may still be sending what it owes
    await asyncio.gather(*(feed.close() for feed in feeds))
    await proxy.close()
    await asyncio.gather(*(asyncio.to_thread(server.stop) for server in servers))
    logs = "".join(s.tail(10**9) for s in servers)
    errors = {kind: logs.count(kind) for kind in SERVER_ERRORS}
    return Outcome(room, drivers, faults, (start, stop_at), stopped, final, proxy.refused,
                   satellite_done, errors, unexpected)  # fmt: skip


SERVER_ERRORS = ("Internal Server Error", "Exception in ASGI application")


def _restart_server(server: AsgiServer) -> None:
    if server.process is not None and server.process.poll() is None:
        return  # running: never two processes under one name
    server.start()
    _wait_http(server)


def _unacked(url: str) -> int:
    """Tasks delivered to a worker and not yet acknowledged (kombu's Redis
    transport keeps them in the ``unacked`` hash)."""
    import redis

    try:
        return int(redis.Redis.from_url(url, socket_timeout=2).hlen("unacked"))
    except redis.RedisError:
        return -1


def _positions() -> dict[int, int]:
    from django.db import connections

    from poker.models import Table

    connections.close_all()  # PostgreSQL restarted since this process last asked
    return dict(Table.objects.filter(tournament=None).values_list("pk", "position"))


# --------------------------------------------------------------------------
# Checks and report


def _checks(outcome: Outcome, ready: dict[str, Any], workers: list[Celery]) -> list[checks.Check]:
    from django.db import connections

    connections.close_all()
    room = outcome.room
    feeds = [f for d in outcome.drivers for f in d.feeds]
    gaps = [(d.id, f.player, g) for d in outcome.drivers for f in d.feeds for g in f.gaps]
    behind = [(d.id, f.player, (outcome.final.get(d.id) or 0) - (f.last or 0))
              for d in outcome.drivers for f in d.feeds
              if f.last != outcome.final.get(d.id)]  # fmt: skip
    reconnects = sum(f.connects - 1 for f in feeds)
    out = [
        checks.chips_at_tables(),
        checks.chips_in_tournament(ready["tournament"]),
        checks.ledger(),
        checks.hands(),
        checks.Check(
            "every action answered (resent with its command id until it was)",
            not room.lost and not room.errors,
            f"{len(room.samples)} actions, {sum(bool(s.retries) for s in room.samples)} "
            f"answered only after a retry (tries again: {dict(room.retried)}), "
            f"{len(room.lost)} never answered, {room.refusals} refused as stale, "
            f"{room.sit_ins} sit-ins after a timeout, {len(room.errors)} bot errors"
            + checks._first(room.lost + room.errors),
        ),
        checks.Check(
            "every client's feed without a missed version after resuming",
            not gaps and not behind,
            f"{len(feeds)} sockets, {reconnects} reconnections (after=last position), "
            f"{len(gaps)} gaps, {len(behind)} not at their table's last position "
            f"(by {max((b[2] for b in behind), default=0)} at most)"
            + checks._first([str(g) for g in gaps[:3]] + [str(b) for b in behind[:3]]),
        ),
        *checks.timers(
            outcome.stopped - timedelta(seconds=LOST_AFTER_S),
            [w.log_path for w in workers],
            CLOCK_S,
            PAUSE_S,
        ),
        *checks.satellite(ready),
        checks.rebuild(),
    ]
    return out


def _phases(outcome: Outcome) -> list[tuple[str, float, float]]:
    start, end = outcome.play
    out = [("before the faults", start, outcome.faults[0][1])]
    for n, (name, at, until) in enumerate(outcome.faults):
        following = outcome.faults[n + 1][1] if n + 1 < len(outcome.faults) else end
        out.append((f"during: {name}", at, until))
        out.append((f"after:  {name}", until, following))
    return out


def _ms(latencies: list[float], p: float) -> str:
    """The ``p``th percentile in whole milliseconds ("-": none)."""
    return f"{1000 * pct(latencies, p):.0f}" if latencies else "-"


def _report(size: Size, outcome: Outcome, results: list[checks.Check], say: Log) -> bool:
    print(f"\nthroughput and latency (act -> answer, client clock) by phase, "
          f"{size.tables} tables ({asdict(size)})")  # fmt: skip
    print(
        f"  {'phase':<45}{'s':>6}{'actions':>9}{'act/s':>8}{'p50 ms':>9}{'p99 ms':>9}{'retried':>9}"
    )
    for name, a, b in _phases(outcome):
        got = [s for s in outcome.room.samples if a <= s.sent < b]
        lat = [s.latency for s in got]
        span = max(b - a, 1e-9)
        print(
            f"  {name:<45}{span:>6.1f}{len(got):>9}{len(got) / span:>8.1f}"
            f"{_ms(lat, 50):>9}{_ms(lat, 99):>9}"
            f"{sum(bool(s.retries) for s in got):>9}"
        )
    slow = sorted(outcome.room.samples, key=lambda s: -s.latency)[:3]
    print("  slowest: " + "; ".join(
        f"table {s.table} {s.via} at {s.sent:.1f} s: {s.latency:.1f} s {list(s.retries)}"
        for s in slow
    ))  # fmt: skip
    print(
        f"  proxy: {outcome.proxy_refused} connections refused by a server and taken by the "
        f"other; servers' logs: {outcome.server_errors}"
    )
    print(f"  processes that exited by themselves: {outcome.unexpected or 'none'}")
    print("\nchecks:")
    for check in results:
        print(f"  [{'ok' if check.ok else 'FAILED'}] {check.name}: {check.detail}")
    ok = all(c.ok for c in results) and outcome.satellite_done
    say(f"chaos run {'passed' if ok else 'FAILED'}")
    return ok
