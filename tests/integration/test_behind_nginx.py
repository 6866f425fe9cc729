"""The room as deployed: nginx with deploy/nginx/*.conf in front of two real
uvicorn servers on the production profile (``DJANGO_ENV=production``), on a
PostgreSQL and a Redis database of the module's own.

Only what cannot run here is changed in the shipped configuration: the
ports (loopback ones, free), the certificate (a throwaway one) and the
static directory (a ``collectstatic`` of the test's own).  Through nginx:
plain HTTP is redirected to HTTPS; the API answers over HTTPS with HSTS;
the probes and metrics are not reachable; static files come from nginx;
every request of one table, its sockets and its API, reaches one server,
while other requests spread over both; when a server dies, its tables
and the next clients reach the other.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import secrets
import shutil
import ssl
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from websockets.asyncio.client import connect

from tests.integration.cluster import ROOT, START_TIMEOUT_S, Server, free_port
from tests.integration.room import Cluster
from tests.process_groups import end_group

pytestmark = [pytest.mark.postgres, pytest.mark.redis]

DEPLOY = ROOT / "deploy"
WAIT_S = 10
NO_VERIFY = ssl.create_default_context()
NO_VERIFY.check_hostname = False
NO_VERIFY.verify_mode = ssl.CERT_NONE


class ProductionServer(Server):
    """A ``Server`` on the production profile, behind one proxy; ready when
    its ``/healthz`` answers (the rest of the site is HTTPS only)."""

    def __init__(self, name: str, database_url: str, redis_url: str, static: Path) -> None:
        super().__init__(name, database_url, redis_url)
        self.env["STATIC_ROOT"] = str(static)
        self.env.update(DJANGO_ENV="production", NUM_PROXIES="1", LOG_LEVEL="INFO")
        self.env.pop("DEBUG", None)

    def start(self) -> ProductionServer:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "uvicorn", "config.asgi:application", "--host", "127.0.0.1",
             "--port", str(self.port), "--proxy-headers", "--forwarded-allow-ips", "127.0.0.1",
             "--no-access-log", "--lifespan", "off", "--ws-max-size", "16384"],
            cwd=ROOT, env=self.env, stdout=self.log, stderr=subprocess.STDOUT,
            start_new_session=True,
        )  # fmt: skip
        deadline = time.monotonic() + START_TIMEOUT_S
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise AssertionError(f"server {self.name} exited:\n{self.tail()}")
            try:
                with urllib.request.urlopen(f"{self.http}/healthz", timeout=1) as answer:
                    if json.load(answer) == {"status": "ok"}:
                        return self
            except (OSError, ValueError):
                time.sleep(0.1)
        raise AssertionError(f"server {self.name} never answered /healthz:\n{self.tail()}")

    def open_sockets(self) -> float:
        """``poker_open_sockets`` at this server's own ``/metrics``."""
        with urllib.request.urlopen(f"{self.http}/metrics", timeout=5) as page:
            text = page.read().decode()
        found = re.search(r"^poker_open_sockets (\S+)$", text, re.MULTILINE)
        assert found, text[-2000:]
        return float(found[1])


