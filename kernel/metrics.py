"""Prometheus metrics (``prometheus_client``); ``config.probes`` serves them.

What is measured, and where:

- ``poker_commands_total{kind,outcome}``: commands carried out
  (``rate()`` of ``kind="hand.act"`` is the actions per second), counted
  with ``poker_command_seconds{kind}``, the time each took, by
  ``kernel.telemetry.command`` in ``kernel.commands.Aggregate.run``, the
  one command runner (casino tables' kinds ``casino.*``, tournaments'
  ``tournament.*``).
- ``poker_open_sockets``: WebSockets accepted and not yet closed
  (``open_sockets``, around the ASGI WebSocket application).
- ``poker_timer_lateness_seconds{kind}``: how long after its due time a
  clock's command started in the kernel's drain (its ``clock_fired``
  signal).
- ``poker_queue_depth{queue,state}``: timers waiting in the broker
  (``ready``) and held by workers until their time (``unacked``), read from
  Redis when ``/metrics`` is scraped.

A server's are at its ``/metrics`` (``config.probes``); a Celery worker's
on a port of its own (``WORKER_METRICS_PORT``).

A process that forks (a prefork worker's children, uvicorn's ``--workers``)
shares its samples through files in ``PROMETHEUS_MULTIPROC_DIR`` when it is
set (prometheus_client's multiprocess mode): its endpoint sums every
process writing there.  Give each server and each worker a directory of its
own, emptied before it starts (deploy/: a tmpfs, a systemd runtime
directory), and have Prometheus scrape each.  A process is named in it by
host and pid, so containers that share one anyway (each has a pid 1) keep
apart.  docs/operations.md says who may scrape (``METRICS_TOKEN``,
``METRICS_NETWORKS``).  This module imports
nothing of Django's but its lazy settings: the Celery app imports it.
"""

from __future__ import annotations

import atexit
import glob
import os
import socket
from collections.abc import Awaitable, Callable, Iterator
from typing import Any

from celery.signals import worker_init
from django.conf import settings
from django.dispatch import receiver
from prometheus_client import (
    REGISTRY,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    multiprocess,
    start_http_server,
    values,
)
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.registry import Collector

from kernel.signals import clock_fired

MULTIPROCESS_DIR = os.environ.get("PROMETHEUS_MULTIPROC_DIR", "")
_HOST = socket.gethostname()


def process_id() -> str:
    """This process's name in the multiprocess directory: host and pid."""
    return f"{_HOST}-{os.getpid()}"


def _forget_dead_processes() -> None:
    """Drop the live gauges (open sockets) of this host's processes that
    died without saying so (killed): their sockets closed with them."""
    for path in glob.glob(os.path.join(MULTIPROCESS_DIR, f"gauge_live*_{_HOST}-*.db")):
        pid = path.rsplit("-", 1)[1].removesuffix(".db")
        if pid.isdigit() and not _alive(int(pid)):
            multiprocess.mark_process_dead(f"{_HOST}-{pid}", MULTIPROCESS_DIR)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


if MULTIPROCESS_DIR:
    # Before any metric is made: each value is a slot in this process's files.
    values.ValueClass = values.MultiProcessValue(process_id)
    _forget_dead_processes()
    atexit.register(lambda: multiprocess.mark_process_dead(process_id(), MULTIPROCESS_DIR))

COMMANDS = Counter(
    "poker_commands",
    "Commands carried out (tables', tournaments'), by kind and outcome.",
    ["kind", "outcome"],
)
COMMAND_SECONDS = Histogram(
    "poker_command_seconds",
    "Time a command took, from its lock to its answer.",
    ["kind"],
    buckets=(0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5),
)
OPEN_SOCKETS = Gauge(
    "poker_open_sockets", "WebSockets open on the servers.", multiprocess_mode="livesum"
)
TIMER_LATENESS = Histogram(
    "poker_timer_lateness_seconds",
    "How long after its due time a clock's command started in the drain.",
    ["kind"],
    buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0),
)


