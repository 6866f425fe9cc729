"""The benchmarks run: each at a tiny size on the test database, so a
change that breaks one (a name it uses moved, a column it writes was
added) fails here rather than at the next ``make bench``.  Their figures
are not judged: only that every part measured something."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection

from bench import service

pytestmark = [pytest.mark.postgres, pytest.mark.redis, pytest.mark.django_db(transaction=True)]


def _test_database_url() -> str:
    """The test's own PostgreSQL database (migrated), as a URL for the
    benchmark's processes."""
    s = connection.settings_dict
    password = f":{s['PASSWORD']}" if s.get("PASSWORD") else ""
    return f"postgres://{s['USER']}{password}@{s['HOST']}:{s['PORT'] or 5432}/{s['NAME']}"


def test_the_service_bench_measures_both_peers_and_one_actions_cost(
    pg_default: None, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    for name, value in (("TABLES", (1, 2)), ("PROCESSES", 2), ("WARMUP", 0.1), ("DURATION", 0.4)):
        monkeypatch.setattr(service, name, value)
    monkeypatch.setattr(service, "ACTIONS", 10)
    redis = service.redis_url()
    assert redis is not None

    report = service.measure(_test_database_url(), redis, migrate=False)
    service.print_report(report)

    assert [r.processes for r in report.service] == [1, 2]  # two processes drive two tables
    assert all(r.count > 0 for r in report.service + report.raw)
    cost: dict[str, Any] = report.cost
    assert {"BEGIN", "COMMIT", "SELECT poker_table FOR UPDATE"} <= set(cost["statements"])
    assert cost["cpu_ms"] > 0
    assert {"lock and fold", "decide (engine)", "append", "projections"} <= set(cost["steps"])
    shown = capsys.readouterr().out
    assert "raw/service" in shown and "goal <= 5" in shown and "goal <= 1.5 ms" in shown
