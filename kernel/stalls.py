"""What can hold a frame up on the live path, measured where it happens.

- ``poker_gc_pause_seconds{generation}``: each pause of Python's cyclic
  garbage collector (``gc.callbacks``), in every process that set up Django
  (servers, Celery workers).  A collection stops the whole process: every
  socket's frames and every command wait for it.
- ``poker_loop_lag_seconds``: how late a server's event loop ran a timer
  (``LAG_TICK_S`` apart): a pause of the loop (a collection, a blocking
  call) delays every socket of the process.
- ``poker_frame_stage_seconds{stage}``: a command's frames on their way,
  ``handover`` (its commit handing them to the process's publisher until
  the ``PUBLISH`` returned) and ``delivery`` (from just before that
  ``PUBLISH`` until a server process decoded the message: wall clocks of
  two hosts, as close as they are kept).

With ``LIVE_TRACE`` set, each of these (and each act frame's arrival, each
command's start and end) is also a line at DEBUG of the ``config.trace``
logger, ``trace {json}``, with wall-clock times and the command id: the
live benchmark (``bench/websockets.py``) joins them with what its clients
saw to print where a slow frame's time went.  Off, each costs one check of
the logger's level.

A collection's callback must not take a lock (it runs wherever an
allocation set it off, perhaps inside a metric's own update, whose lock is
not reentrant), so it only notes the pause; ``drain`` observes the notes
into the histogram from outside: each server loop's lag monitor, each
scrape, each Celery task's end.
"""

from __future__ import annotations

import asyncio
import gc
import json
import logging
import os
import time
from collections import deque
from typing import Any

from kernel.metrics import FRAME_STAGE, GC_PAUSE, LOOP_LAG

HANDOVER = FRAME_STAGE.labels("handover")
DELIVERY = FRAME_STAGE.labels("delivery")

LAG_TICK_S = 0.05
"""Seconds between two ticks of a loop's lag monitor."""
LAG_TRACED_S = 0.005
"""Lag (and collector pauses) from which a trace line is written."""

trace_log = logging.getLogger("config.trace")


def tracing() -> bool:
    """Whether trace lines are written (``LIVE_TRACE``)."""
    return trace_log.isEnabledFor(logging.DEBUG)


def trace(stage: str, **fields: Any) -> None:
    """One trace line (call only when ``tracing()``)."""
    trace_log.debug("trace %s", json.dumps({"s": stage, "pid": os.getpid(), **fields}))


# --- Collector pauses ------------------------------------------------------

_pauses: deque[tuple[int, float, float]] = deque(maxlen=10_000)
"""(generation, wall-clock start, seconds) noted by the callback, not yet observed."""
_started = [0.0, 0.0]
"""The running collection's start: perf counter, wall clock."""


def _on_gc(phase: str, info: dict[str, Any]) -> None:
    """``gc.callbacks``: note the pause (no lock taken: see the module)."""
    if phase == "start":
        _started[0], _started[1] = time.perf_counter(), time.time()
    else:
        _pauses.append((info["generation"], _started[1], time.perf_counter() - _started[0]))


def watch_gc() -> None:
    """Note this process's collector pauses (once per process)."""
    if _on_gc not in gc.callbacks:
        gc.callbacks.append(_on_gc)


def settle() -> None:
    """Once the process has imported and built what it serves with: collect,
    then move every object left into the collector's permanent generation
    (``gc.freeze``), which no later collection walks.  A full collection
    of a server otherwise walks every module, class and function of Django
    and the apps, hundreds of thousands of objects, and stops every socket
    of the process meanwhile."""
    gc.collect()
    gc.freeze()


def drain() -> None:
    """Observe the pauses noted since the last call."""
    traced = tracing()
    while _pauses:
        generation, start, seconds = _pauses.popleft()
        GC_PAUSE.labels(str(generation)).observe(seconds)
        if traced and seconds >= LAG_TRACED_S:
            trace("gc", gen=generation, t=start, d=seconds)


# --- Event-loop lag --------------------------------------------------------

_monitored: dict[asyncio.AbstractEventLoop, asyncio.Task[None]] = {}


def monitor_loop() -> None:
    """Measure the running loop's lag (once per loop), draining the
    collector's pauses at each tick."""
    loop = asyncio.get_running_loop()
    if loop not in _monitored:
        _monitored[loop] = loop.create_task(_lag_monitor(loop), name="loop-lag")


async def _lag_monitor(loop: asyncio.AbstractEventLoop) -> None:
    try:
        while True:
            before = time.perf_counter()
            await asyncio.sleep(LAG_TICK_S)
            late = max(0.0, time.perf_counter() - before - LAG_TICK_S)
            LOOP_LAG.observe(late)
            if late >= LAG_TRACED_S and tracing():
                trace("lag", t=time.time() - late, d=late)
            drain()
    finally:
        _monitored.pop(loop, None)


# --- Frames on their way ---------------------------------------------------


def delivered(stamp: Any) -> None:
    """A message stamped by its publisher (``kernel.layer``: command id,
    hand-over and publish wall-clock times) was decoded in this process."""
    now = time.time()
    command_id, _, published = stamp
    DELIVERY.observe(max(0.0, now - published))
    if tracing():
        trace("receive", cmd=command_id, t=now)
