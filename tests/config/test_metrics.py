"""Prometheus multiprocess mode (``kernel.metrics``): the processes that share
a ``PROMETHEUS_MULTIPROC_DIR`` are summed by any one's ``/metrics``, and the
open sockets of a process that was killed are forgotten when the next
process starts there."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from pathlib import Path

from prometheus_client.parser import text_string_to_metric_families

ROOT = Path(__file__).resolve().parents[2]

COUNT_ONE = """
import django
django.setup()
from kernel.metrics import COMMANDS, OPEN_SOCKETS
COMMANDS.labels("hand.act", "ok").inc()
OPEN_SOCKETS.inc()
"""

SCRAPE = """
import django
django.setup()
from django.test import Client
print(Client().get("/metrics", HTTP_HOST="10.0.0.1").content.decode())
"""


def run(code: str, directory: Path) -> str:
    env = {
        "PATH": os.environ.get("PATH", ""),
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "PROMETHEUS_MULTIPROC_DIR": str(directory),
    }
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env,
        capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout


def value(text: str, name: str, **labels: str) -> float | None:
    for family in text_string_to_metric_families(text):
        for found in family.samples:
            if found.name == name and found.labels == labels:
                return float(found.value)
    return None


def test_metrics_sum_every_process_of_the_directory(tmp_path):
    run(COUNT_ONE, tmp_path)
    run(COUNT_ONE, tmp_path)
    text = run(SCRAPE, tmp_path)
    assert value(text, "poker_commands_total", kind="hand.act", outcome="ok") == 2.0
    # Both counted a socket, but both have exited (and said so): none open.
    assert value(text, "poker_open_sockets") == 0.0


def test_a_killed_process_s_open_sockets_are_forgotten_its_counts_kept(tmp_path):
    """A process killed never says it died: its live gauge's file stays,
    until the next process of its host starts and finds its pid gone."""
    run(COUNT_ONE, tmp_path)
    host = socket.gethostname()
    dead = max(int(p) for p in os.listdir("/proc") if p.isdigit()) + 100_000
    (live,) = tmp_path.glob("counter_*.db")
    (tmp_path / f"counter_{host}-{dead}.db").write_bytes(live.read_bytes())
    gauge = tmp_path / f"gauge_livesum_{host}-{dead}.db"
    run(COUNT_ONE.replace("OPEN_SOCKETS.inc()", "OPEN_SOCKETS.inc(); import os; os._exit(0)"),
        tmp_path)  # fmt: skip
    (left,) = [p for p in tmp_path.glob("gauge_livesum_*.db") if p != gauge]
    left.rename(gauge)  # as if the killed process had held a socket
    text = run(SCRAPE, tmp_path)
    assert not gauge.exists()
    assert value(text, "poker_open_sockets") == 0.0
    assert value(text, "poker_commands_total", kind="hand.act", outcome="ok") == 3.0
