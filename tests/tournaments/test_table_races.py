"""Players acting at a tournament's tables racing each other and the
tournament's own commands on PostgreSQL (one thread and connection each):
a command at a tournament table locks that table alone, and the tournament
hears of a hand's end in a command of its own after the table's commit
(tournament row first, then tables), so nothing deadlocks; each is
accepted or refused with a clear code, and the chips at the tables stay
the stacks the tournament knows, hand after hand."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from bench.simulation import Passive
from poker import projections, streams
from poker.engine.rules import Game
from poker.models import Table
from tests.poker.concurrency import (
    RACE_TIMEOUT_S,
    Hold,
    Outcome,
    race,
    start,
)
from tests.tournaments.service_support import (
    bot_act,
    create,
    register,
    state,
    tournament_tables,
)
from tournaments import services
from tournaments.rules import Rebuys, Status
from tournaments.rules import queries as q

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("pools_paid", "pg_default"),
    pytest.mark.postgres,
]

REFUSALS = {"stale_version", "illegal_action", "rebuy_refused"}
"""What a racer may be told: the hand moved on, the rules refuse it now."""


def test_actions_at_two_tables_race_the_tournaments_commands(
    director: Any, players: Any, settings: Any
) -> None:
    settings.TOURNAMENT_TABLES = True
    rng = random.Random(3)
    people = players(8)
    users = {str(u.pk): u for u in people}
    t = create(
        director,
        game=Game.THIRTY_TWO_CARD_DRAW,
        sit_and_go=True,
        max_players=8,
        table_size=4,
        rebuys=Rebuys(until_level=6, chips=1000, price=100, max_rebuys=3),
    )
    register(t, *people)
    tables = tournament_tables(t)
    assert len(tables) == 2
    raced = 0
    seen: Counter[str] = Counter()
    for round_ in range(60):
        s = state(t)
        if s.status is not Status.RUNNING:
            break
        racers = [m for m in (bot_act(table, users, rng) for table in tables) if m]
        for broke in q.broke(s):
            racers.append(
                lambda u=users[broke.player]: services.tournament_rebuy(by=u, tournament_id=t.pk)
            )
        if round_ % 5 == 0:
            pause = services.tournament_pause if round_ % 10 == 0 else services.tournament_resume
            racers.append(lambda p=pause: p(by=director, tournament_id=t.pk))
        outcomes = race(*racers)
        assert all(o.ok or o.code in REFUSALS for o in outcomes), [o.code for o in outcomes]
        seen.update(o.code or "ok" for o in outcomes)
        raced += len(racers) > 1
        s = state(t)
        at_tables = sum(
            streams.tables.state(x.stream, x.version).chips
            for x in Table.objects.filter(tournament=t.pk).exclude(status=Table.Status.CLOSED)
        )
        assert at_tables == sum(e.stack for e in q.alive(s))
    assert raced >= 20 and seen["ok"] > 40, seen


def test_actions_at_two_tables_and_the_tournament_run_side_by_side(
    director: Any, players: Any, settings: Any
) -> None:
    """While an action at one table is inside its transaction, an action at
    another table of the tournament goes through, and so does a tournament
    command that needs neither table (a table command holds no tournament
    lock: nothing of the tournament runs inside it)."""
    settings.TOURNAMENT_TABLES = True
    people = players(8)
    users = {str(u.pk): u for u in people}
    t = create(
        director, game=Game.THIRTY_TWO_CARD_DRAW, sit_and_go=True, max_players=8, table_size=4
    )
    register(t, *people)
    one, two = tournament_tables(t)
    first, second = bot_act(one, users, Passive()), bot_act(two, users, Passive())
    pause = lambda: services.tournament_pause(by=director, tournament_id=t.pk)  # noqa: E731
    done = {name: Outcome() for name in ("first", "second", "pause")}
    with Hold(projections, "write") as held:  # the first command to write waits there
        first_thread = start(first, done["first"])
        assert held.inside.wait(RACE_TIMEOUT_S)
        start(second, done["second"]).join(RACE_TIMEOUT_S)
        assert isinstance(done["second"].value, dict), done  # through while the first is held
        start(pause, done["pause"]).join(RACE_TIMEOUT_S)
        assert isinstance(done["pause"].value, dict), done  # through while the first is held
        assert first_thread.is_alive() and done["first"] == Outcome()  # no answer yet
        held.release()
        first_thread.join(RACE_TIMEOUT_S)
    assert all(isinstance(o.value, dict) for o in done.values()), done
    assert state(t).clock.since is None  # paused
