"""Service throughput: actions through ``poker.services.hand_act`` on
PostgreSQL from several processes, against raw inserts made the same way;
and what one action costs: its SQL statements, its CPU, step by step.

Why: every action is one transaction (lock the table row, fold the streams,
decide, append the command and its events, rewrite the projections), then
its timer and frames go out.  The database round trips and the Python
around them cap how many actions a server process serves, and a room runs
several server processes side by side.  The reference point is the
cheapest write the store could make: one event-sized row per transaction.
Goals (issue 12): the service within ``GOAL`` x of the raw insert rate at
every concurrency; an action in ``GOAL_STATEMENTS`` statements and
``GOAL_CPU_MS`` ms of CPU.

The processes: ``PROCESSES`` workers started with ``spawn`` (as several
ASGI servers would be), each with Django set up on its own and one
database connection.  An ASGI server runs its database work in one thread
(``database_sync_to_async`` and sync views are thread-sensitive), so each
worker serves its tables one action after another.  Each run's tables (1,
8, 32: ``TABLES``) are dealt out among the workers (``tables[i::P]``); a
worker with none sits the run out.  Every worker waits at a barrier until
all are ready; the window (``WARMUP`` s unrecorded, then ``DURATION`` s)
is fixed on ``time.monotonic``, one clock for every process.

- service: per table, keep the answer of its previous action when it shows
  the player to act his menu, else fetch the view as the player to act
  (``selectors.table_view``, as ``GET /api/tables/<id>/`` does; the
  report says how many fetches an action took: about one, as the answer
  is the actor's view and the next actor is nearly always another player,
  whose menu a live client has from his own frames); pick a
  random legal action (leaning to call and check so hands go on; min-sized
  bets and raises) and call ``hand_act`` with a fresh command id, as the
  REST view does.  Only ``hand_act`` is inside the latency; actions/s
  counts the whole loop (view fetches included).  Tables are 32 Card Draw,
  no limit 1/2, 4 or 5 players on deep stacks; hands are dealt back to back.
- shared: the service run with every table driven by ``SHARERS`` (2)
  workers, as when a load balancer spreads one table's players over
  several server processes.  The workers pair up (``max(SHARERS, P)``
  of them, ``P`` as in the service run); each pair shares its tables.
  Each action is sent by one of a table's sharers chosen at random
  (the one that acted last picks, and hands the table and its answer to
  the other over a queue when the other is picked), so a table is acted
  on by one process at a time, as players take turns.  An action that
  lands on the process that did not write the table last finds its held
  work stale: its one statement conflicts and it runs again on the
  locked path (``kernel.commands``).  The report puts its rate, p99 and
  conflicts beside the service run's (one owner a table).
- raw: the same workers, each with one psycopg connection, autocommit off;
  each transaction one INSERT of an event-sized row and a COMMIT, into a
  scratch copy of ``poker_event`` (``LIKE ... INCLUDING ALL``), one stream
  per table, the worker's tables in turn.

Each run also counts its CPU per action (per row for raw): the worker
processes' (every thread) and their PostgreSQL backends' (from
``/proc/<pid>/schedstat``, when the server runs on this machine and its
processes can be read), so the report shows where the machine's time goes,
not only the rates.

As deployed, the workers use Redis (``REDIS_URL``, when it answers) for
the channel layer and the clock drains, under a key prefix and queue of
the run's own, deleted at the end; without Redis, the in-memory ones.

One action's cost, at one table in one worker: ``ACTIONS`` actions with
``time.thread_time`` around each ``hand_act``, plus what the process's
other threads spent meanwhile on sending the frames the actions handed
them (``sender_threads``): CPU per action; as many
under Django's ``CaptureQueriesContext`` (statements per action, BEGIN and
COMMIT included, as ``tests/poker/test_statement_budget.py`` counts them);
and as many under a sampling profiler that charges the thread's CPU to the
step on the stack (``STEPS``: found by module, so a function that moves
between modules is still found).

The database is never the developer's: the run's own,
``pokerroom_bench_<pid>`` (or the one ``BENCH_DATABASE_URL`` names), is
dropped, created afresh and migrated, and dropped at the end.  Without a
reachable PostgreSQL the benchmark says so and skips.
"""

from __future__ import annotations

import multiprocessing
import os
import queue
import random
import re
import signal
import threading
import time
import traceback
import uuid
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from types import FrameType
from typing import Any
from urllib.parse import urlsplit, urlunsplit

DEFAULT_NAME = "pokerroom_bench"
DEFAULT_REDIS = "redis://127.0.0.1:6379/0"
TABLES = tuple(int(n) for n in os.environ.get("BENCH_SERVICE_TABLES", "1,8,32").split(","))
"""The concurrencies: tables in play at once."""
PROCESSES = int(os.environ.get("BENCH_SERVICE_PROCESSES", "4"))
SHARERS = 2
"""Worker processes that drive each table of the shared run."""
WARMUP = float(os.environ.get("BENCH_SERVICE_WARMUP", "1"))
DURATION = float(os.environ.get("BENCH_SERVICE_DURATION", "4"))
ACTIONS = int(os.environ.get("BENCH_SERVICE_ACTIONS", "1000"))
"""Actions of each pass of the one-action cost."""
GOAL = 3.0
"""Raw insert rate over service action rate allowed at every concurrency."""
GOAL_STATEMENTS = 5
GOAL_INSIDE = 1
"""Statements of an action inside a hand on a warm process (issue 28)."""
GOAL_CPU_MS = 1.5
SEED = 20_240_603
BLINDS = (1, 2)
STACK = 100_000_000
"""Deep stacks: min-raise wars take dozens of doublings to put anyone all-in."""
REFILL_BELOW = 1_000
"""A stack below this is topped up between hands (a recovery, rarely used)."""
WEIGHTS = {"fold": 1, "call": 6, "check": 6, "bet": 1, "raise": 1}
"""Odds of each legal action (others: 2), leaning to call and check."""
PAYLOAD = {
    "player": 3,
    "action": "raise",
    "amount": 1234,
    "to": 2468,
    "all_in": False,
    "cards": ["As", "Kd", "Qh", "Jc", "Ts"],
    "pots": [{"amount": 4321, "eligible": [0, 1, 2, 3, 4]}],
    "note": "x" * 13,
}
"""A JSON event body of about 200 bytes for the raw peer."""
STARTUP_SECONDS = 300.0
"""How long a worker may take to be ready (Django set up, connected)."""