class Nginx:
    """nginx, in the foreground in a process group of its own, with the
    shipped site on free loopback ports."""

    def __init__(self, servers: list[Server], static: Path, workdir: Path) -> None:
        binary = shutil.which("nginx")
        if binary is None:
            if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
                pytest.fail("nginx is not installed (.ci/run installs it)")
            pytest.skip("nginx is not installed")
        self.http_port, self.https_port = free_port(), free_port()
        subprocess.run(
            ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
             "-subj", "/CN=localhost", "-keyout", str(workdir / "privkey.pem"),
             "-out", str(workdir / "fullchain.pem")],
            check=True, capture_output=True, timeout=60,
        )  # fmt: skip
        site = (DEPLOY / "nginx" / "pokerroom.conf").read_text()
        site = site.replace("listen 80 ", f"listen 127.0.0.1:{self.http_port} ")
        site = site.replace("listen 443 ", f"listen 127.0.0.1:{self.https_port} ")
        site = site.replace("/etc/nginx/certs/", f"{workdir}/")
        site = site.replace("/srv/pokerroom/static/", f"{static}/")
        site = site.replace("/var/log/nginx/", f"{workdir}/")
        (workdir / "site.conf").write_text(site)
        upstream = (DEPLOY / "nginx" / "upstream.systemd.conf").read_text()
        lines = "".join(
            f"    server 127.0.0.1:{s.port} max_fails=1 fail_timeout=5s;\n" for s in servers
        )
        upstream = re.sub(r"(    server .*\n)+", lines, upstream)
        (workdir / "upstream.conf").write_text(upstream)
        user = "user root;\n" if os.geteuid() == 0 else ""  # workers read the test's files
        (workdir / "nginx.conf").write_text(
            f"{user}worker_processes 1;\npid {workdir}/nginx.pid;\n"
            f"error_log {workdir}/error.log warn;\nevents {{}}\n"
            f"http {{\n  include /etc/nginx/mime.types;\n  access_log off;\n"
            f"  include {workdir}/upstream.conf;\n  include {workdir}/site.conf;\n}}\n"
        )
        self.workdir = workdir
        self.process = subprocess.Popen(
            [binary, "-c", str(workdir / "nginx.conf"), "-p", f"{workdir}/", "-g", "daemon off;"],
            stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT, start_new_session=True,
        )  # fmt: skip
        deadline = time.monotonic() + START_TIMEOUT_S
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise AssertionError(f"nginx exited:\n{self.errors()}")
            try:
                self.get("/healthz")
                return
            except OSError:
                time.sleep(0.1)
        raise AssertionError(f"nginx never answered:\n{self.errors()}")

    def errors(self) -> str:
        path = self.workdir / "error.log"
        return path.read_text()[-3000:] if path.exists() else ""

    def get(self, path: str, https: bool = True) -> tuple[int, dict[str, str], bytes]:
        """(status, headers, body), redirects not followed."""
        base = (
            f"https://127.0.0.1:{self.https_port}"
            if https
            else f"http://127.0.0.1:{self.http_port}"
        )
        opener = urllib.request.build_opener(
            urllib.request.HTTPSHandler(context=NO_VERIFY), NoRedirect()
        )
        request = urllib.request.Request(f"{base}{path}", headers={"Host": "localhost"})
        try:
            with opener.open(request, timeout=WAIT_S) as answer:
                return answer.status, dict(answer.headers), answer.read()
        except urllib.error.HTTPError as error:
            return error.code, dict(error.headers), error.read()

    def stop(self) -> None:
        end_group(self.process)


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args: Any, **kwargs: Any) -> None:
        return None


@pytest.fixture(scope="module")
def cluster() -> Iterator[Cluster]:
    cluster = Cluster(
        os.environ.get("TEST_DATABASE_URL") or "postgres://postgres@127.0.0.1:5432/test",
        os.environ.get("REDIS_URL") or "redis://127.0.0.1:6379/0",
    )
    try:
        yield cluster
    finally:
        cluster.close()


@pytest.fixture(scope="module")
def room(cluster: Cluster) -> Iterator[tuple[Nginx, list[ProductionServer], Path]]:
    nginx = None
    with tempfile.TemporaryDirectory(prefix="pokerroom-nginx-") as workdir:
        try:
            static = Path(workdir) / "static"
            subprocess.run(
                [sys.executable, "manage.py", "collectstatic", "--noinput", "-v0"], cwd=ROOT,
                env={**os.environ, "STATIC_ROOT": str(static), "DJANGO_SETTINGS_MODULE":
                     "config.settings"}, check=True, timeout=120,
            )  # fmt: skip
            servers = []
            for name in ("A", "B"):
                server = ProductionServer(name, cluster.db.url, cluster.redis.url, static)
                cluster.started.append(server)
                servers.append(server.start())
            nginx = Nginx(servers, static, Path(workdir))
            yield nginx, servers, static
        finally:
            if nginx is not None:
                nginx.stop()


def test_plain_http_is_redirected_to_https(room):
    nginx, _, _ = room
    status, headers, _ = nginx.get("/api/tables/", https=False)
    assert status == 301
    assert headers["Location"] == "https://localhost/api/tables/"


