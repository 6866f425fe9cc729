"""A test needing an unreachable server is skipped locally and fails under CI=true."""

from pathlib import Path

import pytest

CONFTEST = Path(__file__).resolve().parents[1] / "conftest.py"

NEEDY_TESTS = """
import pytest

@pytest.mark.postgres
def test_marked_postgres():
    pass

@pytest.mark.redis
def test_marked_redis():
    pass

def test_uses_pg_dsn(pg_dsn):
    pass

def test_needs_nothing():
    pass
"""

# Port 1 on loopback: nothing listens there, so the connection is refused at once.
DEAD_PG = "postgres://postgres:sekret@127.0.0.1:1/test"
DEAD_REDIS = "redis://127.0.0.1:1/0"


@pytest.fixture
def needy_project(pytester, monkeypatch):
    pytester.makeconftest(CONFTEST.read_text())
    pytester.makeini("[pytest]\nmarkers =\n    postgres\n    redis\n")
    pytester.makepyfile(test_needy=NEEDY_TESTS)
    monkeypatch.setenv("TEST_DATABASE_URL", DEAD_PG)
    monkeypatch.setenv("REDIS_URL", DEAD_REDIS)
    return pytester


def run(project):
    return project.runpytest_subprocess(
        "-p", "no:django", "-p", "no:xdist", "-p", "no:randomly", "-rsE"
    )


def test_unreachable_services_skip_with_the_reason_outside_ci(needy_project, monkeypatch):
    monkeypatch.delenv("CI", raising=False)
    result = run(needy_project)
    result.assert_outcomes(passed=1, skipped=3)
    result.stdout.fnmatch_lines(
        [
            "*PostgreSQL not reachable at postgres://postgres:***@127.0.0.1:1/test*",
            "*Redis not reachable at redis://127.0.0.1:1/0*",
        ]
    )
    assert "sekret" not in result.stdout.str()


def test_unreachable_services_fail_under_ci(needy_project, monkeypatch):
    monkeypatch.setenv("CI", "true")
    result = run(needy_project)
    result.assert_outcomes(passed=1, errors=3)
    result.stdout.fnmatch_lines(["*PostgreSQL not reachable*CI=true*"])
    assert result.ret != 0