def main() -> None:
    """Set up the bench database, run every configuration, print the report."""
    url = os.environ.get("BENCH_DATABASE_URL") or run_database_url(DEFAULT_NAME)
    problem = recreate_database(url)
    if problem is not None:
        print(f"skipped: {problem}")
        return
    try:
        report = measure(url, redis_url(), migrate=True)
    finally:
        drop_database(url)
    print_report(report)


@dataclass
class Run:
    """One configuration's measured window, every worker's together."""

    name: str
    tables: int
    processes: int
    count: int
    seconds: float
    latencies: list[float]
    errors: int = 0
    extra: Counter[str] = field(default_factory=Counter)

    @property
    def rate(self) -> float:
        return self.count / self.seconds

    def percentile(self, p: float) -> float:
        """Latency at percentile ``p`` (0-100), in milliseconds."""
        if not self.latencies:
            return float("nan")
        ordered = sorted(self.latencies)
        return 1000 * ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))]


@dataclass
class Report:
    service: list[Run]
    raw: list[Run]
    cost: dict[str, Any]
    redis: str | None
    shared: list[Run] = field(default_factory=list)
    """The service runs again with every table shared by ``SHARERS`` workers."""


def measure(url: str, redis: str | None, *, migrate: bool) -> Report:
    """Every configuration on the database at ``url`` (migrated first if
    ``migrate``), with workers on Redis at ``redis`` (None: in memory)."""
    prefix = f"servicebench-{uuid.uuid4().hex[:8]}"
    env = {
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DATABASE_URL": url,
        "CONN_MAX_AGE": "600",
        "REDIS_URL": redis or "",
        "CHANNEL_LAYER_PREFIX": prefix,
        "CACHE_KEY_PREFIX": prefix,
        "CLOCK_QUEUE": prefix,
        "CLOCKS_ENABLED": "true",
        "EMBEDDED_WORKER": "false",
    }
    workers = Workers(max(SHARERS, min(PROCESSES, max(TABLES))), env)
    try:
        tables: list[Seated] = workers.call("setup", migrate, max(TABLES))
        service, shared, raw = [], [], []
        for n in TABLES:
            owners = min(PROCESSES, workers.count)  # a second worker may be the sharers' only
            shares = [tables[:n][i::owners] if i < owners else [] for i in range(workers.count)]
            service.append(Run(f"service, {n} tables", n, *workers.run("service", shares)))
            pairs = shared_shares(tables[:n], workers.count)
            shared.append(Run(f"shared, {n} tables", n, *workers.run("shared", pairs)))
            with raw_table(url):
                streams = [[f"raw-{n}-{s.table_id}" for s in share] for share in shares]
                raw.append(Run(f"raw, {n} tables", n, *workers.run("raw", streams)))
        cost = workers.call("cost", tables[0], ACTIONS)
    finally:
        workers.close()
        if redis:
            forget_keys(redis, prefix)
    return Report(service, raw, cost, redis, shared)


def shared_shares(tables: list[Seated], workers: int) -> list[list[tuple[Seated, list[int]]]]:
    """Each worker's share of a shared run: (table, its sharers, the first
    to act first).  Workers pair up, as many pairs as the service run's
    processes make (at least one); a pair's tables start at either
    sharer in turn."""
    pairs = max(1, min(workers, len(tables)) // SHARERS)
    shares: list[list[tuple[Seated, list[int]]]] = [[] for _ in range(workers)]
    for j, seated in enumerate(tables):
        group = [SHARERS * (j % pairs) + k for k in range(SHARERS)]
        turn = (j // pairs) % SHARERS
        sharers = group[turn:] + group[:turn]
        for worker in sharers:
            shares[worker].append((seated, sharers))
    return shares


# --------------------------------------------------------------------------
# The bench database, Redis and Django


def redact(url: str) -> str:
    """The URL without its password."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    return urlunsplit(parts._replace(netloc=parts.netloc.replace(f":{parts.password}@", ":***@")))


def run_database_url(name: str) -> str:
    """The local PostgreSQL database a benchmark run makes for itself:
    ``name`` with this process's id, so that runs at once (from other
    worktrees) never drop each other's."""
    return f"postgres://postgres@127.0.0.1:5432/{name}_{os.getpid()}"


def drop_database(url: str) -> None:
    """Drop the bench database (its connections too)."""
    import psycopg
    from psycopg import sql

    parts = urlsplit(url)
    with psycopg.connect(
        urlunsplit(parts._replace(path="/postgres")), autocommit=True, connect_timeout=2
    ) as conn:
        conn.execute(
            sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(
                sql.Identifier(parts.path.lstrip("/"))
            )
        )


def recreate_database(url: str) -> str | None:
    """Drop and create the bench database; None, or why it could not."""
    import psycopg
    from psycopg import sql

    parts = urlsplit(url)
    name = parts.path.lstrip("/")
    others = {os.environ.get(v, "") for v in ("DATABASE_URL", "TEST_DATABASE_URL")}
    taken = {urlsplit(u).path.lstrip("/") for u in others if u.startswith("postgres")}
    if not name or name in {"postgres", "template0", "template1", "test"} | taken:
        return f"the benchmark will not drop database {name!r}: name a database of its own"
    errors = []
    for maintenance in ("postgres", "test"):
        dsn = urlunsplit(parts._replace(path=f"/{maintenance}"))
        try:
            with psycopg.connect(dsn, autocommit=True, connect_timeout=2) as conn:
                conn.execute(
                    sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name))
                )
                conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
            return None
        except psycopg.Error as error:
            errors.append(f"{maintenance}: {' '.join(str(error).split())}")
    return f"PostgreSQL not usable at {redact(url)} ({'; '.join(errors)})"


