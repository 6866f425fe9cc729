"""What a table command leaves for the operators (``kernel.telemetry``): it
counts at ``/metrics``, every log line it writes says which command and
table."""

from __future__ import annotations

import io
import json
import logging
import socket
import urllib.request
from collections.abc import Iterator

import pytest
from prometheus_client import REGISTRY
from prometheus_client.parser import text_string_to_metric_families
from rest_framework.test import APIClient

from config import logs
from poker.models import Hand
from poker.work import Work
from tests.poker.api_support import action_body, ok, post, refused, seat_players
from tests.poker.clock_support import timed_table, until


def sample(text: str, name: str, **labels: str) -> float:
    """The value of one sample in a Prometheus text page (0 when absent)."""
    for family in text_string_to_metric_families(text):
        for found in family.samples:
            if found.name == name and found.labels == labels:
                return float(found.value)
    return 0.0


def scrape() -> str:
    response = APIClient().get("/metrics")  # from 127.0.0.1: a scraper's address
    assert response.status_code == 200
    return response.content.decode()


@pytest.fixture
def json_lines() -> Iterator[io.StringIO]:
    """Every line logged under ``poker`` at DEBUG, as the JSON of production."""
    out = io.StringIO()
    handler = logging.StreamHandler(out)
    handler.setFormatter(logs.json_formatter())
    logger = logging.getLogger("poker")
    level = logger.level
    logger.addHandler(handler)
    logger.setLevel(logging.DEBUG)
    yield out
    logger.removeHandler(handler)
    logger.setLevel(level)


def parsed(out: io.StringIO) -> list[dict[str, object]]:
    return [json.loads(line) for line in out.getvalue().splitlines()]


@pytest.fixture
def room(open_table, make_user, client_for):
    return seat_players(open_table, make_user, client_for)


def act_path(room) -> str:
    return f"/api/tables/{room.table}/actions/"


def test_an_action_counts_in_the_commands_total_and_the_latency_histogram(room):
    before = scrape()
    _, client, view = room.to_act()
    ok(post(client, act_path(room), action_body(view, "call")))
    after = scrape()
    labels = {"kind": "hand.act", "outcome": "ok"}
    assert sample(after, "poker_commands_total", **labels) == (
        sample(before, "poker_commands_total", **labels) + 1
    )
    took = "poker_command_seconds_count"
    assert sample(after, took, kind="hand.act") == sample(before, took, kind="hand.act") + 1


def test_a_refused_action_counts_as_refused(room):
    before = scrape()
    _, client, view = room.to_act()
    too_much = action_body(view, "raise", amount=10_000)
    refused(post(client, act_path(room), too_much), 400, "bad_amount")
    labels = {"kind": "hand.act", "outcome": "refused"}
    assert sample(scrape(), "poker_commands_total", **labels) == (
        sample(before, "poker_commands_total", **labels) + 1
    )


def test_every_line_logged_inside_a_command_carries_its_command_id_and_table(
    room, json_lines, monkeypatch
):
    settle = Work.settle

    def settle_and_log(work: Work) -> None:  # a line from another module, mid-command
        logging.getLogger("poker.work").warning("settling")
        settle(work)

    monkeypatch.setattr(Work, "settle", settle_and_log)
    _, client, view = room.to_act()
    body = action_body(view, "call")
    ok(post(client, act_path(room), body))
    logging.getLogger("poker.work").warning("after the command")

    *inside, after = parsed(json_lines)
    assert [line["event"] for line in inside[:1]] == ["settling"]
    assert inside[-1]["event"].startswith("command ok in ")
    for line in inside:
        assert line["command_id"] == body["command_id"]
        assert line["table_id"] == room.table
        assert line["kind"] == "hand.act"
        assert {"time", "level", "logger"} <= line.keys()
    assert after["event"] == "after the command"
    assert "command_id" not in after and "table_id" not in after


def test_no_line_is_logged_per_action_at_info(room, json_lines):
    logging.getLogger("poker").setLevel(logging.INFO)
    _, client, view = room.to_act()
    ok(post(client, act_path(room), action_body(view, "call")))
    assert parsed(json_lines) == []


@pytest.mark.redis
@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_a_worker_serves_its_commands_and_timer_lateness_on_its_metrics_port(
    start_worker, make_user, staff, tmp_path
):
    """Multiprocess mode: the worker writes its samples to its
    ``PROMETHEUS_MULTIPROC_DIR`` and serves them on ``WORKER_METRICS_PORT``."""
    port = free_port()
    start_worker(PROMETHEUS_MULTIPROC_DIR=str(tmp_path), WORKER_METRICS_PORT=str(port))
    players = [make_user("ann"), make_user("bob")]
    table = timed_table(staff, players, action_seconds=1, bet_seconds=1)
    hand = Hand.objects.get(table=table, number=1)
    until(lambda: Hand.objects.get(pk=hand.pk).ended_at, 20, "the clock to fold")

    def seen() -> tuple[float, float]:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=5) as page:
            text = page.read().decode()
        return (
            sample(text, "poker_timer_lateness_seconds_count", kind="poker.turn"),
            sample(text, "poker_commands_total", kind="clock.expired", outcome="ok"),
        )

    lateness, commands = until(lambda: all(seen()) and seen(), 10, "the worker's samples")
    assert lateness >= 1 and commands >= 1
    assert list(tmp_path.glob("counter_*.db"))  # written to its directory


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.mark.django_db(transaction=True)
async def test_open_sockets_count_the_websockets_accepted_and_not_yet_closed():
    from channels.testing import WebsocketCommunicator

    from config.asgi import application

    def open_now() -> float:
        return REGISTRY.get_sample_value("poker_open_sockets") or 0.0

    before = open_now()
    sockets = [
        WebsocketCommunicator(
            application,
            "/ws/lobby/",
            headers=[(b"origin", b"http://localhost"), (b"host", b"localhost")],
        )
        for _ in range(2)
    ]
    for ws in sockets:
        assert (await ws.connect())[0]
    assert open_now() == before + 2
    await sockets[0].disconnect()
    assert open_now() == before + 1
    await sockets[1].disconnect()
    assert open_now() == before
