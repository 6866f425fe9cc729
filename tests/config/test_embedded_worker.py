"""The embedded worker (``config.embedded_worker``): on the in-memory
transport only this process's threads share the broker, so beat runs in a
thread beside the worker, never in a child process (whose broker would be
its own, and which would outlive the server); ``stop`` ends it."""

import json
import os
import subprocess
import sys
from pathlib import Path

from tests.process_groups import end_group

REPO_ROOT = Path(__file__).resolve().parents[2]

PROBE = """
import json, os, threading, time
from pathlib import Path
import django
django.setup()
from config import embedded_worker

def children():
    return [int(p) for task in Path("/proc/self/task").iterdir()
            for p in (task / "children").read_text().split()]

def beat_threads():
    return [t.name for t in threading.enumerate() if t.name == "Beat" and t.is_alive()]

embedded_worker.start()
deadline = time.monotonic() + 60
while not (beat_threads() or children()) and time.monotonic() < deadline:
    time.sleep(0.05)
found = {"children": children(), "beat_threads": beat_threads()}
embedded_worker.stop()
found["after_stop"] = beat_threads()
print(json.dumps(found), flush=True)
os._exit(0)
"""


def probe(tmp_path: Path) -> dict[str, list[object]]:
    """Start and stop the embedded worker in a fresh interpreter (in a
    process group of its own, ended whole); what it saw."""
    env = {
        "PATH": os.environ.get("PATH", ""),
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DATABASE_URL": f"sqlite:///{tmp_path / 'probe.sqlite3'}",
        "LOG_LEVEL": "WARNING",
    }
    process = subprocess.Popen(
        [sys.executable, "-c", PROBE],
        cwd=REPO_ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    try:
        out, err = process.communicate(timeout=120)
    finally:
        end_group(process)
    assert process.returncode == 0, err
    found: dict[str, list[object]] = json.loads(out.strip().splitlines()[-1])
    return found


def test_beat_runs_in_a_thread_of_the_process_and_stops_with_the_worker(tmp_path):
    found = probe(tmp_path)
    assert found["children"] == []  # no process forked off
    assert found["beat_threads"] == ["Beat"]
    assert found["after_stop"] == []
