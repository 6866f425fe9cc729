"""What the harness checks once the stack is stopped (Django on the
harness's database, in the harness's process): each check gives a
``Check`` (a name, whether it held, what was seen).

- chips: at every table a hand's end moves chips between its players,
  never more or fewer; in the tournament the stacks of the players left
  add up to the chips bought at every hand's end.
- the ledger: ``manage.py audit_ledger`` (every balance equals its entries,
  every transfer sums to zero, every cash table's chips equal its escrow).
- hands: every hand either finished or is its table's current hand (none
  abandoned by a fault), each hand row at its stream's last version, and
  ``rebuild_projections`` (every app's read models from the log) rewrites
  every read model exactly as the commands left it.
- timers: no clock acted early (a timer that fired at a version the hand
  had moved past would act before the new turn's clock ran out), no Celery
  delivery of a timer acted twice, none lost (no clock overdue when the
  workers stopped), with the lateness of those that acted.
- the satellite: finished, paid exactly its seats (tickets held as the
  awards say, cash as they say, the pool empty).
"""

from __future__ import annotations

import io
import re
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any


@dataclass
class Check:
    name: str
    ok: bool
    detail: str


def chips_at_tables() -> Check:
    from kernel.eventstore import load
    from poker.engine.table import evolve_table
    from poker.engine.table.events import HandFinished
    from poker.models import Table
    from poker.streams import decode_table

    hands, bad = 0, []
    tables = Table.objects.order_by("pk")
    for table in tables:
        folded = None
        for row in load(table.stream):
            event = decode_table(row)
            after = evolve_table(folded, event)
            if isinstance(event, HandFinished):
                hands += 1
                if folded is None or after.chips != folded.chips:
                    bad.append(f"table {table.pk} hand {event.number}")
            folded = after
    detail = f"{hands} hands ended at {tables.count()} tables"
    return Check("chips conserved at every table", not bad, detail + _first(bad))


def chips_in_tournament(tournament: int) -> Check:
    from kernel.eventstore import load
    from tournaments.models import Tournament
    from tournaments.projections import decode
    from tournaments.rules import AddedOn, HandFinished, Rebought, evolve
    from tournaments.rules import queries as q

    row = Tournament.objects.get(pk=tournament)
    state, extra, hands, bad = None, 0, 0, []
    bought = 0
    for event in (decode(r) for r in load(row.stream)):
        state = evolve(state, event)
        if isinstance(event, Rebought | AddedOn):
            extra += event.chips
        if isinstance(event, HandFinished):
            hands += 1
            bought = len(state.entrants) * state.definition.starting_stack + extra
            if sum(e.stack for e in q.alive(state)) != bought:
                bad.append(f"after hand {hands}")
    return Check(
        "chips conserved in the tournament",
        hands > 0 and not bad,
        f"{hands} hands reported, {bought} chips bought" + _first(bad),
    )


def ledger() -> Check:
    from django.core.management import CommandError, call_command

    out, err = io.StringIO(), io.StringIO()
    try:
        call_command("audit_ledger", stdout=out, stderr=err)
    except CommandError as error:
        return Check("ledger balanced (audit_ledger)", False, f"{error}: {err.getvalue()[:500]}")
    return Check("ledger balanced (audit_ledger)", True, out.getvalue().strip())


def hands() -> Check:
    from kernel.models import Event
    from poker.models import Hand, Table

    current = set(Table.objects.exclude(current_hand=None).values_list("current_hand", flat=True))
    open_hands = list(Hand.objects.filter(ended_at=None).values_list("pk", flat=True))
    abandoned = [h for h in open_hands if h not in current]
    last = dict(
        Event.objects.filter(stream__startswith="hand-")
        .values_list("stream")
        .annotate(top=_max("version"))
        .values_list("stream", "top")
    )
    behind = [h.pk for h in Hand.objects.only("pk", "version") if last.get(h.stream) != h.version]
    finished = Hand.objects.exclude(ended_at=None).count()
    detail = (
        f"{finished} finished, {len(open_hands)} running at their tables, "
        f"{len(abandoned)} abandoned, {len(behind)} rows behind their stream"
    )
    return Check("every hand finished or resumed", not abandoned and not behind, detail)


