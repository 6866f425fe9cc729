"""Helpers for the tournament service tests: a clock the test moves,
tournaments created through the service, hands reported as the tables
will report them, and the balances the ledger holds."""

from __future__ import annotations

import random
from datetime import datetime, timedelta
from typing import Any

import pytest
from django.forms.models import model_to_dict
from django.utils import timezone

from accounts import ledger
from accounts.selectors import account_balance
from bench.simulation import bot_move
from kernel.api_errors import ApiError
from kernel.models import Event
from poker import services as table_services
from poker.models import Table
from tests.funds import cash_of
from tests.tournaments.support import definition
from tournaments import clocks, services, tables, timing
from tournaments.models import Entrant, Tournament
from tournaments.rules import TournamentState, can_start_hand
from tournaments.selectors import state_of

HOUR = timedelta(hours=1)


class ServiceClock:
    """The service's clock (``tournaments.timing.now``), set by the test."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.now = timezone.now().replace(microsecond=0)
        self.real = False
        monkeypatch.setattr(timing, "now", lambda: timezone.now() if self.real else self.now)

    def release(self) -> None:
        """Back to real time (a worker process keeps real time throughout)."""
        self.real = True

    def at(self, when: datetime) -> ServiceClock:
        self.now = when
        return self

    def later(self, seconds: float) -> ServiceClock:
        self.now += timedelta(seconds=seconds)
        return self


def refused(call: Any, *args: Any, **kwargs: Any) -> ApiError:
    """The error a service refuses the call with (it must be refused)."""
    with pytest.raises(ApiError) as caught:
        call(*args, **kwargs)
    return caught.value


def create(
    by: Any, name: str = "T", starts_at: datetime | None = None, **changes: Any
) -> Tournament:
    """A tournament (``support.definition`` with ``changes``), scheduled an
    hour from now unless it is a sit-and-go or ``starts_at`` says when."""
    d = definition(**changes)
    when = None if d.sit_and_go else (starts_at or timing.now() + HOUR)
    return services.tournament_create(by=by, name=name, definition=d, starts_at=when)


def register(t: Tournament, *users: Any, **options: Any) -> dict[str, Any]:
    answer: dict[str, Any] = {}
    for user in users:
        answer = services.tournament_register(by=user, tournament_id=t.pk, **options)
    return answer


def fresh(t: Tournament) -> Tournament:
    return Tournament.objects.get(pk=t.pk)


def state(t: Tournament) -> TournamentState:
    return state_of(fresh(t))


def start(t: Tournament, clock: Any) -> Tournament:
    """Its start comes (the service clock moves to it) and its timer fires."""
    row = fresh(t)
    assert row.starts_at is not None
    clock.at(max(clock.now, row.starts_at))
    clocks.start_due(tournament_id=t.pk, starts_at=int(row.starts_at.timestamp()))
    return fresh(t)


def tick(t: Tournament, clock: Any) -> Tournament:
    """The level in force ends (the clock moves to its end) and its timer fires."""
    row = fresh(t)
    assert row.level_ends_at is not None
    clock.at(max(clock.now, row.level_ends_at))
    s = state(t)
    clocks.clock_due(tournament_id=t.pk, period=s.period, due=int(row.level_ends_at.timestamp()))
    return fresh(t)


def hand(t: Tournament, table: int, moves: dict[Any, int] | None = None) -> None:
    """A hand at ``table`` that moves chips by ``moves`` (user -> gain)."""
    tables.tournament_hand_start(tournament_id=t.pk, table=table)
    s = state(t)
    number = s.tables[table].hand
    assert number is not None
    stacks = {p.player: p.stack for p in s.hands[number].players}
    for user, gain in (moves or {}).items():
        stacks[str(user.pk)] += gain
    tables.tournament_hand_finish(tournament_id=t.pk, table=table, stacks=stacks)


def bust(t: Tournament, loser: Any, winner: Any) -> None:
    """A hand at their table where ``winner`` takes all ``loser``'s chips."""
    s = state(t)
    table = s.entrants[str(loser.pk)].table
    assert table is not None and s.entrants[str(winner.pk)].table == table
    chips = s.entrants[str(loser.pk)].stack
    hand(t, table, {loser: -chips, winner: chips})


def play_out(t: Tournament, seed: int = 1) -> None:
    """Random hands at every table until play is over."""
    rng = random.Random(seed)
    while state(t).status.value == "running":
        s = state(t)
        for table in sorted(s.tables):
            if not can_start_hand(state(t), table):
                continue
            tables.tournament_hand_start(tournament_id=t.pk, table=table)
            s = state(t)
            number = s.tables[table].hand
            assert number is not None
            stacks = {p.player: p.stack for p in s.hands[number].players}
            winner = rng.choice(sorted(stacks))
            for loser in sorted(stacks):
                if loser != winner and rng.random() < 0.5:
                    stacks[winner] += stacks[loser]
                    stacks[loser] = 0
            tables.tournament_hand_finish(tournament_id=t.pk, table=table, stacks=stacks)


cash = cash_of
"""A player's cash balance, as the tournament tests call it."""


def pool(t: Tournament) -> int:
    return account_balance(ledger.pool(t.pk))


def house() -> int:
    return account_balance(ledger.house())


def tickets(user: Any, target: Tournament) -> int:
    return account_balance(ledger.ticket(user.pk, target.pk))


def written(t: Tournament) -> tuple[int, list[dict[str, Any]], int]:
    """What a refused command must leave alone: the stream, the entrant
    rows and the ledger."""
    from accounts.models import Entry

    rows = list(Entrant.objects.filter(tournament_id=t.pk).order_by("pk").values())
    return Event.objects.filter(stream=fresh(t).stream).count(), rows, Entry.objects.count()


def pools_disagreeing() -> list[str]:
    """Tournaments whose pool in the ledger is not what their state says
    (the prize pool and the heads not yet won)."""
    out = []
    for row in Tournament.objects.order_by("pk"):
        s = state_of(row)
        paid_out = s.status.value == "cancelled" or s.awards is not None
        want = 0 if paid_out else s.pool + s.held + sum(e.bounty for e in s.entrants.values())
        if pool(row) != want:
            out.append(f"tournament {row.pk} ({s.status.value}): pool {pool(row)}, rules {want}")
    return out


def projected_rows() -> dict[str, Any]:
    """Every Tournament and Entrant row, to compare before and after a rebuild."""
    return {
        "tournaments": {r.pk: model_to_dict(r) for r in Tournament.objects.all()},
        "entrants": {
            (e.tournament_id, e.player_id): {k: v for k, v in model_to_dict(e).items() if k != "id"}
            for e in Entrant.objects.all()
        },
    }


def tournament_tables(t: Tournament | int) -> list[Table]:
    """The tournament's poker tables, oldest first."""
    return list(Table.objects.filter(tournament=getattr(t, "pk", t)).order_by("pk"))


def bot_act(table: Table, users: dict[str, Any], rng: random.Random) -> Any:
    """The player to act at ``table`` making a bot's move, to call (None:
    nobody is to act there)."""
    table.refresh_from_db()
    move = bot_move(table, rng)
    if move is None:
        return None
    player, act = move
    return lambda: table_services.hand_act(by=users[player], **act)
