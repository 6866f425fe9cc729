"""Tournament read models: the Tournament and Entrant rows are projections of
the tournament's stream in the event log, rewritten after every append and
rebuilt exactly from the log; the admin shows them read-only."""

from __future__ import annotations

import random
from datetime import UTC, datetime
from io import StringIO
from typing import Any

import pytest
from django.contrib import admin
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.test import RequestFactory

from kernel.eventstore import Batch, append, load
from tests.tournaments.service_support import projected_rows
from tests.tournaments.support import T0, definition, random_finish
from tournaments import projections
from tournaments.models import Entrant, Schedule, Tournament, tournament_stream
from tournaments.rules import (
    AwardPrizes,
    OpenRegistration,
    Register,
    Satellite,
    Start,
    StartHand,
    Status,
    TournamentCommand,
    TournamentEvent,
    TournamentState,
    Unregister,
    can_start_hand,
    create_tournament,
    definition_from_json,
    play,
    replay,
)

pytestmark = pytest.mark.django_db


class Stored:
    """A tournament whose events go to the event store and whose rows are
    rewritten after each command, as the service will do it."""

    def __init__(self, **changes: Any) -> None:
        self.definition = definition(**changes)
        self.row = Tournament.objects.create(
            name="Sat", buy_in=0, starting_stack=1, seats_per_table=2, definition={}, game="-"
        )
        events = create_tournament(self.definition, "Sunday satellite", T0)
        self.state: TournamentState = replay(events)
        self._store(events)

    def _store(self, events: list[TournamentEvent]) -> None:
        version = self.state.version - len(events)
        recorded = append([Batch(self.row.stream, version, projections.encode(events))])
        created = recorded[0].recorded_at if version == 0 else None
        projections.write_tournament(self.row, self.state, created_at=created)

    def do(self, *commands: TournamentCommand) -> None:
        for command in commands:
            self.state, events = play(self.state, command)
            self._store(events)


def users(n: int) -> list[str]:
    model = get_user_model()
    return [str(model.objects.create_user(f"u{i}", password="pw").pk) for i in range(n)]


def run_to_the_end(t: Stored, seed: int = 1) -> None:
    rng = random.Random(seed)
    while t.state.status is Status.RUNNING:
        for table in sorted(t.state.tables):
            if can_start_hand(t.state, table):
                t.do(StartHand(table))
                t.do(random_finish(t.state, table, rng))


def test_the_stream_is_named_after_the_tournament() -> None:
    t = Stored()
    assert t.row.stream == tournament_stream(t.row.pk) == f"tournament-{t.row.pk}"


def test_the_row_shows_the_definition_and_where_the_stream_stands() -> None:
    t = Stored(satellite=Satellite("main-event", 300), sit_and_go=False)
    t.row.refresh_from_db()
    assert (t.row.name, t.row.status, t.row.game, t.row.betting) == (
        "Sunday satellite",
        "scheduled",
        "five-card-draw",
        "no-limit",
    )
    assert (t.row.buy_in, t.row.fee, t.row.starting_stack, t.row.seats_per_table) == (
        100,
        10,
        1000,
        6,
    )
    assert t.row.satellite_target == "main-event"
    assert t.row.starts_at == datetime.fromtimestamp(T0, tz=UTC)
    assert definition_from_json(t.row.definition) == t.definition
    assert t.row.version == 1


def test_entrant_rows_follow_registration_and_unregistration() -> None:
    t = Stored()
    players = users(3)
    t.do(OpenRegistration(), *(Register(p, T0, 0) for p in players))
    assert Entrant.objects.filter(tournament=t.row).count() == 3
    t.do(Unregister(players[0]))
    rows = Entrant.objects.filter(tournament=t.row)
    assert sorted(str(r.player_id) for r in rows) == sorted(players[1:])
    t.row.refresh_from_db()
    assert (t.row.status, t.row.entries, t.row.prize_pool) == ("registering", 2, 200)


def test_a_finished_tournament_shows_places_prizes_and_tickets() -> None:
    t = Stored(satellite=Satellite("main-event", 250))
    players = users(7)
    t.do(OpenRegistration(), *(Register(p, T0, 0) for p in players), Start(T0, 3))
    t.row.refresh_from_db()
    assert t.row.status == "running" and t.row.tables == 2 and t.row.players_left == 7
    assert t.row.started_at == datetime.fromtimestamp(T0, tz=UTC)
    assert all(e.table and e.seat for e in Entrant.objects.filter(tournament=t.row))
    run_to_the_end(t)
    t.do(AwardPrizes())
    t.row.refresh_from_db()
    assert t.row.status == "finished"
    rows = list(Entrant.objects.filter(tournament=t.row).order_by("place"))
    assert sorted(r.place or 0 for r in rows)[0] == 1
    assert sum(r.ticket for r in rows) == 2
    assert sum(r.prize for r in rows) + 2 * 250 == t.row.prize_pool == 700


def test_stored_events_decode_to_what_was_decided() -> None:
    t = Stored()
    t.do(OpenRegistration(), *(Register(p, T0, 0) for p in users(4)), Start(T0, 1))
    rows = load(t.row.stream)
    assert [r.version for r in rows] == list(range(1, len(rows) + 1))
    assert replay(projections.decode(r) for r in rows) == t.state
    assert projections.fold(t.row.pk) == t.state


def test_rebuild_reproduces_every_row_exactly() -> None:
    finished = Stored(satellite=Satellite("main-event", 250))
    finished.do(OpenRegistration(), *(Register(p, T0, 0) for p in users(6)), Start(T0, 3))
    run_to_the_end(finished, seed=5)
    finished.do(AwardPrizes())
    waiting = Stored(late_registration_level=2)
    model = get_user_model()
    late = [str(model.objects.create_user(f"w{i}", password="pw").pk) for i in range(3)]
    waiting.do(OpenRegistration(), *(Register(p, T0, 0) for p in late))
    before = projected_rows()

    Entrant.objects.update(stack=0, place=None, prize=999)
    Tournament.objects.update(version=999, name="scrambled", players_left=0)
    Entrant.objects.filter(tournament=waiting.row).delete()
    out = StringIO()
    call_command("rebuild_tournament_projections", stdout=out)
    assert "rebuilt the read models of 2 tournament streams" in out.getvalue()
    after = projected_rows()
    assert after == before


def test_the_admin_shows_tournaments_entrants_and_schedules_read_only() -> None:
    request = RequestFactory().get("/admin/")
    for model in (Tournament, Entrant, Schedule):
        model_admin = admin.site._registry[model]
        assert not model_admin.has_add_permission(request)
        assert not model_admin.has_change_permission(request)
        assert not model_admin.has_delete_permission(request)
