"""The browser client in a real browser against a real server.

Chromium is Debian's (``/usr/bin/chromium``, which ``.ci/run`` installs),
driven by Playwright's own driver (``playwright install`` is never run:
it would download a browser).  Without it the tests are skipped with the
reason, except under ``CI=true``, where they fail.

The server is daphne, as ``make run`` serves, on a PostgreSQL database of
the run's own (``tests.integration.cluster``), one per test process: the
tests share it, each with tables and users of its own.  Screenshots go
to ``tests/e2e/artifacts/`` (not committed).
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.integration.cluster import ROOT, Database, Server, child_env

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    # Without these the browser reaches for the network on its own, which
    # this machine's closed network refuses (and slows every start).
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
ARTIFACTS = Path(__file__).with_name("artifacts")
WAIT_MS = 15_000
"""How long the page may take to show what a step expects (a loaded machine)."""


def _in_ci() -> bool:
    return os.environ.get("CI", "").strip().lower() in {"1", "true", "yes"}


def require_chromium(path: Path = CHROMIUM) -> None:
    """Skip the test when the browser is missing, with the reason; under
    ``CI=true`` fail it: CI must not go green by skipping what it checks."""
    if path.exists():
        return
    reason = f"{path} is missing (apt-get install chromium; .ci/run does it)"
    if _in_ci():
        pytest.fail(f"{reason} (CI=true: a missing browser fails the run)", pytrace=False)
    pytest.skip(reason)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Chromium, headless, through Playwright's driver.  A module's, not the
    session's: between its sync calls Playwright leaves its event loop
    marked running in the main thread, so every asyncio test the same
    test process ran after an e2e module, while the browser lived on,
    failed ("Runner.run() cannot be called from a running event loop")."""
    require_chromium()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(
            executable_path=str(CHROMIUM), args=CHROMIUM_ARGS, headless=True
        )
        try:
            yield chromium
        finally:
            chromium.close()


@pytest.fixture(scope="session")
def server(request: pytest.FixtureRequest) -> Iterator[Server]:
    """daphne on a fresh PostgreSQL database, as ``make run`` serves: no
    Redis, the clocks run by the worker inside the server process (tests
    give their tables clocks long enough for a slow machine)."""
    database = Database(request.getfixturevalue("_session_pg_dsn"))
    running = None
    try:
        running = Server("e2e", database.url, redis_url="", runner="daphne")
        # Every test signs its players up from this one address: the
        # register throttle (10 an hour) would stop the session's later ones.
        running.env.update(CLOCKS_ENABLED="true", THROTTLE_REGISTER_ADDRESS_RATE="1000/h")
        running.start()
        running.database = database  # type: ignore[attr-defined]
        yield running
    finally:
        if running is not None:
            running.stop()
        database.drop()


@pytest.fixture(scope="session")
def _session_pg_dsn() -> str:
    from tests.conftest import _pg_dsn, _postgres_problem, _require

    dsn = _pg_dsn()
    _require(_postgres_problem(dsn))
    return dsn


def grant(server: Server, *grants: tuple[str, str]) -> None:
    """Give users roles, (username, role) each, as ``manage.py grant_role``
    does (one process for all: a Django start is slow on a loaded machine)."""
    script = "; ".join(
        [
            "from django.contrib.auth import get_user_model",
            "from accounts.services import role_grant",
            "users = get_user_model().objects",
            *(f"role_grant(user=users.get(username={u!r}), role={r!r})" for u, r in grants),
        ]
    )
    manage(server, "shell", "-c", script)


def manage(server: Server, *args: str) -> None:
    """``manage.py`` on the server's database."""
    database: Database = server.database  # type: ignore[attr-defined]
    subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=child_env(DATABASE_URL=database.url),
        check=True,
        timeout=60,
        capture_output=True,
    )


def register(server: Server, username: str, password: str = "a long enough secret 1") -> str:
    """A player registered through the API; his token."""
    status, body = server.request(
        "POST", "/api/auth/register/", body={"username": username, "password": password}
    )
    assert status in (200, 201), body
    return str(body["token"])


README_IMAGES = ROOT / "docs" / "images"
"""Where the README's screenshots live: written by the suite when
``E2E_README_IMAGES=1`` (``make screenshots``), so they show the client as
it is."""


@pytest.fixture
def shots(request: pytest.FixtureRequest) -> Any:
    """``shots(page, name)`` writes a screenshot under tests/e2e/artifacts/;
    with ``readme="lobby"`` it is the README's ``docs/images/lobby.png``
    too, when asked for (``E2E_README_IMAGES=1``)."""
    ARTIFACTS.mkdir(exist_ok=True)
    prefix = request.node.name
    for_readme = os.environ.get("E2E_README_IMAGES", "").strip() == "1"

    def shoot(page: Any, name: str, full_page: bool = True, readme: str | None = None) -> Path:
        path = ARTIFACTS / f"{prefix}-{name}.png"
        page.screenshot(path=str(path), full_page=full_page)
        if readme and for_readme:
            page.screenshot(path=str(README_IMAGES / f"{readme}.png"), full_page=False)
        return path

    return shoot


def serious_violations(page: Any) -> list[str]:
    """axe-core's serious and critical findings on the page as it is now
    ("rule: where"), none of the minor or moderate ones."""
    from axe_playwright_python.sync_playwright import Axe

    found = Axe().run(page).response.get("violations", [])
    return [
        f"{v['id']}: {', '.join(str(n['target']) for n in v['nodes'][:3])}"
        for v in found
        if v.get("impact") in ("serious", "critical")
    ]