# --- Sockets -------------------------------------------------------------------

Asgi = Callable[[dict[str, Any], Any, Any], Awaitable[None]]


def open_sockets(app: Asgi) -> Asgi:
    """``app`` with its accepted WebSockets counted in ``poker_open_sockets``
    until the application is done with each."""

    async def counted(scope: dict[str, Any], receive: Any, send: Any) -> None:
        accepted = False

        async def send_counted(message: dict[str, Any]) -> None:
            nonlocal accepted
            if not accepted and message["type"] == "websocket.accept":
                accepted = True
                OPEN_SOCKETS.inc()
            await send(message)

        try:
            await app(scope, receive, send_counted)
        finally:
            if accepted:
                OPEN_SOCKETS.dec()

    return counted


# --- Timers --------------------------------------------------------------------


@receiver(clock_fired, dispatch_uid="metrics-clock-lateness")
def _clock_fired(sender: Any = None, kind: str = "", late: float = 0.0, **kwargs: Any) -> None:
    """A due clock's command ran: how late it started."""
    TIMER_LATENESS.labels(kind).observe(max(late, 0.0))


# --- Queue depth ---------------------------------------------------------------

PRIORITY_SEPARATOR = "\x06\x16"
"""How kombu's Redis transport names a queue's other priority lists."""


class QueueDepth(Collector):
    """``poker_queue_depth``, read from the Redis broker at each scrape: the
    timers in the clock queue (all its priority lists) and those workers
    hold unacknowledged (reserved until their time, or running: kombu keeps
    one such hash for the whole broker database, whose only queue this is)."""

    def collect(self) -> Iterator[GaugeMetricFamily]:
        depth = GaugeMetricFamily(
            "poker_queue_depth", "Timer tasks in the broker.", labels=["queue", "state"]
        )
        url = settings.CELERY_BROKER_URL
        if url.startswith(("redis://", "rediss://", "unix://")):
            import redis

            queue = settings.CLOCK_QUEUE
            client = redis.Redis.from_url(url, socket_timeout=1, socket_connect_timeout=1)
            try:
                with client.pipeline(transaction=False) as pipe:
                    pipe.llen(queue)
                    for priority in (3, 6, 9):
                        pipe.llen(f"{queue}{PRIORITY_SEPARATOR}{priority}")
                    pipe.hlen("unacked")
                    *ready, unacked = pipe.execute()
            except redis.RedisError:
                pass  # no sample: the scrape still answers, readiness says why
            else:
                depth.add_metric([queue, "ready"], float(sum(ready)))
                depth.add_metric([queue, "unacked"], float(unacked))
            finally:
                client.close()
        yield depth

    def describe(self) -> list[GaugeMetricFamily]:
        return []  # collected at each scrape, never at registration


if not MULTIPROCESS_DIR:
    REGISTRY.register(QueueDepth())


def registry() -> CollectorRegistry:
    """What a scrape reads: this process's metrics, or every process's in
    the multiprocess directory; and the queue depth."""
    if not MULTIPROCESS_DIR:
        return REGISTRY
    scraped = CollectorRegistry()
    multiprocess.MultiProcessCollector(scraped, MULTIPROCESS_DIR)
    scraped.register(QueueDepth())
    return scraped


# --- A worker's own endpoint ---------------------------------------------------


@worker_init.connect
def _serve_worker_metrics(**kwargs: Any) -> None:
    """A Celery worker serves its metrics (its pool's children's too, through
    the multiprocess directory) on ``WORKER_METRICS_PORT``, when set: it has
    no web server of its own.  On ``WORKER_METRICS_ADDRESS`` (loopback by
    default; a container's network address in compose)."""
    port = int(os.environ.get("WORKER_METRICS_PORT", "0"))
    if port:
        address = os.environ.get("WORKER_METRICS_ADDRESS", "127.0.0.1")
        start_http_server(port, addr=address, registry=registry())
