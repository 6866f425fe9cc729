"""Service throughput: actions through ``poker.services.hand_act`` on
PostgreSQL, against raw inserts at the same concurrency.

Why: every action is one transaction (lock the table row, fold the streams,
decide, append the command and its events, rewrite the projections), so the
database round trips and the Python around them cap how many actions a
process serves.  The reference point is the cheapest write the store could
make: one event-sized row per transaction.  The goal: the service within
``GOAL`` x of the raw insert rate at every concurrency.

The work, per concurrency (1, 8 and 32 tables in play at once):

- service: one client thread per table, each with its own Django connection
  (closed at the end).  Each loops: keep the answer of its previous action
  when it shows the player to act his menu, else fetch the view as the player
  to act (``selectors.table_view``, as ``GET /api/tables/<id>/`` does), pick a
  random legal action from ``legal`` (leaning to call and check so hands go
  on; min-sized bets and raises), and call ``hand_act`` with a fresh command
  id, as the REST view does.  Only ``hand_act`` is inside the latency;
  actions/s counts the whole loop (view fetches included).  Tables are 32
  Card Draw, no limit 1/2, 4 or 5 players seated with ``seat_sit`` on deep
  stacks; the services deal new hands by themselves.
- raw psycopg: one thread and connection per client, autocommit off, each
  transaction one INSERT of an event-sized row (stream, version, type, JSON
  data of ~200 bytes, timestamp) and a COMMIT, into a scratch copy of
  ``poker_event`` (``LIKE ... INCLUDING ALL``: same columns, unique
  (stream, version)); every client writes its own stream.
- ORM, concurrency 1 only: ``Event.objects.create`` in autocommit, one row
  per transaction, for reference.

Each configuration runs ``WARMUP`` s unrecorded, then ``DURATION`` s; what
completes inside the window counts (``time.perf_counter``).  Latency
percentiles are over every action or insert of the window.  Also printed:
the SQL statements of one ``hand_act`` by kind (200 actions at one table
under Django's ``CaptureQueriesContext``, which logs BEGIN and COMMIT too),
i.e. the round trips an action costs.

The database is never the developer's: ``BENCH_DATABASE_URL`` (default
``postgres://postgres@127.0.0.1:5432/pokerroom_bench``) is dropped and
created afresh, migrated, and filled through the services.  Django runs with
``DEBUG`` off (no query log) and ``CONN_MAX_AGE`` set so threads keep their
connections.  Without a reachable PostgreSQL the benchmark says so and skips.
"""

from __future__ import annotations

import os
import random
import threading
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any
from urllib.parse import urlsplit, urlunsplit

DEFAULT_URL = "postgres://postgres@127.0.0.1:5432/pokerroom_bench"
CONCURRENCY = (1, 8, 32)
WARMUP = 1.0
DURATION = 4.0
GOAL = 3.0
"""Raw insert rate over service action rate allowed at every concurrency."""
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
"""A JSON event body of about 200 bytes for the raw peers."""


@dataclass
class Run:
    """One configuration's measured window."""

    name: str
    concurrency: int
    count: int
    seconds: float
    latencies: list[float]
    errors: int = 0
    extra: dict[str, int] = field(default_factory=dict)

    @property
    def rate(self) -> float:
        return self.count / self.seconds

    @property
    def busy(self) -> float:
        """Share of the clients' time spent inside the timed call."""
        return sum(self.latencies) / (self.seconds * self.concurrency)

    def percentile(self, p: float) -> float:
        """Latency at percentile ``p`` (0-100), in milliseconds."""
        if not self.latencies:
            return float("nan")
        ordered = sorted(self.latencies)
        return 1000 * ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))]


def main() -> None:
    """Set up the bench database, run every configuration, print the table."""
    url = os.environ.get("BENCH_DATABASE_URL") or DEFAULT_URL
    problem = recreate_database(url)
    if problem is not None:
        print(f"skipped: {problem}")
        return
    use_database(url)
    from django.core.management import call_command
    from django.db import connections

    call_command("migrate", verbosity=0)
    tables = setup_tables(max(CONCURRENCY))
    print(
        f"PostgreSQL at {redact(url)}; {WARMUP:g} s warm-up + {DURATION:g} s per configuration; "
        f"32 Card Draw NL {BLINDS[0]}/{BLINDS[1]}, {min(len(t.users) for t in tables)}-"
        f"{max(len(t.users) for t in tables)} players a table"
    )
    service = [measure_service(tables[:n]) for n in CONCURRENCY]
    raw = [measure_raw(url, n) for n in CONCURRENCY]
    orm = measure_orm()
    per_action = count_queries(tables[0])
    connections.close_all()
    print_table(service, raw, orm, per_action)