def _max(field: str) -> Any:
    from django.db.models import Max

    return Max(field)


READ_MODELS = (
    ("poker", "Table", ("id",)),
    ("poker", "Seat", ("table_id", "number")),
    ("poker", "Hand", ("id",)),
    ("tournaments", "Tournament", ("id",)),
    ("tournaments", "Entrant", ("tournament_id", "player_id")),
)
"""Each read model with the key its rows are compared by (a rebuild
writes seats and entrants again, under new ids)."""


def rebuild() -> Check:
    """The read models as written, against ``projections_rebuild``'s."""
    from django.apps import apps

    from kernel.projections import projections_rebuild

    def rows() -> dict[str, dict[Any, dict[str, Any]]]:
        out = {}
        for app, name, key in READ_MODELS:
            model = apps.get_model(app, name)
            fields = _fields(model) if key != ("id",) else ["id", *_fields(model)]
            out[name] = {tuple(r[k] for k in key): r for r in model.objects.values(*fields)}
        return out

    before = rows()
    counts = projections_rebuild()
    after = rows()
    differ = []
    for name, written in before.items():
        for pk in written.keys() | after[name].keys():
            old, new = written.get(pk), after[name].get(pk)
            if old != new:
                fields = sorted(k for k in (old or {}).keys() | (new or {}).keys()
                                if (old or {}).get(k) != (new or {}).get(k))  # fmt: skip
                shown = ", ".join(
                    f"{k} {(old or {}).get(k)!r} -> {(new or {}).get(k)!r}" for k in fields
                )
                differ.append(f"{name} {pk}: {shown}")
    total = sum(len(v) for v in before.values())
    return Check(
        "read models equal a rebuild from the log",
        not differ,
        f"{total} rows, {sum(counts.values())} streams replayed" + _first(differ),
    )


def _fields(model: Any) -> list[str]:
    return [f.attname for f in model._meta.concrete_fields if not f.primary_key]


def timers(stopped: datetime, logs: list[Path], clock_s: int, pause_s: int) -> list[Check]:
    """Timers at the cash tables (``clock_s``: every clock of theirs, no time
    bank; ``pause_s``: their pause between hands): none acted before its
    clock ran out, none lost when the workers stopped.

    A clock that fired twice, or at a version its table had moved past,
    would act before the clock then running had run out: a player timed
    out early, a hand dealt before the pause was over.  The workers' logs
    say how many drains ran and how many clocks they fired (a drain killed
    mid-command leaves its clock to the next one)."""
    from kernel import clocks
    from kernel.models import Event
    from poker.clocks import KINDS
    from poker.models import Table

    early: list[float] = []
    late: list[float] = []
    cash = [t.stream for t in Table.objects.filter(tournament=None)]
    hand_prefixes = tuple(f"hand-{s.split('-', 1)[1]}-" for s in cash)
    previous: dict[str, datetime] = {}
    rows = Event.objects.filter(stream__startswith="hand-").order_by("stream", "version")
    for stream, data, at in rows.values_list("stream", "data", "recorded_at").iterator():
        before = previous.get(stream)
        previous[stream] = at
        if not stream.startswith(hand_prefixes) or not data.get("timed_out") or before is None:
            continue
        lateness = (at - before - timedelta(seconds=clock_s)).total_seconds()
        (early if lateness < 0 else late).append(lateness)
    dealt_early = _deals_early(pause_s)
    drains = _drains(logs)
    overdue = clocks.overdue(stopped - timedelta(seconds=clocks.SWEEP_GRACE_SECONDS), KINDS)
    late.sort()
    p50, p99 = (late[int(q * (len(late) - 1))] if late else 0.0 for q in (0.5, 0.99))
    return [
        Check(
            "no timer fired twice",
            not early and not dealt_early[1] and bool(drains),  # none read: logs unread
            f"{len(early) + len(late)} clocks timed players out at the cash tables, "
            f"{len(early)} before their time; {dealt_early[0]} hands dealt after a pause, "
            f"{dealt_early[1]} before it was over; {len(drains)} drains fired "
            f"{sum(drains)} clocks",
        ),
        Check(
            "no timer lost",
            not overdue and bool(late),
            f"{len(overdue)} clocks overdue by > {clocks.SWEEP_GRACE_SECONDS:g} s when the "
            f"workers stopped; timeouts late p50 {p50:.2f} s, p99 {p99:.2f} s, "
            f"max {max(late, default=0):.2f} s",
        ),
    ]