def redis_url() -> str | None:
    """``REDIS_URL`` (or the local default) if it answers, else None."""
    import redis

    url = os.environ.get("REDIS_URL") or DEFAULT_REDIS
    try:
        redis.Redis.from_url(url, socket_timeout=2).ping()
    except redis.RedisError:
        return None
    return url


def forget_keys(url: str, prefix: str) -> None:
    """Delete the run's keys: its cache's, its Celery queue and the queue's
    binding (pub/sub leaves none; a run may leave none at all)."""
    import redis

    client = redis.Redis.from_url(url, socket_timeout=5)
    try:
        keys = [*client.scan_iter(f"{prefix}*"), *client.scan_iter(f"_kombu.binding*.{prefix}")]
        if keys:
            client.delete(*keys)
    finally:
        client.close()


def use_database(url: str) -> None:
    """Point Django's default database at ``url`` (before anything connects),
    with connections kept and the query log off."""
    import django
    import environ
    from django.conf import settings

    db = environ.Env.db_url_config(url)
    db["CONN_MAX_AGE"] = 600
    if not settings.configured:
        os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
        saved = {k: os.environ.get(k) for k in ("DATABASE_URL", "CONN_MAX_AGE")}
        os.environ.update(DATABASE_URL=url, CONN_MAX_AGE="600")
        try:
            django.setup()
        finally:
            for key, value in saved.items():
                if value is None:
                    os.environ.pop(key, None)
                else:
                    os.environ[key] = value
    else:
        from django.db import connections

        django.setup()
        connections.close_all()
        settings.DATABASES["default"] = db
        connections.settings["default"] = connections.configure_settings({"default": db})["default"]
        del connections["default"]
    assert settings.DATABASES["default"]["NAME"] == db["NAME"]
    settings.DEBUG = False  # as in production: no per-query log


# --------------------------------------------------------------------------
# The worker processes


class Workers:
    """Processes started with ``spawn``, each with Django set up once and a
    task queue of its own; a run gives every worker a share (maybe empty)
    and they start together."""

    def __init__(self, count: int, env: dict[str, str]) -> None:
        ctx = multiprocessing.get_context("spawn")
        self.count = count
        self.barrier = ctx.Barrier(count + 1)
        self.window = ctx.Array("d", 2)
        self.results: Any = ctx.Queue()
        self.inboxes: list[Any] = [ctx.Queue() for _ in range(count)]
        self.handoffs: list[Any] = [ctx.Queue() for _ in range(count)]
        """Each worker's queue of shared tables handed to it (``play_shared``)."""
        self.processes = [
            ctx.Process(
                target=serve,
                args=(
                    i,
                    env,
                    self.inboxes[i],
                    self.results,
                    self.barrier,
                    self.window,
                    self.handoffs,
                ),
                name=f"service-bench-{i}",
                daemon=True,
            )
            for i in range(count)
        ]
        for process in self.processes:
            process.start()

    def call(self, task: str, *args: Any) -> Any:
        """Worker 0 does ``task`` alone."""
        self.inboxes[0].put((task, args))
        return self._collect(1)[0]

    def run(
        self, task: str, shares: list[list[Any]]
    ) -> tuple[int, int, float, list[float], int, Counter[str]]:
        """Every worker does ``task`` on its share in one window: (processes
        with a share, count, seconds, latencies, errors, extra)."""
        for inbox, share in zip(self.inboxes, shares, strict=True):
            inbox.put((task, (share,)))
        try:
            self.barrier.wait(STARTUP_SECONDS)  # all connected and ready
            t0 = time.monotonic() + WARMUP
            self.window[0], self.window[1] = t0, t0 + DURATION
            self.barrier.wait(STARTUP_SECONDS)  # the window is set: go
        except threading.BrokenBarrierError:
            self._collect(self.count)  # raises with the worker's error
            raise
        done = self._collect(self.count)
        extra: Counter[str] = Counter()
        for d in done:
            extra.update(d["extra"])
        latencies = [x for d in done for x in d["latencies"]]
        busy = sum(1 for share in shares if share)
        count, errors = sum(d["count"] for d in done), sum(d["errors"] for d in done)
        return busy, count, DURATION, latencies, errors, extra

    def _collect(self, n: int) -> list[Any]:
        """``n`` results in worker order; a worker's failure is raised here."""
        got: dict[int, Any] = {}
        failures = []
        while len(got) < n:
            try:
                index, ok, value = self.results.get(timeout=5)
            except queue.Empty:
                dead = [p.name for p in self.processes if not p.is_alive()]
                if dead:
                    raise RuntimeError(f"service bench workers died: {dead}") from None
                continue
            got[index] = value
            if not ok:
                failures.append(value)
        if failures:
            raise RuntimeError(f"a service bench worker failed:\n{failures[0]}")
        return [got[i] for i in sorted(got)]

    def close(self) -> None:
        for inbox in self.inboxes:
            inbox.put(None)
        for process in self.processes:
            process.join(30)
            if process.is_alive():
                process.terminate()
                process.join(10)


def serve(
    index: int,
    env: dict[str, str],
    inbox: Any,
    results: Any,
    barrier: Any,
    window: Any,
    handoffs: list[Any],
) -> None:
    """A worker: Django on the bench database, then tasks until None."""
    os.environ.update(env)
    use_database(env["DATABASE_URL"])

    def start() -> tuple[float, float]:
        barrier.wait(STARTUP_SECONDS)
        barrier.wait(STARTUP_SECONDS)
        return window[0], window[1]

    tasks: dict[str, Callable[..., Any]] = {
        "setup": setup_tables,
        "service": lambda share: play_tables(share, index, start),
        "shared": lambda share: play_shared(share, index, start, handoffs),
        "raw": lambda streams: insert_rows(env["DATABASE_URL"], streams, start),
        "cost": one_action_cost,
    }
    while (task := inbox.get()) is not None:
        name, args = task
        try:
            results.put((index, True, tasks[name](*args)))
        except BaseException:
            barrier.abort()
            results.put((index, False, traceback.format_exc()))
    from django.db import connections

    connections.close_all()


