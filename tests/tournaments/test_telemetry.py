"""A tournament command is observed like a table command (``kernel.telemetry``):
it counts under its kind, and its log lines say which command and tournament."""

from __future__ import annotations

import io
import json
import logging
import uuid

import pytest
from prometheus_client import REGISTRY

from config import logs
from tests.tournaments.service_support import create, register

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("pools_paid")]


def registered() -> float:
    labels = {"kind": "tournament.register", "outcome": "ok"}
    return REGISTRY.get_sample_value("poker_commands_total", labels) or 0.0


def test_a_registration_counts_and_its_lines_carry_the_command_and_tournament(director, players):
    (ann,) = players(1)
    t = create(director)
    out = io.StringIO()
    handler = logging.StreamHandler(out)
    handler.setFormatter(logs.json_formatter())
    logger = logging.getLogger("tournaments")
    logger.addHandler(handler)
    logger.setLevel(logging.DEBUG)
    before = registered()
    command_id = uuid.uuid4()
    try:
        register(t, ann, command_id=command_id)
    finally:
        logger.removeHandler(handler)
        logger.setLevel(logging.NOTSET)
    assert registered() == before + 1
    (line,) = [json.loads(text) for text in out.getvalue().splitlines()]
    assert line["event"].startswith("command ok in ")
    assert line["logger"] == "tournaments.work"
    assert (line["command_id"], line["tournament_id"], line["kind"]) == (
        str(command_id),
        t.pk,
        "tournament.register",
    )
