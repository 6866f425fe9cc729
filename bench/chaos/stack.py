"""The service's processes as deployed, without containers: ASGI servers
(uvicorn, as ``bench.websockets`` runs them), Celery workers and beat, on
the harness's own PostgreSQL and Redis.  Each is the leader of a process
group of its own (``start_new_session``), so a kill ends the process and
whatever it forked (a prefork worker's children), and nothing outlives
the run."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
from pathlib import Path

from bench.websockets import ROOT, Server, child_env

SETTINGS = {
    "DEBUG": "false",
    "ALLOWED_HOSTS": "127.0.0.1,localhost",
    "LOG_LEVEL": "WARNING",
    "CLOCKS_ENABLED": "true",
    # The bots act once a second per table, all from one address: the
    # command throttle is not under test.
    "THROTTLE_COMMAND_RATE": "10000/s",
    # A dead worker's timers come back within the run (the sweeps fire
    # any due before that); a redelivered timer must then do nothing.
    "CELERY_VISIBILITY_TIMEOUT": "15",
    "CELERY_RESTORE_SECONDS": "2",
}
"""The environment every process of the stack shares (with the URLs)."""


def stack_env(db_url: str, redis_url: str, secret: str) -> dict[str, str]:
    return child_env(DATABASE_URL=db_url, REDIS_URL=redis_url, SECRET_KEY=secret, **SETTINGS)


class AsgiServer(Server):
    """One uvicorn process (``bench.websockets.Server``) with the stack's
    environment and its log in the run's directory."""

    def __init__(self, name: str, env: dict[str, str], logs: Path) -> None:
        super().__init__(env["DATABASE_URL"], env["REDIS_URL"], "asgi")
        self.name = name
        self.env = dict(env, CONN_MAX_AGE="60")
        self.log_path = logs / f"{name}.log"

    def kill(self) -> None:
        """SIGKILL to the server's process group: it dies mid-request."""
        if self.process is not None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(10)


class Celery:
    """A Celery worker or beat (``celery -A config worker|beat``)."""

    def __init__(self, name: str, role: str, env: dict[str, str], logs: Path) -> None:
        self.name = name
        self.role = role
        self.env = env
        self.log_path = logs / f"{name}.log"
        self.schedule = logs / f"{name}-schedule"
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        """Start the process, unless it is running (never two under one name)."""
        if self.alive():
            return
        if self.role == "worker":
            more = ["worker", "-n", f"{self.name}@chaos", "-c", "2", "--without-gossip"]
            more += ["--without-mingle", "-Q", self.env.get("CLOCK_QUEUE", "clocks")]
        else:
            more = ["beat", "-s", str(self.schedule)]  # the schedule file in the run's directory
        log = self.log_path.open("ab")
        self.process = subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", "config", *more, "-l", "info"],
            cwd=ROOT,
            # INFO: each task's "succeeded ... {'outcome': ...}" line, from
            # which the checks count every timer's deliveries
            env=dict(self.env, LOG_LEVEL="INFO"),
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )

    @property
    def pid(self) -> int | None:
        return None if self.process is None else self.process.pid

    def alive(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def kill(self) -> None:
        """SIGKILL to the whole group (the worker and its pool's children):
        what it held unacknowledged stays in the broker."""
        if self.process is not None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(10)

    def stop(self, timeout: float = 20) -> None:
        """SIGTERM (a warm shutdown), SIGKILL to what is left after ``timeout``."""
        if self.process is None:
            return
        if self.process.poll() is None:
            self.process.terminate()
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.process.wait(timeout)
        self.kill()

    def tail(self, size: int = 2000) -> str:
        try:
            return self.log_path.read_text(errors="replace")[-size:]
        except OSError:
            return ""