@dataclass
class Window:
    """What one worker saw in the measured window.

    With ``backend`` (the process id of the worker's PostgreSQL backend)
    it also counts the CPU spent in the window, in ``extra``: the worker
    process's, all its threads (``cpu_s``), and its backend's
    (``db_cpu_s``, read from ``/proc/<pid>/schedstat``: only when the
    server runs on this machine and its processes can be read;
    ``db_unread`` counts the workers whose could not)."""

    t0: float
    t1: float
    latencies: list[float] = field(default_factory=list)
    count: int = 0
    errors: int = 0
    extra: Counter[str] = field(default_factory=Counter)
    backend: int | None = None
    _cpu: tuple[float, float | None] | None = None
    _marked: int = 0

    def record(self, started: float, ended: float) -> None:
        if self.t0 <= started and ended <= self.t1:
            self.count += 1
            self.latencies.append(ended - started)

    def mark(self, now: float) -> None:
        """Called before each action (and after the last): CPU is read as
        ``now`` first reaches ``t0`` and then ``t1``."""
        if self._marked == 0 and now >= self.t0:
            self._cpu, self._marked = self._read(), 1
        if self._marked == 1 and now >= self.t1:
            (cpu0, db0), (cpu1, db1) = self._cpu or self._read(), self._read()
            self.extra["cpu_s"] += cpu1 - cpu0
            if db0 is None or db1 is None:
                self.extra["db_unread"] += 1
            else:
                self.extra["db_cpu_s"] += db1 - db0
            self._marked = 2

    def _read(self) -> tuple[float, float | None]:
        return time.process_time(), backend_cpu(self.backend)

    def result(self) -> dict[str, Any]:
        return {
            "count": self.count,
            "latencies": self.latencies,
            "errors": self.errors,
            "extra": dict(self.extra),
        }


def backend_cpu(pid: int | None) -> float | None:
    """The CPU seconds process ``pid`` (a PostgreSQL backend) has run, or
    None when it cannot be read (the server on another machine)."""
    if pid is None:
        return None
    try:
        with open(f"/proc/{pid}/schedstat") as f:
            return int(f.read().split()[0]) / 1e9
    except (OSError, ValueError, IndexError):
        return None


# --------------------------------------------------------------------------
# Tables and their players


@dataclass
class Seated:
    """A table of the benchmark and its players' user ids."""

    table_id: int
    players: list[int]
    stack: int = STACK
    """The buy-in (``STACK`` unless the table caps it)."""


def setup_tables(migrate: bool, count: int) -> list[Seated]:
    """Migrate if asked; open ``count`` tables and seat 4 or 5 players at
    each via the services."""
    from django.contrib.auth import get_user_model
    from django.core.management import call_command

    from accounts import money
    from poker import services

    if migrate:
        call_command("migrate", verbosity=0)
    rng = random.Random(SEED)
    User = get_user_model()
    run = uuid.uuid4().hex[:6]  # names of this run's own
    boss = User.objects.create_user(f"boss-{run}", is_staff=True)  # no password: no hashing
    out = []
    for t in range(count):
        table = services.table_create(
            by=boss,
            name=f"bench {t}",
            game="32-card-draw",
            betting="no-limit",
            small_blind=BLINDS[0],
            big_blind=BLINDS[1],
            min_buy_in=20 * BLINDS[0],
            max_buy_in=None,
            pause_seconds=0,  # hands back to back: the benchmark measures play
        )
        stack = STACK if table.max_buy_in is None else min(STACK, table.max_buy_in)
        players = []
        for seat in range(1, rng.choice((4, 5)) + 1):
            user = User.objects.create_user(f"t{t}s{seat}-{run}")
            # Enough for the buy-in and every refill (top-up) the run makes.
            money.wallet_deposit(transfer_id=uuid.uuid4(), user_id=user.pk, amount=stack * 10**4)
            services.seat_sit(
                by=user, table_id=table.pk, seat=seat, buy_in=stack, command_id=uuid.uuid4()
            )
            players.append(user.pk)
        out.append(Seated(table.pk, players, stack))
    return out


