"""Processes a test starts, each the leader of a process group of its own
(``subprocess.Popen(..., start_new_session=True)``), so that ending one
ends whatever it started too: nothing outlives the test.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
from pathlib import Path
from typing import Any

STOP_TIMEOUT_S = 20


def group_members(pgid: int) -> list[int]:
    """The live processes of process group ``pgid`` (from ``/proc``; a
    zombie, dead but not yet reaped, does not count)."""
    members = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue  # gone meanwhile
        state, group = fields[0], int(fields[2])
        if group == pgid and state not in ("Z", "X"):
            members.append(int(entry.name))
    return members


def end_group(process: subprocess.Popen[Any], timeout: float = STOP_TIMEOUT_S) -> None:
    """End ``process``, the leader of a process group of its own, and reap
    it: SIGTERM, SIGKILL if it is still there after ``timeout``; then
    SIGKILL to whatever is left of its group (children it did not end)."""
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(timeout)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout)
    with contextlib.suppress(ProcessLookupError):  # an empty group: nothing left behind
        os.killpg(process.pid, signal.SIGKILL)