def test_the_api_answers_over_https_with_hsts(room):
    nginx, _, _ = room
    status, headers, body = nginx.get("/api/tables/")
    assert status == 200, body
    assert isinstance(json.loads(body), list)
    assert headers["Strict-Transport-Security"] == "max-age=31536000; includeSubDomains; preload"


def test_the_probes_and_metrics_are_not_reachable_through_nginx(room):
    nginx, servers, _ = room
    assert nginx.get("/metrics")[0] == 404
    assert nginx.get("/readyz")[0] == 404
    assert nginx.get("/healthz")[:3:2] == (200, b'{"status": "ok"}')
    assert servers[0].open_sockets() >= 0  # but straight at a server, they are


def test_static_files_come_from_nginx_cached_for_an_hour(room):
    nginx, _, static = room
    status, headers, body = nginx.get("/static/admin/css/base.css")
    assert status == 200
    assert body == (static / "admin" / "css" / "base.css").read_bytes()
    assert headers["Cache-Control"] == "public, max-age=3600"
    assert headers["Server"].startswith("nginx")


async def snapshot_socket(nginx: Nginx, path: str) -> tuple[Any, dict[str, Any]]:
    """A WebSocket to ``path`` through nginx, and its first frame: a snapshot."""
    socket = await connect(
        f"wss://127.0.0.1:{nginx.https_port}{path}",
        origin=f"https://127.0.0.1:{nginx.https_port}",  # type: ignore[arg-type]
        ssl=NO_VERIFY,
        server_hostname="localhost",
        open_timeout=WAIT_S,
    )
    frame = json.loads(await asyncio.wait_for(socket.recv(), WAIT_S))
    assert frame["type"] == "snapshot", frame
    return socket, frame


async def lobby(nginx: Nginx) -> Any:
    """A WebSocket to the lobby through nginx, its first frame read."""
    socket, frame = await snapshot_socket(nginx, "/ws/lobby/")
    assert frame["casino_tables"] == [], frame
    return socket


async def spectate(nginx: Nginx, table: int) -> Any:
    """A spectator's socket to ``table`` through nginx, its snapshot read."""
    socket, _ = await snapshot_socket(nginx, f"/ws/tables/{table}/")
    return socket


async def no_sockets_open(servers: list[ProductionServer]) -> None:
    """Wait until the sockets closed before are closed at the servers too,
    so that what a test opens is what each server counts."""
    deadline = time.monotonic() + WAIT_S
    while any(server.open_sockets() for server in servers):
        assert time.monotonic() < deadline, [server.open_sockets() for server in servers]
        await asyncio.sleep(0.05)


def table_requests(nginx: Nginx, table: int, count: int) -> None:
    """``count`` requests to ``table``'s actions through nginx: refused
    without credentials, and so logged by the server that answered."""
    for _ in range(count):
        status, _, body = nginx.get(f"/api/tables/{table}/actions/")
        assert status in (401, 403, 405), body


def logged(server: ProductionServer, table: int) -> int:
    """Requests to ``table``'s actions that ``server`` answered (Django logs
    each refused request with its path)."""
    return server.tail(10**8).count(f"/api/tables/{table}/actions/")


async def restart(nginx: Nginx, servers: list[ProductionServer], homes: list[int]) -> None:
    """Start the first server again and wait until nginx, which took it
    for down (``fail_timeout``), sends its table back to it: the room as
    the module's other tests, in any order, expect it."""
    servers[0].start()
    was = logged(servers[0], homes[0])
    deadline = time.monotonic() + 3 * WAIT_S
    while logged(servers[0], homes[0]) == was:
        assert time.monotonic() < deadline, "the table never went back to its server"
        table_requests(nginx, homes[0], 1)
        await asyncio.sleep(0.2)


