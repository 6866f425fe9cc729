"""The harness's own PostgreSQL and Redis: data directories under the run's
temporary directory, ports of their own on 127.0.0.1, started, restarted
and stopped by the harness alone, so that restarting them never touches
the servers anything else on the machine uses (tests beside it on 5432
and 6379).

PostgreSQL comes from the Debian install (``/usr/lib/postgresql/<ver>/bin``,
the newest; ``CHAOS_PG_BIN`` to choose).  ``initdb`` and the server refuse
to run as root: run as root, the harness runs them as the ``postgres``
user (``runuser -u postgres``; ``CHAOS_PG_USER`` to choose another), which
then owns the data directory.  The server trusts local connections (a
throwaway cluster on loopback) and runs without ``fsync``: a restart here
is a process stopping, never the machine.  Redis keeps an append-only
file, so a restart brings back the queued timers and the channel layer's
groups, as a deployed Redis with persistence would.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import time
from pathlib import Path

from bench.websockets import free_port

START_TIMEOUT_S = 60


def pg_bin() -> Path | None:
    """The directory of ``initdb`` and ``pg_ctl``, if PostgreSQL is installed."""
    chosen = os.environ.get("CHAOS_PG_BIN")
    if chosen:
        return Path(chosen)
    found = sorted(Path("/usr/lib/postgresql").glob("*/bin/pg_ctl"), key=lambda p: int(p.parts[-3]))
    return found[-1].parent if found else None


def missing() -> str | None:
    """Why the harness cannot run its own servers here, or None."""
    found = pg_bin()
    if found is None or not (found / "initdb").exists():
        return "no PostgreSQL install (initdb, pg_ctl) under /usr/lib/postgresql"
    if shutil.which("redis-server") is None:
        return "no redis-server on the PATH"
    if os.geteuid() == 0 and shutil.which("runuser") is None:
        return "running as root without runuser to start PostgreSQL as another user"
    return None


class Postgres:
    """One PostgreSQL cluster of the harness's own."""

    def __init__(self, root: Path) -> None:
        self.dir = root / "pg"
        self.socket_dir = root / "pg-socket"
        self.log = root / "postgres.log"
        self.port = free_port()
        self.bin = pg_bin()
        self.user = os.environ.get("CHAOS_PG_USER", "postgres") if os.geteuid() == 0 else None

    @property
    def url(self) -> str:
        return f"postgres://postgres@127.0.0.1:{self.port}/chaos"

    def _run(self, *command: str, timeout: float = START_TIMEOUT_S) -> None:
        assert self.bin is not None
        argv = [str(self.bin / command[0]), *command[1:]]
        if self.user is not None:
            argv = ["runuser", "-u", self.user, "--", *argv]
        done = subprocess.run(argv, capture_output=True, timeout=timeout, check=False)
        if done.returncode:
            raise RuntimeError(
                f"{command[0]} failed: {done.stderr.decode(errors='replace')[-2000:]}"
            )

    def init(self) -> None:
        """A new cluster, its superuser ``postgres``, and the database ``chaos``."""
        for path in (self.dir, self.socket_dir):
            path.mkdir()
        self.log.touch()
        if self.user is not None:
            for path in (self.dir, self.socket_dir, self.log):
                shutil.chown(path, self.user)
        self._run("initdb", "-D", str(self.dir), "-U", "postgres", "--auth=trust", "-E", "UTF8",
                  "--no-sync", "--no-instructions")  # fmt: skip
        self.start()
        self._run("createdb", "-h", "127.0.0.1", "-p", str(self.port), "-U", "postgres", "chaos")

    def start(self) -> None:
        options = (
            f"-p {self.port} -c listen_addresses=127.0.0.1 -k {self.socket_dir} "
            "-c fsync=off -c synchronous_commit=off -c full_page_writes=off "
            "-c max_connections=400 -c shared_buffers=64MB"
        )
        self._run("pg_ctl", "-D", str(self.dir), "-l", str(self.log), "-o", options, "-w", "start")

    def stop(self, mode: str = "fast") -> None:
        self._run("pg_ctl", "-D", str(self.dir), "-m", mode, "-w", "stop")

    def restart(self) -> None:
        """Stop (``fast``: every connection is cut, as a restart does) and start."""
        self.stop()
        self.start()

    def running(self) -> bool:
        return (self.dir / "postmaster.pid").exists()


class Redis:
    """One Redis server of the harness's own, with an append-only file."""

    def __init__(self, root: Path) -> None:
        self.dir = root / "redis"
        self.log = root / "redis.log"
        self.port = free_port()
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        self.dir.mkdir(exist_ok=True)
        log = self.log.open("ab")
        self.process = subprocess.Popen(
            [
                "redis-server",
                "--port", str(self.port),
                "--bind", "127.0.0.1",
                "--dir", str(self.dir),
                "--save", "",
                "--appendonly", "yes",
                "--appendfsync", "everysec",
                "--maxclients", "10000",
            ],
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )  # fmt: skip
        self._wait()

    def _wait(self) -> None:
        import redis

        client = redis.Redis.from_url(self.url, socket_timeout=1)
        deadline = time.monotonic() + START_TIMEOUT_S
        while True:
            try:
                if client.ping():
                    return
            except redis.RedisError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.1)

    def stop(self) -> None:
        """SIGTERM: Redis writes its append-only file out and exits."""
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(10)

    def restart(self) -> None:
        self.stop()
        self.start()
