"""A multi-flight event driven in a process of its own, for the crash test.

Run as ``python tests/tournaments/flight_crash_driver.py`` with
``DATABASE_URL`` set; one JSON request a line on stdin, one JSON reply a
line on stdout (``{"ok": ...}``, or ``{"refused": code}``), as
``tests/poker/crash_driver.py``.  Hands are reported as the tables would
(``tournaments.tables``), the tournaments' own tables left out.

Requests (``op`` plus arguments):

- ``setup(prefix)``: a director, six funded players, an event of two
  flights starting in two seconds and its Day 2 a second later; the six
  registered in Day 1A, Day 1B called off (and carried: it commits).
  Replies the tournaments' ids.
- ``stop(flight, hang)``: start the flight once its time has come and bust
  players until it stops at its mark; its carry into Day 2 runs once that
  commits.  ``hang``: the carry stops for good inside its transaction,
  after the flight's pool is moved on the ledger: it prints
  ``{"inside": ...}`` and sleeps until it is killed.
- ``sweep()``: beat's sweep of flights left uncarried; how many it carried.
- ``look(event)``: Day 2's events by type, the pools, the ledger audit.
- ``rebuilt()``: whether rebuilding the projections reproduces the rows.
"""

from __future__ import annotations

import json
import os
import sys
import time
from datetime import timedelta
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django

django.setup()

from django.conf import settings  # noqa: E402
from django.contrib.auth import get_user_model  # noqa: E402
from django.forms.models import model_to_dict  # noqa: E402

from accounts import ledger  # noqa: E402
from accounts.audit import ledger_audit  # noqa: E402
from accounts.selectors import account_balance  # noqa: E402
from accounts.services import role_grant  # noqa: E402
from kernel.models import Event  # noqa: E402
from tests.funds import fund  # noqa: E402
from tests.poker.line_protocol import serve  # noqa: E402
from tests.tournaments.support import definition  # noqa: E402
from tournaments import clocks, flights, payments, projections, services, tables, timing  # noqa: E402
from tournaments.models import Tournament  # noqa: E402
from tournaments.selectors import state_of  # noqa: E402

settings.TOURNAMENT_TABLES = False  # the hands are reported here


def setup(prefix: str) -> dict[str, Any]:
    model = get_user_model()
    boss = model.objects.create(username=f"{prefix}-boss")
    role_grant(user=boss, role="tournament_director")
    players = [fund(model.objects.create(username=f"{prefix}-p{k}"), 1000) for k in range(6)]
    starts = timing.now() + timedelta(seconds=2)
    event = flights.flight_event_create(
        by=boss, name=f"{prefix} main", definition=definition(), flights=[starts, starts],
        day_two_starts_at=starts + timedelta(seconds=1), advance_percent=25,
    )  # fmt: skip
    rows = {t.flight: t.pk for t in Tournament.objects.filter(flight_event=event)}
    for user in players:
        services.tournament_register(by=user, tournament_id=rows[1])
    services.tournament_cancel(by=boss, tournament_id=rows[2])
    return {"event": event.pk, "one": rows[1], "two": rows[2], "day_two": rows[0]}


def stop(flight: int, hang: bool = False) -> dict[str, Any]:
    if hang:
        carry = payments.money.tournament_pool_carry

        def carry_then_hang(**kwargs: Any) -> Any:
            done = carry(**kwargs)
            print(json.dumps({"inside": {"moved": kwargs["amount"]}}), flush=True)
            time.sleep(600)
            return done

        payments.money.tournament_pool_carry = carry_then_hang
    row = Tournament.objects.get(pk=flight)
    assert row.starts_at is not None
    while timing.now() < row.starts_at:
        time.sleep(0.1)
    clocks.start_due(tournament_id=flight, starts_at=int(row.starts_at.timestamp()))
    while Tournament.objects.get(pk=flight).status == "running":
        state = state_of(Tournament.objects.get(pk=flight))
        table = min(state.tables)
        seated = sorted(state.tables[table].seats.values())
        tables.tournament_hand_start(tournament_id=flight, table=table)
        state = state_of(Tournament.objects.get(pk=flight))
        hand = state.hands[state.tables[table].hand or 0]
        stacks = {p.player: p.stack for p in hand.players}
        loser, winner = seated[0], seated[1]
        stacks[winner] += stacks[loser]
        stacks[loser] = 0
        tables.tournament_hand_finish(tournament_id=flight, table=table, stacks=stacks)
    return {"status": Tournament.objects.get(pk=flight).status}


def sweep() -> int:
    return flights.flights_sweep()


def look(event: int) -> dict[str, Any]:
    rows = {t.flight: t for t in Tournament.objects.filter(flight_event_id=event)}
    day_two = rows[0]
    kinds = list(Event.objects.filter(stream=day_two.stream).values_list("type", flat=True))
    state = state_of(day_two)
    return {
        "day_two_events": kinds,
        "day_two_status": day_two.status,
        "carried": sorted(state.carried),
        "pools": {n: account_balance(ledger.pool(t.pk)) for n, t in rows.items()},
        "chips": state.tally.chips,
        "bags": sum(b.stack for b in state_of(rows[1]).bags),
        "audit": ledger_audit(),
    }


def rebuilt() -> bool:
    def rows() -> list[dict[str, Any]]:
        return [model_to_dict(t) for t in Tournament.objects.order_by("pk")]

    before = rows()
    projections.rebuild()
    return rows() == before


OPS = {f.__name__: f for f in (setup, stop, sweep, look, rebuilt)}


if __name__ == "__main__":
    serve(OPS)