# --------------------------------------------------------------------------
# The bench database and Django


def redact(url: str) -> str:
    """The URL without its password."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    return urlunsplit(parts._replace(netloc=parts.netloc.replace(f":{parts.password}@", ":***@")))


def recreate_database(url: str) -> str | None:
    """Drop and create the bench database; None, or why it could not."""
    import psycopg
    from psycopg import sql

    parts = urlsplit(url)
    name = parts.path.lstrip("/")
    others = {os.environ.get(v, "") for v in ("DATABASE_URL", "TEST_DATABASE_URL")}
    taken = {urlsplit(u).path.lstrip("/") for u in others if u.startswith("postgres")}
    if not name or name in {"postgres", "template0", "template1", "test"} | taken:
        return f"BENCH_DATABASE_URL names database {name!r}, which the benchmark will not drop"
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


@dataclass
class Seated:
    """A table of the benchmark and its players by user id."""

    table_id: int
    users: dict[int, Any]
    stack: int = STACK
    """The buy-in (``STACK`` unless the table caps it)."""


def setup_tables(count: int) -> list[Seated]:
    """Open ``count`` tables and seat 4 or 5 players at each via the services."""
    from django.contrib.auth import get_user_model

    from accounts import money
    from poker import services

    rng = random.Random(SEED)
    User = get_user_model()
    boss = User.objects.create_user("boss", is_staff=True)  # no password: no hashing cost
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
        users = {}
        for seat in range(1, rng.choice((4, 5)) + 1):
            user = User.objects.create_user(f"t{t}s{seat}")
            # Enough for the buy-in and every refill (top-up) the run makes.
            money.wallet_deposit(transfer_id=uuid.uuid4(), user_id=user.pk, amount=stack * 10**4)
            services.seat_sit(
                by=user, table_id=table.pk, seat=seat, buy_in=stack, command_id=uuid.uuid4()
            )
            users[user.pk] = user
        out.append(Seated(table.pk, users, stack))
    return out


# --------------------------------------------------------------------------
# The service


def measure_service(tables: list[Seated]) -> Run:
    """One client thread per table, ``hand_act`` in a loop."""
    return run_threads(
        f"service, {len(tables)} tables",
        [lambda w, i=i: play(tables[i], random.Random(SEED + i), w) for i in range(len(tables))],
    )


@dataclass
class Window:
    """When a client thread starts measuring and stops; what it saw."""

    start_barrier: threading.Barrier
    t0: float = 0.0
    t1: float = 0.0
    latencies: list[float] = field(default_factory=list)
    count: int = 0
    errors: int = 0
    extra: dict[str, int] = field(default_factory=dict)

    def record(self, started: float, ended: float) -> None:
        if self.t0 <= started and ended <= self.t1:
            self.count += 1
            self.latencies.append(ended - started)


def run_threads(name: str, clients: list[Callable[[Window], None]]) -> Run:
    """Start every client at once; gather the measured window."""
    barrier = threading.Barrier(len(clients) + 1, timeout=120)
    windows = [Window(barrier) for _ in clients]
    failures: list[BaseException] = []

    def guarded(client: Callable[[Window], None], window: Window) -> None:
        try:
            client(window)
        except BaseException as error:
            failures.append(error)
            barrier.abort()
            raise

    threads = [
        threading.Thread(target=guarded, args=cw) for cw in zip(clients, windows, strict=True)
    ]
    for thread in threads:
        thread.start()
    try:
        barrier.wait()  # every client connected and ready
    except threading.BrokenBarrierError:
        for thread in threads:
            thread.join()
        raise RuntimeError(f"{name}: a client failed before the start") from failures[0]
    t0 = time.perf_counter() + WARMUP
    for w in windows:
        w.t0, w.t1 = t0, t0 + DURATION
    start_gate.set()
    for thread in threads:
        thread.join()
    start_gate.clear()
    if failures:
        raise RuntimeError(f"{name}: {len(failures)} client(s) failed") from failures[0]
    latencies = [x for w in windows for x in w.latencies]
    extra: dict[str, int] = {}
    for w in windows:
        for key, value in w.extra.items():
            extra[key] = extra.get(key, 0) + value
    return Run(
        name,
        len(clients),
        sum(w.count for w in windows),
        DURATION,
        latencies,
        sum(w.errors for w in windows),
        extra,
    )


start_gate = threading.Event()
"""Set once the window's times are fixed: the clients go."""


