"""A casino table's command is observed like a pot table's
(``kernel.telemetry``): it counts under its kind, and its lines say which
command and table."""

from __future__ import annotations

import io
import json
import logging
import uuid

from prometheus_client import REGISTRY

from config import logs
from tests.casino.support import command, ok


def sat() -> float:
    labels = {"kind": "casino.sit", "outcome": "ok"}
    return REGISTRY.get_sample_value("poker_commands_total", labels) or 0.0


def test_a_sit_counts_and_its_line_carries_the_command_and_table(
    make_user, client_for, open_casino, bankroll
):
    bankroll()
    table = open_casino()["table"]["id"]
    ann = make_user("ann")
    out = io.StringIO()
    handler = logging.StreamHandler(out)
    handler.setFormatter(logs.json_formatter())
    logger = logging.getLogger("poker.casino")
    logger.addHandler(handler)
    logger.setLevel(logging.DEBUG)
    before = sat()
    command_id = uuid.uuid4()
    try:
        ok(command(client_for(ann), table, "sit", box=1, command_id=str(command_id)))
    finally:
        logger.removeHandler(handler)
        logger.setLevel(logging.NOTSET)
    assert sat() == before + 1
    lines = [json.loads(text) for text in out.getvalue().splitlines()]
    (line,) = [line for line in lines if line["event"].startswith("command ok in ")]
    assert line["logger"] == "poker.casino.commands"
    assert (line["command_id"], line["table_id"], line["kind"]) == (
        str(command_id),
        table,
        "casino.sit",
    )
