"""The chaos harness (``bench.chaos``, ``make chaos``): its proxy, and its
short run played whole under ``CI=true``.

The short run takes a minute and a half of both cores (its own PostgreSQL
and Redis, two servers, two workers, beat, 120 sockets), so outside CI it
is skipped, as the full run is ``make chaos``'s; under CI a machine without
PostgreSQL's ``initdb`` or ``redis-server`` fails it."""

from __future__ import annotations

import asyncio
import http.server
import os
import random
import re
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from bench.chaos import instances
from bench.chaos.bots import Http
from bench.chaos.proxy import Proxy

ROOT = Path(__file__).resolve().parents[2]
IN_CI = os.environ.get("CI", "").strip().lower() in {"1", "true", "yes"}


async def _echo_server(name: bytes) -> asyncio.Server:
    async def answer(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        while data := await reader.read(100):
            writer.write(name + data)
            await writer.drain()

    return await asyncio.start_server(answer, "127.0.0.1", 0)


async def _ask(port: int) -> bytes:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(b"?")
    got = await asyncio.wait_for(reader.read(100), 5)
    writer.close()
    return got


def test_the_proxy_takes_turns_skips_a_dead_server_and_drops_a_share() -> None:
    async def scenario() -> tuple[list[bytes], list[bytes], int, int, int]:
        a, b = await _echo_server(b"a"), await _echo_server(b"b")
        ports = [s.sockets[0].getsockname()[1] for s in (a, b)]
        proxy = Proxy(ports)
        await proxy.start()
        turns = [await _ask(proxy.port) for _ in range(4)]
        a.close()
        await a.wait_closed()
        after = [await _ask(proxy.port) for _ in range(4)]
        refused = proxy.refused
        held = [await asyncio.open_connection("127.0.0.1", proxy.port) for _ in range(10)]
        for _, writer in held:
            writer.write(b"?")
        await asyncio.sleep(0.2)
        dropped = proxy.drop(0.1, random.Random(1))
        await asyncio.sleep(0.2)
        cut = sum([await reader.read(100) == b"b?" and reader.at_eof() for reader, _ in held])
        await proxy.close()
        b.close()
        await asyncio.sleep(0.1)  # the proxy's connections end
        return turns, after, refused, dropped, cut

    turns, after, refused, dropped, cut = asyncio.run(scenario())
    assert turns == [b"a?", b"b?", b"a?", b"b?"]  # round robin, nothing sticky
    assert after == [b"b?"] * 4 and refused == 2  # the dead one refuses; the other serves
    assert dropped == 1 and cut == 1  # a tenth of ten, both sides reset


def test_a_tables_rest_client_keeps_its_connection_and_reconnects_when_it_is_closed() -> None:
    connections: list[int] = []

    class Handler(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"  # keep-alive

        def setup(self) -> None:
            connections.append(1)
            super().setup()

        def do_GET(self) -> None:
            body = b'{"path": "%s"}' % self.path.encode()
            self.send_response(200)
            self.send_header("Content-Length", str(len(body)))
            if self.path == "/last":
                self.send_header("Connection", "close")
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: object) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    client = Http(server.server_address[1])
    try:
        got = [client("GET", f"/{n}", "t", 5) for n in range(3)]
        assert got == [(200, {"path": f"/{n}"}) for n in range(3)] and len(connections) == 1
        assert client("GET", "/last", None, 5) == (200, {"path": "/last"})
        assert client("GET", "/again", None, 5) == (200, {"path": "/again"})
        assert len(connections) == 2  # closed by the server: a new one
    finally:
        server.shutdown()
        server.server_close()
        client.close()
    assert Http(server.server_address[1])("GET", "/", None, 1) == (0, {})  # nobody there


@pytest.mark.skipif(not IN_CI, reason="a minute and a half of both cores: CI=true or make chaos")
def test_the_short_run_survives_every_fault_and_passes_every_check() -> None:
    problem = instances.missing()
    assert problem is None, problem
    done = subprocess.run(
        [sys.executable, "-m", "bench.chaos", "--short"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=400,
        check=False,
    )
    out = done.stdout
    assert done.returncode == 0, out[-6000:] + done.stderr[-3000:]
    for fault in ("FAULT kill -9 asgi1", "FAULT kill -9 worker1", "FAULT restart Redis",
                  "FAULT restart PostgreSQL", "FAULT dropped"):  # fmt: skip
        assert re.search(rf"^\[\d\d:\d\d:\d\d\.\d{{3}} .*\] {fault}", out, re.M), fault
    checks = re.findall(r"^  \[(ok|FAILED)\] (.*?):", out, re.M)
    assert len(checks) == 11 and all(ok == "ok" for ok, _ in checks), checks
    phases = re.findall(
        r"^  ((?:before|during|after).*?)\s+[\d.]+\s+(\d+)\s+[\d.]+\s+(\d+|-)\s+(\d+|-)\s+\d+$",
        out,
        re.M,
    )
    assert len(phases) == 11, phases  # before, then during and after each fault
    assert int(phases[0][1]) > 0 and int(phases[-1][1]) > 0  # play before, and again at the end
    assert "chaos run passed" in out