def ready(window: Window) -> None:
    """Wait until every client is ready and the window is fixed."""
    window.start_barrier.wait()
    start_gate.wait()


def play(seated: Seated, rng: random.Random, window: Window) -> None:
    """A client thread: act at one table until the window closes."""
    from django.db import connection

    from config.api_errors import ApiError
    from poker import services

    try:
        answer: dict[str, Any] | None = None
        viewer_of_answer: Any = None
        hands: set[str] = set()
        fetch(seated, None)  # connect before the clock starts
        ready(window)
        while time.perf_counter() < window.t1:
            hand = answer["hand"] if answer is not None else None
            if hand is not None and hand["legal"] is not None:
                user, view = viewer_of_answer, answer
            else:
                user, view = to_act(seated, answer, window)
            assert view is not None and view["hand"] is not None
            hand = view["hand"]
            if time.perf_counter() >= window.t0:
                hands.add(hand["id"])
            move = choose(rng, hand)
            started = time.perf_counter()
            try:
                answer = services.hand_act(
                    by=user,
                    table_id=seated.table_id,
                    hand=hand["id"],
                    version=hand["version"],
                    command_id=uuid.uuid4(),
                    **move,
                )
            except ApiError:
                window.errors += 1
                answer = None
                continue
            window.record(started, time.perf_counter())
            viewer_of_answer = user
        window.extra["hands"] = len(hands)
    finally:
        connection.close()


def fetch(seated: Seated, user: Any) -> dict[str, Any]:
    """The table as ``user`` sees it (the GET view: table row, then the view)."""
    from poker import selectors
    from poker.models import Table

    return selectors.table_view(Table.objects.get(pk=seated.table_id), user)


def to_act(seated: Seated, answer: dict[str, Any] | None, window: Window) -> tuple[Any, Any]:
    """The player to act and his view, topping up broke players if no hand
    can be dealt."""
    view = answer if answer is not None else fetch(seated, None)
    for _ in range(3):
        hand = view["hand"]
        if hand is not None and hand["to_act_seat"] is not None:
            seat = next(s for s in view["seats"] if s["seat"] == hand["to_act_seat"])
            user = seated.users[seat["player"]]
            mine = fetch(seated, user)
            if mine["hand"] is not None and mine["hand"]["legal"] is not None:
                return user, mine
        refill(seated, view)
        window.extra["refills"] = window.extra.get("refills", 0) + 1
        view = fetch(seated, None)
    raise RuntimeError(f"table {seated.table_id} is stuck: {view}")


