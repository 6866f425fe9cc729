"""What can stall a frame (``kernel.stalls``): the collector's pauses and
an event loop's lag are histograms a scrape of ``/metrics`` reads; a
command's frames on the Redis layer are timed from their hand-over to their
decoding in a receiving process; with ``LIVE_TRACE`` each is a trace line."""

from __future__ import annotations

import asyncio
import gc
import json
import logging
import time
from collections.abc import Iterator
from typing import Any

import pytest
from django.test import Client
from prometheus_client import REGISTRY
from structlog.contextvars import bound_contextvars

from kernel import layer as frames_out
from kernel import stalls
from tests.poker.test_telemetry import sample
from tests.poker.test_ws_publisher import Server, pubsub_layer


def scrape() -> str:
    response = Client().get("/metrics", HTTP_HOST="10.1.2.3:8000", REMOTE_ADDR="10.0.0.7")
    assert response.status_code == 200
    return str(response.content.decode())


def registered(name: str, **labels: str) -> float:
    return REGISTRY.get_sample_value(name, labels) or 0.0


class Lines(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.lines: list[dict[str, Any]] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(json.loads(record.getMessage().removeprefix("trace ")))


@pytest.fixture
def traced() -> Iterator[Lines]:
    """``LIVE_TRACE`` on: the trace lines, read back."""
    handler = Lines()
    stalls.trace_log.addHandler(handler)
    level = stalls.trace_log.level
    stalls.trace_log.setLevel(logging.DEBUG)
    try:
        yield handler
    finally:
        stalls.trace_log.setLevel(level)
        stalls.trace_log.removeHandler(handler)


def test_a_full_collection_is_a_pause_of_generation_2_on_metrics() -> None:
    before = sample(scrape(), "poker_gc_pause_seconds_count", generation="2")
    gc.collect(2)
    after = sample(scrape(), "poker_gc_pause_seconds_count", generation="2")
    assert after >= before + 1


def test_a_blocked_loop_is_a_lag_of_its_length(traced: Lines) -> None:
    def over_100_ms() -> float:
        bucket = registered("poker_loop_lag_seconds_bucket", le="0.1")
        return registered("poker_loop_lag_seconds_count") - bucket

    async def block() -> None:
        stalls.monitor_loop()
        stalls.monitor_loop()  # once per loop
        await asyncio.sleep(2 * stalls.LAG_TICK_S)
        time.sleep(0.3)  # the loop runs nothing else meanwhile
        await asyncio.sleep(2 * stalls.LAG_TICK_S)

    before = over_100_ms()
    asyncio.run(block())
    assert over_100_ms() >= before + 1
    assert any(line["s"] == "lag" and line["d"] >= 0.2 for line in traced.lines)


def test_a_traced_collection_is_a_line_with_its_generation(traced: Lines) -> None:
    garbage = [[i] for i in range(300_000)]  # a full collection long enough to trace
    for i in range(0, len(garbage) - 1, 2):
        garbage[i].append(garbage[i + 1])
        garbage[i + 1].append(garbage[i])
    del garbage
    gc.collect(2)
    stalls.drain()
    assert any(line["s"] == "gc" and line["gen"] == 2 for line in traced.lines)


@pytest.mark.redis
def test_frames_on_redis_are_timed_from_hand_over_to_decoding(
    settings: Any, redis_url: str, redis_prefix: str, traced: Lines
) -> None:
    layer = pubsub_layer(settings, redis_url, redis_prefix)
    server = Server(layer, ["stalls"])
    handover = registered("poker_frame_stage_seconds_count", stage="handover")
    delivery = registered("poker_frame_stage_seconds_count", stage="delivery")
    try:
        with bound_contextvars(command_id="c-7"):
            frames_out.send_all([("stalls", {"type": "seen"})])
        assert frames_out.flush()
        message = server.get()
    finally:
        server.close()
    assert message["frame"] == {"type": "seen"}
    command_id, handed, published = message["stamp"]
    assert command_id == "c-7" and handed <= published
    assert registered("poker_frame_stage_seconds_count", stage="handover") == handover + 1
    assert registered("poker_frame_stage_seconds_count", stage="delivery") == delivery + 1
    stages = {line["s"]: line for line in traced.lines if line.get("cmd") == "c-7"}
    assert stages["publish"]["t0"] == handed and stages["publish"]["t1"] == published
    assert stages["publish"]["n"] == 1
    assert stages["receive"]["t"] >= published
