"""The benchmarks run: each at a tiny size on the test database, so a
change that breaks one (a name it uses moved, a column it writes was
added) fails here rather than at the next ``make bench``.  Their figures
are not judged: only that every part measured something."""

from __future__ import annotations

import sys
from typing import Any

import pytest
from django.db import connection

from bench import casino, service, tournament, websockets
from poker.engine.casino import report

servers = [pytest.mark.postgres, pytest.mark.redis, pytest.mark.django_db(transaction=True)]
"""What a benchmark that runs needs: the test database on PostgreSQL, and Redis."""


def _on_servers(test: Any) -> Any:
    for mark in servers:
        test = mark(test)
    return test


def _test_database_url() -> str:
    """The test's own PostgreSQL database (migrated), as a URL for the
    benchmark's processes."""
    s = connection.settings_dict
    password = f":{s['PASSWORD']}" if s.get("PASSWORD") else ""
    return f"postgres://{s['USER']}{password}@{s['HOST']}:{s['PORT'] or 5432}/{s['NAME']}"


@_on_servers
def test_the_service_bench_measures_both_peers_and_one_actions_cost(
    pg_default: None,
    redis_url: str,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    for name, value in (("TABLES", (1, 2)), ("PROCESSES", 2), ("WARMUP", 0.1), ("DURATION", 0.4)):
        monkeypatch.setattr(service, name, value)
    monkeypatch.setattr(service, "ACTIONS", 10)
    report = service.measure(_test_database_url(), redis_url, migrate=False)
    service.print_report(report)

    # How many actions fit in a window is the machine's speed, judged by
    # ``make bench`` alone: here, that every configuration ran, without error.
    runs = report.service + report.raw
    assert [(r.name, r.tables) for r in runs] == [
        ("service, 1 tables", 1),
        ("service, 2 tables", 2),
        ("raw, 1 tables", 1),
        ("raw, 2 tables", 2),
    ]
    assert [r.processes for r in report.service] == [1, 2]  # two processes drive two tables
    assert all(r.errors == 0 and len(r.latencies) == r.count for r in runs)
    assert all(r.seconds == service.DURATION for r in runs)
    cost: dict[str, Any] = report.cost
    # Each sampled action took the locked path (BEGIN, the table's row FOR
    # UPDATE, COMMIT) or the one statement; which, is the deal's.
    kinds = set(cost["statements"])
    one_statement = {k for k in kinds if k.startswith("WITH ")}
    assert {"BEGIN", "COMMIT", "SELECT poker_table FOR UPDATE"} <= kinds or kinds == one_statement
    assert kinds, "no statement sampled"
    assert cost["cpu_ms"] > 0
    # "lock and fold" is a step of the locked path only: the one statement's
    # work is already current.
    assert {"decide (engine)", "append", "projections"} <= set(cost["steps"])
    shown = capsys.readouterr().out
    assert "raw/service" in shown and "goal <= 5" in shown and "goal <= 1.5 ms" in shown
    assert all("fetches" in r.extra for r in report.service)  # counted in every run
    assert "view fetches an action" in shown
    # Each run's CPU: the workers' always, their PostgreSQL backends' when readable.
    assert all("cpu_s" in r.extra and r.extra["cpu_s"] >= 0 for r in runs)
    assert "in the workers + in PostgreSQL" in shown
    # The shared runs: every table driven by two processes, beside each
    # one-owner run; each counted the actions it tried as one statement.
    assert [(r.name, r.processes) for r in report.shared] == [
        ("shared, 1 tables", 2),
        ("shared, 2 tables", 2),
    ]
    assert all(r.count > 0 and r.errors == 0 and len(r.latencies) == r.count for r in report.shared)
    for r in report.shared:
        tried = sum(r.extra[f"one_{o}"] for o in service.OUTCOMES)
        assert tried > 0 and r.extra["one_conflict"] <= tried, r.extra
    assert "shared tables, 1 tables on 2 processes (2 a table): " in shown
    assert "shared tables, 2 tables on 2 processes (2 a table): " in shown


@_on_servers
def test_the_websocket_bench_plays_through_two_servers_and_judges_the_goal_at_200(
    pg_default: None,
    redis_url: str,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    sizes = (("SCALES", (2,)), ("WARMUP", 0.3), ("DURATION", 1.5), ("LAYER_SECONDS", 0.0))
    for name, value in sizes:
        monkeypatch.setattr(websockets, name, value)
    monkeypatch.setattr(websockets, "ROUTINGS", ("table", "spread"))
    url = _test_database_url()
    results, layer, flood, errors, tail = websockets.run(url, redis_url, migrate=False)
    websockets.report(results, layer, flood, errors, tail)

    result, spread = results
    # Routed, each table's 6 sockets on one server; spread, 3 on each.
    assert (result.routing, spread.routing) == ("table", "spread")
    assert sorted(result.per_server) in ([0, 12], [6, 6]) and spread.per_server == [6, 6]
    assert spread.missed == 0 and spread.one_statement is not None
    assert result.sockets == 12 and result.connect_errors == 0  # 2 tables x (5 players + 1)
    assert result.actions > 0 and result.latencies and not result.failures
    assert result.missed == 0 and errors == 0, tail
    assert result.server_cpu_per_action > 0 and result.load > 0
    shown = capsys.readouterr().out
    assert "2 tables: " in shown and "p99" in shown
    assert "ms CPU per action" in shown and "ms/act" in shown
    assert "at 200 tables, no missed version: not measured" in shown
    # The servers' one-statement tries read from their /metrics, and the
    # new columns: commands answered unavailable, acts never answered.
    assert result.one_statement is not None and result.answered >= result.actions
    assert "2 tables: " in shown and "one statement: " in shown and "answered actions" in shown
    assert "unavail" in shown and "no ans" in shown and "s for the scale" in shown
    assert "2 tables table (sockets " in shown and "2 tables spread (sockets 6/6)" in shown
    assert "1 stmt" in shown
    # The slowest actions broken down from the servers' trace lines.
    assert "2 tables: where the slowest" in shown and "median, all actions:" in shown
    assert "(no trace lines)" not in shown
    traced = [websockets.stages(act, websockets.Traces.read(result.logs, result.window))
              for act, _ in result.measured]  # fmt: skip
    assert traced and all(t is not None and t["command"] > 0 for t in traced)


def test_the_tournament_bench_judges_the_ratio_of_hands_per_second_while_dealing(
    capsys: pytest.CaptureFixture[str],
) -> None:
    def run(players: int, seconds: float, breaks: float, hands: int) -> dict[str, float]:
        return {"players": players, "seconds": seconds, "break_seconds": breaks,
                "hands": hands, "actions": 10 * hands, "peak_tables": players / 10,
                "seats": 1, "left": 2}  # fmt: skip

    tournament._print(run(1000, 100.0, 0.0, 80), run(100, 10.0, 0.0, 10))  # 0.8 vs 1.0 hands/s
    tournament._print(run(1000, 100.0, 10.0, 85), run(100, 10.0, 0.0, 10))  # 0.94 while dealing

    shown = capsys.readouterr().out.splitlines()
    ratios = [line.strip() for line in shown if "of 1000 players / hands/s" in line]
    assert ratios == [
        "hands/s over wall time of 1000 players / hands/s of 100: 0.80x "
        "(breaks in; not the goal's figure)",
        "hands/s while dealing of 1000 players / hands/s of 100: 0.80x "
        "(goal >= 0.9x, scheduled breaks out: NOT met)",
        "hands/s over wall time of 1000 players / hands/s of 100: 0.85x "
        "(breaks in; not the goal's figure)",
        "hands/s while dealing of 1000 players / hands/s of 100: 0.94x "
        "(goal >= 0.9x, scheduled breaks out: met)",
    ]
    assert any("100.0 s wall (  10 s of it on breaks)" in line for line in shown)


def test_the_service_bench_names_each_write_of_a_statement_of_several() -> None:
    several = 'WITH w0 AS (INSERT INTO "poker_command" ("id") VALUES (1)) INSERT INTO "poker_event"'
    locked = 'SELECT "poker_table"."id" FROM "poker_table" WHERE "id" = %s FOR UPDATE'
    assert service.statement_kind(several) == "WITH INSERT poker_command + INSERT poker_event"
    assert service.statement_kind(locked) == "SELECT poker_table FOR UPDATE"
    assert service.statement_kind("COMMIT") == "COMMIT"


def test_the_step_profiler_drops_a_signal_that_comes_while_it_samples() -> None:
    """On a loaded machine a sample can outlast the interval: the handler
    must not run inside itself (it recursed until the stack overflowed)."""
    profiler = service.StepProfiler()
    profiler.active = profiler.sampling = True
    profiler._sample(0, sys._getframe())
    assert profiler.samples == 0 and not profiler.cpu
    profiler.sampling = False
    profiler._sample(0, sys._getframe())
    assert profiler.samples == 1 and not profiler.sampling


def test_the_casino_bench_quick_mode_prints_the_house_for_each_strategy_and_the_engines(
    capsys: pytest.CaptureFixture[str],
) -> None:
    casino.main(casino.QUICK)

    shown = capsys.readouterr().out
    lines = [line.strip() for line in shown.splitlines()]
    stated = [line for line in lines if line.startswith(("best response: ", "plain: ", "sharp: "))]
    references = [f"{name}: {s.describe()}" for name, s in report.REFERENCES]
    assert stated[1:] == references
    assert stated[0].startswith("best response: the best response by expected value")
    assert "best response (model): house edge " in shown
    assert "largest payout of one round: 120 B beyond the stakes" in lines
    edges = [line for line in lines if line.startswith("house edge on the original bet: ")]
    assert len(edges) == 3
    for line in edges:  # "67.97% (95% CI 54.88% to 81.06%); ..."
        words = line.replace("%", "").replace(";", "").replace(")", "").split()
        edge, low, high = float(words[6]), float(words[9]), float(words[11])
        assert low < edge < high
    assert sum(line.startswith("dealer qualifies: ") for line in lines) == 3
    assert (
        sum(line.startswith("per chip staked: ") and "SD per round" in line for line in lines) == 3
    )
    for hand in ("pair", "two-pair", "full-house", "five-of-a-kind", "ANTE 2:3"):
        assert sum(line.startswith(f"{hand} ") for line in lines) == 3, hand
    assert "32 Card Draw NL, 5 players" in shown
    ratios = [line for line in lines if line.endswith("x the pot hands/s")]
    assert [line.split(",")[0] for line in ratios] == ["casino draw", "casino draw"]
