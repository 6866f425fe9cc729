"""A cash-table client in a process of its own, for the crash tests.

Run as ``python tests/poker/crash_driver.py`` with ``DATABASE_URL`` set.  It
reads one JSON request a line on stdin, carries it out through
``poker.services`` and writes one JSON reply a line on stdout:
``{"ok": ...}``, or ``{"refused": code}`` for an API error.  Between
requests it does nothing but wait on stdin, so a test that kills it there
kills it between two commands.

Requests (``op`` plus arguments):

- ``setup(prefix, players, buy_in)``: a staff user, one user per name, a
  32 Card Draw table, each player seated in turn (the first hand is dealt as
  soon as two sit).  Replies ``{"table": id}``.
- ``look(table)``: the table as stored and as seen (``picture``).
- ``act(table, seat, action, amount, cards, version)``: one action of the
  player in ``seat`` in the running hand, at ``version`` (default: the
  stored one).  Replies the hand id, its new version and the hand now
  running (the next one when the action ended the hand).
- ``hang(...)``: like ``act``, but the command stops for good inside its
  transaction, after its events are appended and its read models written:
  it prints ``{"inside": ...}`` and sleeps until it is killed.
- ``finish(table, hand)``: play the hand to its end (check, call, stand
  pat, decline, show) and reply with ``look``.
- ``rebuilt(table)``: whether ``rebuild`` reproduces the read models.
"""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django

django.setup()

from django.contrib.auth import get_user_model  # noqa: E402
from django.db.models import Q  # noqa: E402
from django.forms.models import model_to_dict  # noqa: E402

from kernel.models import Command, Event  # noqa: E402
from poker import projections, selectors, services  # noqa: E402
from poker.models import Hand, Seat, Table  # noqa: E402
from tests.funds import fund  # noqa: E402
from tests.poker.line_protocol import serve  # noqa: E402

PASSIVE = ("check", "call", "stand", "decline", "show", "muck")


def setup(prefix: str, players: list[str], buy_in: int) -> dict[str, Any]:
    model = get_user_model()
    boss = model.objects.create(username=f"{prefix}-boss", is_staff=True)
    table = services.table_create(
        by=boss,
        name=prefix,
        game="32-card-draw",
        betting="no-limit",
        small_blind=1,
        big_blind=2,
        # Clocks longer than any run: the pictures compared before and after a
        # kill show the legal actions, which the bet window would change.
        action_seconds=600,
        bet_seconds=600,
        draw_seconds=600,
        parole_seconds=600,
    )
    for seat, name in enumerate(players, start=1):
        user = fund(model.objects.create(username=f"{prefix}-{name}"))
        services.seat_sit(by=user, table_id=table.pk, seat=seat, buy_in=buy_in)
    return {"table": table.pk}


def look(table: int) -> dict[str, Any]:
    return picture(Table.objects.get(pk=table))


def picture(table: Table) -> dict[str, Any]:
    """The table's log, its read models, and the running hand as each seated
    player sees it."""
    seats = list(Seat.objects.filter(table=table))
    hands = list(Hand.objects.filter(table=table))
    names = [table.stream] + [h.stream for h in hands]
    events = Event.objects.filter(stream__in=names).order_by("stream", "version")
    commands = Command.objects.filter(Q(stream__in=names) | Q(events__stream__in=names))
    brought = taken = 0
    for event in events:
        if event.type == "table.player_seated":
            brought += event.data["buy_in"]
        elif event.type == "table.topped_up":
            brought += event.data["amount"]
        elif event.type == "table.player_left":
            taken += event.data["cash_out"]
    out: dict[str, Any] = {
        "table": model_to_dict(table),
        "seats": [model_to_dict(s, exclude=["id"]) for s in seats],
        "hands": [model_to_dict(h) | {"started_at": h.started_at} for h in hands],
        "events": [[e.stream, e.version, e.type, e.data, e.command_id] for e in events],
        "commands": sorted({str(c) for c in commands.values_list("id", flat=True)}),
        "chips": {"brought": brought, "taken": taken, "seated": sum(s.stack for s in seats)},
        "play": None,
    }
    hand = table.current_hand
    if hand is not None and hand.ended_at is None:
        views = {s.number: selectors.table_view(table, s.player)["hand"] for s in seats}
        public = selectors.table_view(table, None)["hand"]
        mine = {n: v for n, v in views.items() if v["your_seat"] is not None}
        out["play"] = {
            "hand": hand.pk,
            "version": hand.version,
            "phase": public["phase"],
            "to_act_seat": public["to_act_seat"],
            "pot": public["pot"],
            "stacks": {p["seat"]: p["stack"] for p in public["players"]},
            "cards": {n: _own(v)["cards"] for n, v in mine.items()},
            "legal": mine[public["to_act_seat"]]["legal"] if public["to_act_seat"] else None,
        }
    return json.loads(json.dumps(out, default=str))


def _own(hand: dict[str, Any]) -> dict[str, Any]:
    """The viewer's player in a hand view."""
    return next(p for p in hand["players"] if p["seat"] == hand["your_seat"])


def act(
    table: int,
    seat: int,
    action: str,
    amount: int | None = None,
    cards: tuple[str, ...] = (),
    version: int | None = None,
) -> dict[str, Any]:
    row = Table.objects.get(pk=table)
    hand = Hand.objects.get(pk=row.current_hand_id)
    player = Seat.objects.get(table=row, number=seat).player
    reply = services.hand_act(
        by=player,
        table_id=table,
        hand=hand.pk,
        version=hand.version if version is None else version,
        action=action,
        amount=amount,
        cards=cards,
    )
    hand.refresh_from_db()
    return {"hand": hand.pk, "version": hand.version, "running": reply["hand"]["id"]}


def hang(**request: Any) -> None:
    write = projections.write

    def write_then_hang(work: Any, recorded: Any, *appending: Any) -> None:
        write(work, recorded, *appending)
        inside = {"table": work.table.pk, "appended": [[r.stream, r.version] for r in recorded]}
        print(json.dumps({"inside": inside}), flush=True)
        time.sleep(600)

    projections.write = write_then_hang
    act(**request)


def finish(table: int, hand: str) -> dict[str, Any]:
    for _ in range(200):
        if Hand.objects.get(pk=hand).ended_at is not None:
            return look(table)
        now = look(table)["play"]
        legal = now["legal"]["actions"]
        action = next((a for a in PASSIVE if a in legal), legal[0])
        act(table, now["to_act_seat"], action)
    raise AssertionError(f"hand {hand} did not end")


def rebuilt(table: int) -> bool:
    before = look(table)
    projections.rebuild()
    return look(table) == before


OPS = {f.__name__: f for f in (setup, look, act, hang, finish, rebuilt)}


if __name__ == "__main__":
    serve(OPS)