class Driver:
    """One table's client: who acts next and how, then the action."""

    def __init__(self, seated: Seated, rng: random.Random) -> None:
        from django.contrib.auth import get_user_model

        self.seated = seated
        self.rng = rng
        self.users = get_user_model().objects.in_bulk(seated.players)
        self.answer: dict[str, Any] | None = None
        self.actor: Any = None
        self.refills = 0
        self.fetches = 0
        self.acts = 0

    def next(self) -> tuple[Any, dict[str, Any], dict[str, Any]]:
        """(player to act, the hand as he sees it, his move)."""
        hand = self.answer["hand"] if self.answer is not None else None
        if hand is None or hand["legal"] is None:
            self.actor, self.answer = self._to_act()
        assert self.answer is not None and self.answer["hand"] is not None
        hand = self.answer["hand"]
        return self.actor, hand, choose(self.rng, hand)

    def act(self, user: Any, hand: dict[str, Any], move: dict[str, Any]) -> bool:
        """``hand_act`` as the REST view calls it; False if refused (next
        time, the view afresh)."""
        from kernel.api_errors import ApiError
        from poker import services

        self.acts += 1
        try:
            self.answer = services.hand_act(
                by=user,
                table_id=self.seated.table_id,
                hand=hand["id"],
                version=hand["version"],
                command_id=uuid.uuid4(),
                **move,
            )
        except ApiError:
            self.answer = None
            return False
        return True

    def fetch(self, user: Any) -> dict[str, Any]:
        """The table as ``user`` sees it, as the GET view reads it: the table
        row with its current hand's (one statement), then the view."""
        from poker import selectors
        from poker.models import Table

        self.fetches += 1
        table = Table.objects.select_related("current_hand").get(pk=self.seated.table_id)
        return selectors.table_view(table, user)

    def _to_act(self) -> tuple[Any, dict[str, Any]]:
        """The player to act and his view, topping up broke players if no
        hand can be dealt."""
        view = self.answer if self.answer is not None else self.fetch(None)
        for _ in range(3):
            hand = view["hand"]
            if hand is not None and hand["to_act_seat"] is not None:
                seat = next(s for s in view["seats"] if s["seat"] == hand["to_act_seat"])
                user = self.users[seat["player"]]
                mine = self.fetch(user)
                if mine["hand"] is not None and mine["hand"]["legal"] is not None:
                    return user, mine
            self._refill(view)
            view = self.fetch(None)
        raise RuntimeError(f"table {self.seated.table_id} is stuck: {view}")

    def _refill(self, view: dict[str, Any]) -> None:
        from poker import services

        self.refills += 1
        for seat in view["seats"]:
            if seat["stack"] < min(REFILL_BELOW, self.seated.stack // 2):
                amount = self.seated.stack - seat["stack"]
                services.seat_top_up(
                    by=self.users[seat["player"]], table_id=self.seated.table_id, amount=amount
                )


def choose(rng: random.Random, hand: dict[str, Any]) -> dict[str, Any]:
    """A random legal action from the menu the player sees."""
    legal = hand["legal"]
    actions = [a for a in legal["actions"] for _ in range(WEIGHTS.get(a, 2))]
    action = rng.choice(actions)
    move: dict[str, Any] = {"action": action}
    if action in ("bet", "raise"):
        low, high = legal[f"min_{action}_to"], legal[f"max_{action}_to"]
        move["amount"] = low if rng.random() < 0.9 else rng.randint(low, min(high, 3 * low))
    elif action == "discard":
        mine = next(p for p in hand["players"] if p["seat"] == hand["your_seat"])
        move["cards"] = rng.sample(mine["cards"], rng.randint(1, legal["max_discard"]))
    return move


# --------------------------------------------------------------------------
# The runs


def play_tables(
    share: list[Seated], index: int, start: Callable[[], tuple[float, float]]
) -> dict[str, Any]:
    """A worker's share of a service run: its tables in turn, one action at
    each, until the window closes."""
    drivers = [Driver(s, random.Random(SEED + 1000 * index + i)) for i, s in enumerate(share)]
    window, tried = open_window(drivers, start)
    hands: set[str] = set()
    while drivers and time.monotonic() < window.t1:
        for driver in drivers:
            _, hand = act_in_window(window, driver)
            if hand is not None:
                hands.add(hand["id"])
    window.extra["hands"] = len(hands)
    window.extra["refills"] = sum(d.refills for d in drivers)
    return close_window(window, drivers, tried)


def play_shared(
    share: list[tuple[Seated, list[int]]],
    index: int,
    start: Callable[[], tuple[float, float]],
    handoffs: list[Any],
) -> dict[str, Any]:
    """A worker's share of a shared run: the tables handed to it, one
    action each, until the window closes.  After each action the next
    sender is drawn among the table's sharers; another one gets the table
    with the answer (the view its client would hold) on its queue."""
    rng = random.Random(SEED + 7919 * (index + 1))
    drivers = {
        s.table_id: Driver(s, random.Random(SEED + 1000 * index + i))
        for i, (s, _) in enumerate(share)
    }
    sharers = {s.table_id: group for s, group in share}
    inbox = handoffs[index]
    window, tried = open_window(list(drivers.values()), start)
    ready = [s.table_id for s, group in share if group[0] == index]

    def handed(block: bool) -> None:
        """Take the tables handed over (waiting for one if ``block``); a
        hand-over of an earlier run (its window's start) is dropped."""
        while True:
            try:
                wait = max(0.0, window.t1 - time.monotonic())
                tag, table_id, answer, actor = (
                    inbox.get(timeout=wait) if block else inbox.get_nowait()
                )
            except queue.Empty:
                return
            if tag == window.t0:
                driver = drivers[table_id]
                driver.answer, driver.actor = answer, driver.users.get(actor)
                ready.append(table_id)
            block = block and not ready

    while drivers and time.monotonic() < window.t1:
        handed(block=not ready)
        if not ready:
            continue
        table_id = ready.pop(0)
        driver = drivers[table_id]
        user, hand = act_in_window(window, driver)
        chosen = rng.choice(sharers[table_id])
        if chosen == index:
            ready.append(table_id)
        else:
            handoffs[chosen].put((window.t0, table_id, driver.answer, user.pk))
            window.extra["handed"] += hand is not None
    return close_window(window, list(drivers.values()), tried)


def open_window(
    drivers: list[Driver], start: Callable[[], tuple[float, float]]
) -> tuple[Window, dict[str, float]]:
    """The drivers connected (before the clock starts), then the run's
    window (its view fetches counted from 0), and the one-statement tries
    so far."""
    from django.db import connection

    for driver in drivers:
        driver.fetch(None)
    backend = connection.connection.info.backend_pid if drivers else None
    tried = one_statement_tries()
    window = Window(*start(), backend=backend)
    window.extra["fetches"] = 0
    return window, tried


def act_in_window(window: Window, driver: Driver) -> tuple[Any, dict[str, Any] | None]:
    """One action of ``driver``, timed in ``window``: its user, and its hand
    when it started inside the window (None in the warm-up), whose view
    fetches then count."""
    window.mark(time.monotonic())
    before = driver.fetches
    user, hand, move = driver.next()
    started = time.monotonic()
    inside = started >= window.t0
    if inside:
        window.extra["fetches"] += driver.fetches - before
    if driver.act(user, hand, move):
        window.record(started, time.monotonic())
    else:
        window.errors += 1
    return user, hand if inside else None


def close_window(window: Window, drivers: list[Driver], tried: dict[str, float]) -> dict[str, Any]:
    """The run's result: its window closed, with the drivers' acts and the
    one-statement tries of the whole run (warm-up too)."""
    if drivers:
        window.mark(max(time.monotonic(), window.t1))
    window.extra["acts"] = sum(d.acts for d in drivers)
    for outcome, n in one_statement_tries().items():
        window.extra[f"one_{outcome}"] = int(n - tried[outcome])
    return window.result()


OUTCOMES = ("written", "conflict", "answered", "declined")


def one_statement_tries() -> dict[str, float]:
    """This process's actions tried as one statement so far, by outcome
    (``poker_one_statement_total``, ``kernel.telemetry.one_statement``)."""
    from prometheus_client import REGISTRY

    return {
        outcome: REGISTRY.get_sample_value(
            "poker_one_statement_total", {"kind": "hand.act", "outcome": outcome}
        )
        or 0.0
        for outcome in OUTCOMES
    }


RAW_TABLE = "bench_raw_event"
RAW_INSERT = (
    f"INSERT INTO {RAW_TABLE} (stream, version, type, data, schema, recorded_at) "
    "VALUES (%s, %s, %s, %s, 2, %s)"
)


@contextmanager
def raw_table(url: str) -> Iterator[None]:
    """A scratch copy of ``poker_event`` for the raw peer, dropped after."""
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(f"DROP TABLE IF EXISTS {RAW_TABLE}")
        conn.execute(f"CREATE TABLE {RAW_TABLE} (LIKE poker_event INCLUDING ALL)")
    try:
        yield
    finally:
        with psycopg.connect(url, autocommit=True) as conn:
            conn.execute(f"DROP TABLE IF EXISTS {RAW_TABLE}")


def insert_rows(
    url: str, streams: list[str], start: Callable[[], tuple[float, float]]
) -> dict[str, Any]:
    """A worker's share of a raw run: one event row per transaction, its
    streams in turn, until the window closes."""
    import psycopg
    from psycopg.types.json import Jsonb

    with psycopg.connect(url, autocommit=False) as conn:
        cur = conn.cursor()
        versions = dict.fromkeys(streams, 0)
        window = Window(*start(), backend=conn.info.backend_pid)
        while streams and time.monotonic() < window.t1:
            for stream in streams:
                window.mark(time.monotonic())
                versions[stream] += 1
                row = (stream, versions[stream], "hand.bet_placed", Jsonb(PAYLOAD))
                started = time.monotonic()
                cur.execute(RAW_INSERT, (*row, datetime.now(UTC)))
                conn.commit()
                window.record(started, time.monotonic())
        if streams:
            window.mark(max(time.monotonic(), window.t1))
    return window.result()


# --------------------------------------------------------------------------
# One action's cost


def one_action_cost(seated: Seated, actions: int) -> dict[str, Any]:
    """CPU, statements and the step profile of ``actions`` actions each at
    one table (after as many, at most 50, unmeasured)."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    driver = Driver(seated, random.Random(SEED))
    for _ in range(min(50, actions)):
        driver.act(*driver.next())

    cpu = wall = 0.0
    with sender_threads() as others:
        for _ in range(actions):
            user, hand, move = driver.next()
            c0, w0 = time.thread_time(), time.perf_counter()
            driver.act(user, hand, move)
            cpu += time.thread_time() - c0
            wall += time.perf_counter() - w0
    cpu += others[0]

    kinds: Counter[str] = Counter()
    totals: Counter[int] = Counter()
    for _ in range(actions):
        user, hand, move = driver.next()
        with CaptureQueriesContext(connection) as captured:
            driver.act(user, hand, move)
        kinds.update(statement_kind(q["sql"]) for q in captured.captured_queries)
        totals[len(captured.captured_queries)] += 1

    profiler = StepProfiler()
    with profiler, sender_threads() as others:
        for _ in range(actions):
            user, hand, move = driver.next()
            with profiler.inside():
                driver.act(user, hand, move)
    profiler.cpu[THREADS] += others[0]
    return {
        "actions": actions,
        "cpu_ms": 1000 * cpu / actions,
        "wall_ms": 1000 * wall / actions,
        "statements": {k: n / actions for k, n in kinds.most_common()},
        "statement_counts": dict(sorted(totals.items())),
        "steps": dict(profiler.cpu),
        "samples": profiler.samples,
    }


@contextmanager
def sender_threads() -> Iterator[list[float]]:
    """The CPU the process's other threads spend on what the block's
    commands handed them (frames: sent after each command returned, while
    the driver goes on), in the list's one item once the block is over.
    The publisher is flushed before and after, so that all of it, and only
    it, falls inside."""
    from kernel import layer

    out = [0.0]
    layer.flush()
    p0, t0 = time.process_time(), time.thread_time()
    yield out
    layer.flush()
    out[0] = max(0.0, (time.process_time() - p0) - (time.thread_time() - t0))


def statement_kind(sql: str) -> str:
    """``SELECT poker_table FOR UPDATE``, ``INSERT poker_event``, and for a
    statement of several writes (``WITH w0 AS (INSERT ...) ...``) each:
    ``WITH INSERT poker_command + INSERT poker_event``."""
    words = sql.split()
    verb = words[0].upper()
    if verb == "WITH":
        parts = re.findall(r'\b(INSERT INTO|UPDATE|DELETE FROM)\s+"?(\w+)', sql, re.IGNORECASE)
        return "WITH " + " + ".join(f"{v.split()[0].upper()} {t}" for v, t in parts)
    table = ""
    key = {"SELECT": "FROM", "INSERT": "INTO", "UPDATE": "UPDATE", "DELETE": "FROM"}.get(verb)
    if key is not None and key in words:
        table = words[words.index(key) + 1].strip('"')
    lock = " FOR UPDATE" if verb == "SELECT" and "FOR UPDATE" in sql.upper() else ""
    return f"{verb} {table}{lock}".strip()


TRANSPARENT = "transparent"
"""A frame that only carries the command on: the step is below it."""
STEPS: list[tuple[str, frozenset[str] | None, str]] = [
    ("poker.services", None, TRANSPARENT),
    ("kernel.commands", None, TRANSPARENT),
    ("kernel.telemetry", None, TRANSPARENT),  # wraps run: its own few µs are glue
    ("poker.work", frozenset({"receipt"}), "answer (view, receipt)"),
    ("poker.work", frozenset({"written", "<lambda>", "_follow", "_committed"}), TRANSPARENT),
    ("django.db.transaction", None, TRANSPARENT),
    ("poker.work", frozenset({"load", "_lock_table", "_fold", "current", "take"}), "lock and fold"),
    ("poker.streams", None, "lock and fold"),
    ("kernel.folds", None, "lock and fold"),
    ("kernel.statements", frozenset({"lock_pair"}), "lock and fold"),
    ("poker.work", frozenset({"batches", "_record"}), "append"),
    ("kernel.eventstore", None, "append"),
    ("kernel.statements", None, "append"),
    ("poker.work", None, "decide (engine)"),
    ("poker.engine", None, "decide (engine)"),
    ("accounts", None, "ledger"),
    ("poker.projections", None, "projections"),
    ("kernel.readmodels", None, "projections"),
    ("poker.clocks", None, "clock scheduling"),
    ("kernel.clocks", None, "clock scheduling"),
    ("poker.publish", None, "publish packing"),
    ("poker.selectors", None, "answer (view, receipt)"),
]
"""(module, functions or None for all, step): the first that fits a frame
names its step.  A frame of the project's code that none fits is a step
named after its module."""
SENDS = {
    "kernel.layer": "publish: channel-layer send",
}
"""Where a step hands its work to Redis: charged apart from the step."""
THREADS = "sender threads (frames)"
"""The CPU of the process's other threads meanwhile: the frame publisher
(``kernel.layer``), which sends what the commands handed it."""
GLUE = "transaction and glue"
"""Under ``hand_act`` with no step on the stack: BEGIN, COMMIT, the rest."""
PROJECT = ("kernel", "poker", "casino", "accounts", "tournaments", "config")


def step_of(frame: FrameType) -> str | None:
    """The step a frame is of (``TRANSPARENT``), or None (not the project's)."""
    module = frame.f_globals.get("__name__", "")
    name = frame.f_code.co_name
    for prefix, functions, step in STEPS:
        inside = module == prefix or module.startswith(prefix + ".")
        if inside and (functions is None or name in functions):
            return step
    return module if module.startswith(PROJECT) else None


class StepProfiler:
    """Charges this thread's CPU to the step on the stack under
    ``hand_act``: a timer samples the stack every ``interval`` s of wall
    time and charges it the thread's CPU since the sample before, less
    the sampling's own (the caller adds the other threads',
    ``sender_threads``, as ``THREADS``).
    Only the main thread receives signals: profile there."""

    def __init__(self, interval: float = 0.0002) -> None:
        self.interval = interval
        self.cpu: Counter[str] = Counter()
        self.samples = 0
        self.active = False
        self.sampling = False
        self.last = 0.0
        self.step = GLUE
        self.saved: Any = None

    def __enter__(self) -> StepProfiler:
        self.saved = signal.signal(signal.SIGALRM, self._sample)
        signal.setitimer(signal.ITIMER_REAL, self.interval, self.interval)
        return self

    def __exit__(self, *exc: object) -> None:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, self.saved)

    @contextmanager
    def inside(self) -> Iterator[None]:
        """Charge the CPU of the block (the tail after the last sample to
        the step seen last)."""
        self.last, self.step, self.active = time.thread_time(), GLUE, True
        try:
            yield
        finally:
            self.active = False
            self.cpu[self.step] += time.thread_time() - self.last

    def _sample(self, signum: int, frame: FrameType | None) -> None:
        # On a loaded machine a sample can outlast the interval, and the
        # next signal would run the handler inside itself until the stack
        # overflows: a signal that comes meanwhile is dropped.
        if not self.active or self.sampling:
            return
        self.sampling = True
        try:
            now = time.thread_time()
            step = self.classify(frame)
            self.cpu[step] += now - self.last
            self.step = step
            self.samples += 1
        finally:
            self.sampling = False
            # The sample's own CPU is charged to nothing (it would go to the
            # next step, most to the ones that wait long, such as COMMIT's).
            self.last = time.thread_time()

    @staticmethod
    def classify(frame: FrameType | None) -> str:
        """The first step below ``hand_act``, or where it sends to Redis."""
        stack = []
        while frame is not None:
            stack.append(frame)
            frame = frame.f_back
        stack.reverse()
        below = [f for f in stack if f.f_code.co_name == "hand_act"][-1:]
        if not below:
            return GLUE
        step = None
        for f in stack[stack.index(below[0]) + 1 :]:
            module = f.f_globals.get("__name__", "")
            if step is not None:
                for prefix, send in SENDS.items():
                    if module == prefix or module.startswith(prefix + "."):
                        return send
                continue
            found = step_of(f)
            if found not in (None, TRANSPARENT):
                step = found
        return step or GLUE


# --------------------------------------------------------------------------
# Report


def print_report(report: Report) -> None:
    where = f"Redis at {redact(report.redis)}" if report.redis else "in-memory layer"
    print(
        f"{PROCESSES} worker processes (spawn; one connection each), {where}; "
        f"{WARMUP:g} s warm-up + {DURATION:g} s per run; 32 Card Draw NL {BLINDS[0]}/{BLINDS[1]}, "
        f"4-5 players a table; machine load {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores"
    )
    print(
        f"\n{'tables':>7}{'procs':>6}{'service act/s':>15}{'p50 ms':>9}{'p99 ms':>9}"
        f"{'raw rows/s':>12}{'p50 ms':>9}{'p99 ms':>9}{'raw/service':>13}"
    )
    met = True
    for s, r in zip(report.service, report.raw, strict=True):
        ratio = r.rate / s.rate if s.rate else float("inf")
        met &= ratio <= GOAL
        print(
            f"{s.tables:>7}{s.processes:>6}{s.rate:>15,.0f}{s.percentile(50):>9.2f}"
            f"{s.percentile(99):>9.2f}{r.rate:>12,.0f}{r.percentile(50):>9.2f}"
            f"{r.percentile(99):>9.2f}{ratio:>12.1f}x"
        )
    for s in report.service:
        print(
            f"  {s.name}: {s.count:,} actions, {s.extra['hands']:,} hands, "
            f"{s.errors} refusals, {s.extra['refills']} top-up rounds, "
            f"{s.extra['fetches'] / max(1, s.count):.2f} view fetches an action"
        )
    print(
        "One statement (an action inside a hand on a warm process; a conflict"
        " runs again under the lock; warm-up included):"
    )
    for s in report.service:
        e = s.extra
        _, _, rate = conflicts(s)
        print(
            f"  {s.tables:>3} tables: {e['one_written']:,} written, {e['one_conflict']:,}"
            f" conflicts ({rate:.2%} of those tried), {e['one_answered']} retries answered,"
            f" {e['one_declined']:,} declined (money moved or the hand ended: locked path)"
        )
    print("CPU per action (service) and per row (raw), ms: in the workers + in PostgreSQL")
    for s, r in zip(report.service, report.raw, strict=True):
        print(f"  {s.tables:>3} tables: service {cpu_split(s)}; raw {cpu_split(r)}")
    print_shared(report)
    print(f"service within {GOAL:g}x of the raw rate at every concurrency: {verdict(met)}")
    print_cost(report.cost)


def conflicts(run: Run) -> tuple[int, int, float]:
    """(one-statement tries that raced, of them conflicts, the share)."""
    e = run.extra
    raced = e["one_written"] + e["one_conflict"] + e["one_answered"]
    return raced, e["one_conflict"], e["one_conflict"] / raced if raced else 0.0


def one_share(run: Run) -> float:
    """The share of the run's actions (warm-up included) written as one statement."""
    return run.extra["one_written"] / run.extra["acts"] if run.extra["acts"] else 0.0


def print_shared(report: Report) -> None:
    """The shared runs beside the service runs (one owner a table), and a
    line per scale to quote."""
    if not report.shared:
        return
    print(
        f"\nShared tables: {SHARERS} worker processes drive each table, each action sent by"
        " one of them at random.  A process that did not write the table last acts on stale"
        " work: refused there (declined) or beaten to its version (conflict), the action runs"
        " again on the locked path (one: share of actions written as one statement; tries"
        " and one: warm-up included):"
    )
    print(
        f"{'tables':>7}{'procs':>6}{'act/s':>8}{'p50 ms':>8}{'p99 ms':>8}{'one':>6}"
        f"{'shared procs':>14}{'act/s':>8}{'p50 ms':>8}{'p99 ms':>8}{'one':>6}"
        f"{'tried':>8}{'conflicts':>10}{'declined':>9}{'handed':>8}"
    )
    for one, s in zip(report.service, report.shared, strict=True):
        raced, conflicted, _ = conflicts(s)
        print(
            f"{s.tables:>7}{one.processes:>6}{one.rate:>8,.0f}{one.percentile(50):>8.2f}"
            f"{one.percentile(99):>8.2f}{one_share(one):>6.0%}{s.processes:>14}{s.rate:>8,.0f}"
            f"{s.percentile(50):>8.2f}{s.percentile(99):>8.2f}{one_share(s):>6.0%}"
            f"{raced + s.extra['one_declined']:>8,}{conflicted:>10,}{s.extra['one_declined']:>9,}"
            f"{s.extra['handed'] / max(1, s.count):>8.0%}"
        )
    print(
        "  handed = measured actions after which the other sharer was drawn to act next;"
        " CPU per action, ms (workers + PostgreSQL), one owner vs shared:"
    )
    for one, s in zip(report.service, report.shared, strict=True):
        print(f"  {s.tables:>3} tables: {cpu_split(one)} vs {cpu_split(s)}")
    for one, s in zip(report.service, report.shared, strict=True):
        print(shared_line(one, s))


def shared_line(one: Run, shared: Run) -> str:
    """One scale's shared run against its one-owner run, in words."""
    raced, conflicted, rate = conflicts(shared)
    declined = shared.extra["one_declined"]
    change = shared.rate / one.rate - 1 if one.rate else float("nan")
    return (
        f"  shared tables, {shared.tables} tables on {shared.processes} processes"
        f" ({SHARERS} a table): {one_share(shared):.0%} of actions written as one statement"
        f" (one owner {one_share(one):.0%}); of {raced + declined:,} tries {conflicted:,}"
        f" conflicted ({rate:.1%} of those written or raced) and {declined:,} were declined,"
        f" each run again on the locked path; {shared.rate:,.0f} actions/s ({change:+.0%}"
        f" against one owner's {one.rate:,.0f}), p99 {shared.percentile(99):.2f} ms"
        f" (one owner {one.percentile(99):.2f} ms), {shared.errors} refusals"
    )


def cpu_split(run: Run) -> str:
    """The run's CPU per action or row: the workers' and their PostgreSQL
    backends' (unread: the server's processes could not be read)."""
    n = max(1, run.count)
    workers = 1000 * run.extra["cpu_s"] / n
    if run.extra["db_unread"] or "db_cpu_s" not in run.extra:
        return f"{workers:.2f} + unread"
    db = 1000 * run.extra["db_cpu_s"] / n
    return f"{workers:.2f} + {db:.2f} = {workers + db:.2f}"


def print_cost(cost: dict[str, Any]) -> None:
    total = sum(cost["statements"].values())
    counts = ", ".join(f"{k}: {v}" for k, v in cost["statement_counts"].items())
    print(f"\none action at one table ({cost['actions']} actions a pass):")
    print(
        f"  SQL statements {total:5.2f} per action (goal <= {GOAL_STATEMENTS}: "
        f"{verdict(total <= GOAL_STATEMENTS)}); actions by count {{{counts}}}"
    )
    ones = cost["statement_counts"].get(1, 0)
    print(
        f"  inside a hand on a warm process: {ones} of {cost['actions']} actions in"
        f" {GOAL_INSIDE} statement (goal {GOAL_INSIDE}: {verdict(ones > 0)}); the rest"
        " end a hand or deal (the locked path)"
    )
    for kind, n in cost["statements"].items():
        print(f"    {n:6.2f}  {kind}")
    print(
        f"  CPU {cost['cpu_ms']:.3f} ms per action in process (goal <= {GOAL_CPU_MS:g} ms: "
        f"{verdict(cost['cpu_ms'] <= GOAL_CPU_MS)}); wall {cost['wall_ms']:.3f} ms"
    )
    steps: dict[str, float] = cost["steps"]
    sampled = sum(steps.values())
    print(
        f"  CPU by step ({cost['samples']} samples; ms scaled to the unprofiled "
        f"{cost['cpu_ms']:.3f} ms):"
    )
    for step, seconds in sorted(steps.items(), key=lambda kv: -kv[1]):
        share = seconds / sampled if sampled else 0.0
        print(f"    {share * cost['cpu_ms']:7.3f} ms {share:6.1%}  {step}")


def verdict(met: bool) -> str:
    return "met" if met else "NOT met"