@pytest.fixture(scope="module")
def homes(cluster: Cluster, room: tuple[Nginx, list[ProductionServer], Path]) -> list[int]:
    """One table for each server, as seen: tables are made, and each one's
    first request through nginx tells which server has it, until each
    server has one (20 tables all on one server: a chance of 2 in a million)."""
    nginx, servers, _ = room
    found: dict[int, int] = {}
    for number in range(20):
        table = cluster.db.seed(prefix=f"route{number}", players=[])["table"]
        before = [logged(server, table) for server in servers]
        table_requests(nginx, table, 1)
        (home,) = [
            index
            for index, (server, was) in enumerate(zip(servers, before, strict=True))
            if logged(server, table) > was
        ]
        found.setdefault(home, table)
        if len(found) == len(servers):
            return [found[index] for index in range(len(servers))]
    raise AssertionError(f"20 tables, all routed to server {list(found)}")


async def test_every_request_of_a_table_reaches_one_server_and_tables_spread(room, homes):
    """Each table's sockets and API requests all reach its one server;
    the two tables' reach both servers."""
    nginx, servers, _ = room
    await no_sockets_open(servers)
    for home, table in enumerate(homes):
        before = [logged(server, table) for server in servers]
        sockets = [await spectate(nginx, table) for _ in range(4)]
        table_requests(nginx, table, 4)
        opened = [server.open_sockets() for server in servers]
        answered = [
            logged(server, table) - was for server, was in zip(servers, before, strict=True)
        ]
        expected = [4 if index == home else 0 for index in range(len(servers))]
        assert opened == expected, (table, opened)
        assert answered == expected, (table, answered)
        for socket in sockets:
            await socket.close()
        await no_sockets_open(servers)


async def test_a_down_servers_tables_move_to_the_other_and_no_other_table_moves(room, homes):
    nginx, servers, _ = room
    await no_sockets_open(servers)
    moved, stays = homes
    before = [logged(servers[1], table) for table in homes]
    servers[0].kill()
    try:
        table_requests(nginx, moved, 3)
        table_requests(nginx, stays, 3)
        socket = await spectate(nginx, moved)
        assert servers[1].open_sockets() == 1
        await socket.close()
        answered = [
            logged(servers[1], table) - was for table, was in zip(homes, before, strict=True)
        ]
        assert answered == [3, 3]
    finally:
        await restart(nginx, servers, homes)  # and its table goes back to it


async def test_other_websockets_spread_over_both_servers_and_reach_the_live_one_when_one_dies(
    room, homes
):
    """Sockets not of a table (the lobby's) go by a key of their own
    (nginx's request id): 20 of them leave neither server without one."""
    nginx, servers, _ = room
    await no_sockets_open(servers)
    sockets = [await lobby(nginx) for _ in range(20)]
    opened = [server.open_sockets() for server in servers]
    assert sum(opened) == 20
    assert all(count >= 1 for count in opened), opened  # no server got them all
    for socket in sockets:
        await socket.close()
    servers[0].kill()
    try:
        again = [await lobby(nginx) for _ in range(3)]  # each reaches B
        for socket in again:
            await socket.close()
    finally:
        await restart(nginx, servers, homes)


def test_the_servers_log_one_json_object_a_line(room):
    _, servers, _ = room
    lines = [line for line in servers[1].tail(20_000).splitlines() if line.strip()]
    assert any("Uvicorn running on" in line for line in lines), lines
    for line in lines:
        entry = json.loads(line)
        assert {"event", "level", "logger", "time"} <= entry.keys(), entry
    assert not any('"uvicorn.access"' in line for line in lines)  # nginx logs requests


async def test_nginx_logs_no_query_string(room):
    """A socket's URL carries its ticket: nginx's access lines hold the
    path alone."""
    nginx, _, _ = room
    ticket = secrets.token_urlsafe(32)
    socket = await connect(
        f"wss://127.0.0.1:{nginx.https_port}/ws/lobby/?ticket={ticket}",
        ssl=NO_VERIFY,
        server_hostname="localhost",
        open_timeout=WAIT_S,
    )
    assert json.loads(await asyncio.wait_for(socket.recv(), WAIT_S))["type"] == "snapshot"
    await socket.close()
    access = nginx.workdir / "access.log"
    deadline = time.monotonic() + WAIT_S
    while "/ws/lobby/ " not in (access.read_text() if access.exists() else ""):
        assert time.monotonic() < deadline, "nginx never logged the socket"
        await asyncio.sleep(0.05)
    assert ticket not in access.read_text() and "ticket=" not in access.read_text()