def refill(seated: Seated, view: dict[str, Any]) -> None:
    from poker import services

    for seat in view["seats"]:
        if seat["stack"] < min(REFILL_BELOW, seated.stack // 2):
            user = seated.users[seat["player"]]
            amount = seated.stack - seat["stack"]
            services.seat_top_up(by=user, table_id=seated.table_id, amount=amount)


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
        mine = next(p for p in hand["players"] if p["position"] == hand["your_position"])
        move["cards"] = rng.sample(mine["cards"], rng.randint(1, legal["max_discard"]))
    return move


# --------------------------------------------------------------------------
# Raw peers


RAW_TABLE = "bench_raw_event"
RAW_INSERT = (
    f"INSERT INTO {RAW_TABLE} (stream, version, type, data, recorded_at) "
    "VALUES (%s, %s, %s, %s, %s)"
)


def measure_raw(url: str, clients: int) -> Run:
    """``clients`` psycopg connections, one INSERT and COMMIT per transaction."""
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(f"DROP TABLE IF EXISTS {RAW_TABLE}")
        conn.execute(f"CREATE TABLE {RAW_TABLE} (LIKE poker_event INCLUDING ALL)")
    return run_threads(
        f"raw psycopg, {clients} clients",
        [lambda w, i=i: insert_rows(url, f"raw-{clients}-{i}", w) for i in range(clients)],
    )


def insert_rows(url: str, stream: str, window: Window) -> None:
    """A raw client: one event row per transaction until the window closes."""
    import psycopg
    from psycopg.types.json import Jsonb

    with psycopg.connect(url, autocommit=False) as conn:
        cur = conn.cursor()
        version = 0
        ready(window)
        while time.perf_counter() < window.t1:
            version += 1
            started = time.perf_counter()
            cur.execute(
                RAW_INSERT, (stream, version, "hand.bet_placed", Jsonb(PAYLOAD), datetime.now(UTC))
            )
            conn.commit()
            window.record(started, time.perf_counter())


def measure_orm() -> Run:
    """``Event.objects.create`` in autocommit, one client."""
    return run_threads("ORM create, 1 client", [orm_rows])


def orm_rows(window: Window) -> None:
    from django.db import connection
    from django.utils import timezone

    from poker.models import Event

    try:
        connection.ensure_connection()
        version = 0
        ready(window)
        while time.perf_counter() < window.t1:
            version += 1
            started = time.perf_counter()
            Event.objects.create(
                stream="orm-1",
                version=version,
                type="hand.bet_placed",
                data=PAYLOAD,
                recorded_at=timezone.now(),
            )
            window.record(started, time.perf_counter())
    finally:
        connection.close()


# --------------------------------------------------------------------------
# Statements per action


def count_queries(seated: Seated, actions: int = 200) -> dict[str, float]:
    """SQL statements (round trips) per ``hand_act`` over ``actions`` actions
    at one table, by kind (Django's query capture, which logs BEGIN and
    COMMIT too)."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from poker import services

    rng = random.Random(SEED)
    window = Window(threading.Barrier(1))
    kinds: dict[str, int] = {}
    answer: dict[str, Any] | None = None
    user: Any = None
    for _ in range(actions):
        hand = answer["hand"] if answer is not None else None
        if hand is None or hand["legal"] is None:
            user, answer = to_act(seated, answer, window)
        assert answer is not None
        hand = answer["hand"]
        with CaptureQueriesContext(connection) as captured:
            answer = services.hand_act(
                by=user,
                table_id=seated.table_id,
                hand=hand["id"],
                version=hand["version"],
                command_id=uuid.uuid4(),
                **choose(rng, hand),
            )
        for query in captured.captured_queries:
            kind = statement_kind(query["sql"])
            kinds[kind] = kinds.get(kind, 0) + 1
    return {k: v / actions for k, v in sorted(kinds.items(), key=lambda kv: -kv[1])}


def statement_kind(sql: str) -> str:
    """``SELECT poker_table FOR UPDATE``, ``INSERT poker_event``, ..."""
    words = sql.split()
    verb = words[0].upper()
    table = ""
    key = {"SELECT": "FROM", "INSERT": "INTO", "UPDATE": "UPDATE", "DELETE": "FROM"}.get(verb)
    if key is not None and key in words:
        table = words[words.index(key) + 1].strip('"')
    lock = " FOR UPDATE" if verb == "SELECT" and "FOR UPDATE" in sql.upper() else ""
    return f"{verb} {table}{lock}".strip()


# --------------------------------------------------------------------------
# Report


def print_table(service: list[Run], raw: list[Run], orm: Run, per_action: dict[str, float]) -> None:
    print(
        f"\n{'clients':>8}{'service act/s':>15}{'p50 ms':>9}{'p99 ms':>9}{'in act':>8}"
        f"{'raw rows/s':>12}{'p50 ms':>9}{'p99 ms':>9}{'raw/service':>13}"
    )
    met = True
    for s, r in zip(service, raw, strict=True):
        ratio = r.rate / s.rate
        met &= ratio <= GOAL
        print(
            f"{s.concurrency:>8}{s.rate:>15,.0f}{s.percentile(50):>9.2f}{s.percentile(99):>9.2f}"
            f"{s.busy:>8.0%}{r.rate:>12,.0f}{r.percentile(50):>9.2f}{r.percentile(99):>9.2f}{ratio:>12.1f}x"
        )
    print(
        f"\nORM Event.objects.create, 1 client (autocommit): {orm.rate:,.0f} rows/s, "
        f"p50 {orm.percentile(50):.2f} ms, p99 {orm.percentile(99):.2f} ms"
    )
    print(
        "in act: share of the service clients' time inside hand_act (the rest: fetching the "
        "view as the player to act, choosing)"
    )
    for s in service:
        print(
            f"{s.name}: {s.count:,} actions, {s.extra.get('hands', 0):,} hands, "
            f"{s.errors} refusals, {s.extra.get('refills', 0)} top-ups"
        )
    total = sum(per_action.values())
    print(f"\nstatements per hand_act ({total:.1f} round trips):")
    for kind, n in per_action.items():
        print(f"  {n:6.2f}  {kind}")
    verdict = "met" if met else "NOT met"
    print(f"\nservice within {GOAL:g}x of the raw rate at every concurrency: {verdict}")