def _deals_early(pause_s: int) -> tuple[int, int]:
    """(hands dealt after another at the same cash table, how many of them
    before the pause after it was over)."""
    from kernel.models import Event
    from poker.models import Table

    streams = [t.stream for t in Table.objects.filter(tournament=None)]
    rows = Event.objects.filter(
        stream__in=streams, type__in=("table.hand_finished", "table.hand_began")
    ).order_by("stream", "version")
    finished: dict[str, datetime] = {}
    dealt = early = 0
    for stream, kind, at in rows.values_list("stream", "type", "recorded_at").iterator():
        if kind == "table.hand_finished":
            finished[stream] = at
        elif stream in finished:
            dealt += 1
            early += (at - finished.pop(stream)).total_seconds() < pause_s
    return dealt, early


DRAIN = re.compile(r"Task kernel\.tasks\.clock_drain\[[0-9a-f-]+\] succeeded in [^:]*: (\d+)")


def _drains(logs: list[Path]) -> list[int]:
    """How many clocks each drain that fired any fired (the workers' logs)."""
    out: list[int] = []
    for path in logs:
        try:
            text = path.read_text(errors="replace")
        except OSError:
            continue
        out += [int(n) for n in DRAIN.findall(text)]
    return out


def satellite(ready: dict[str, Any]) -> list[Check]:
    from accounts import ledger as accounts
    from accounts.selectors import account_balance
    from tournaments import payments
    from tournaments.models import Tournament
    from tournaments.rules import Status
    from tournaments.selectors import state_of

    state = state_of(Tournament.objects.get(pk=ready["tournament"]))
    finished = state.status is Status.FINISHED
    checks = [Check("the satellite finished", finished, f"status {state.status.value}")]
    if not finished:
        return checks
    plan = ready["plan"]
    awards = state.awards or ()
    seat = plan["seat_value"]
    rebuys = sum(e.rebuys for e in state.entrants.values())
    added = sum(1 for e in state.entrants.values() if e.added_on)
    pool = plan["buy_in"] * (plan["players"] + rebuys + added)
    seats = min(pool // seat, plan["players"] - 1)
    tickets = {a.player: a.ticket for a in awards}
    held = {p: payments.tickets_held(uid, ready["target"]) for p, uid in ready["bots"].items()}
    wrong = [p for p in held if held[p] != tickets.get(p, 0)]
    paid = sum(a.ticket for a in awards) * seat + sum(a.cash for a in awards)
    left = account_balance(accounts.pool(ready["tournament"]))
    ok = not wrong and paid == pool == state.pool and left == 0 and sum(held.values()) <= seats
    checks.append(
        Check(
            "the satellite paid exactly its seats",
            ok,
            f"pool {pool} ({plan['players']} entries, {rebuys} rebuys, {added} add-ons): "
            f"{seats} seats of {seat}; {sum(held.values())} tickets held, "
            f"{sum(a.cash for a in awards)} in cash; {len(wrong)} players holding other "
            f"than their award; pool left {left}",
        )
    )
    return checks


def _first(problems: list[str]) -> str:
    return f"; e.g. {', '.join(problems[:3])}" if problems else ""
