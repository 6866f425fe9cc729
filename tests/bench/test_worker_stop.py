"""A benchmark's Celery worker stops however loaded the machine: asked to
(SIGTERM), then killed with its whole process group when it is not gone in
time.  Real processes stand in for the worker: one that stops when asked,
and one that ignores the request and has a child doing the same (a pool
process stuck on a task)."""

from __future__ import annotations

import signal
import subprocess
import sys
import time

from bench.clocks import stop_worker
from tests.process_groups import group_members

STUBBORN = """
import signal, subprocess, sys
signal.signal(signal.SIGTERM, signal.SIG_IGN)
child = subprocess.Popen([sys.executable, "-c", "import signal, time; "
    "signal.signal(signal.SIGTERM, signal.SIG_IGN); print('ready', flush=True); time.sleep(600)"],
    stdout=subprocess.PIPE)
child.stdout.readline()
print("ready", flush=True)
child.wait()
"""

OBEDIENT = "import time; print('ready', flush=True); time.sleep(600)"


def started(code: str) -> subprocess.Popen[bytes]:
    """A process group of its own running ``code``, once it says it is ready."""
    process = subprocess.Popen(
        [sys.executable, "-c", code], stdout=subprocess.PIPE, start_new_session=True
    )
    assert process.stdout is not None
    assert process.stdout.readline() == b"ready\n"
    return process


def gone(pgid: int, timeout: float = 10.0) -> bool:
    """Whether group ``pgid`` has no live process left (its killed children
    are reaped by init, not at once)."""
    deadline = time.monotonic() + timeout
    while group_members(pgid):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


def test_a_worker_that_ignores_sigterm_is_killed_with_its_children() -> None:
    worker = started(STUBBORN)
    assert len(group_members(worker.pid)) == 2
    stop_worker(worker, grace=0.5)
    assert worker.returncode == -signal.SIGKILL
    assert gone(worker.pid)


def test_a_worker_that_stops_when_asked_is_not_killed() -> None:
    worker = started(OBEDIENT)
    stop_worker(worker, grace=30)
    assert worker.returncode == -signal.SIGTERM
    assert gone(worker.pid)
