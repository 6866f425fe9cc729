"""The read models the services write are projections of the streams
alone: ``rebuild_tournament_projections`` reproduces every row exactly,
the level clock's deadline included, and ``rebuild_projections`` every
app's rows at once."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import call_command

from poker import services as tables
from poker.models import Hand, Seat, Table
from tests.funds import fund
from tests.poker.test_rebuild import snapshot as poker_rows
from tests.tournaments.service_support import bust, create, projected_rows, register, start
from tournaments import services
from tournaments.models import Entrant, Tournament
from tournaments.rules import Bounty, Rebuys

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("pools_paid")]


def test_rebuilding_reproduces_every_row_the_services_wrote(director, players, clock):
    ann, bob, cy = players(3)
    done = create(director, name="done")
    register(done, ann, bob)
    start(done, clock)
    bust(done, ann, bob)
    playing = create(director, name="playing", rebuys=Rebuys(2, 1000, 100))
    register(playing, ann, bob, cy)
    start(playing, clock)
    services.tournament_rebuy(by=cy, tournament_id=playing.pk)
    clock.later(30)
    services.tournament_add_time(by=director, tournament_id=playing.pk, seconds=45)
    off = create(director, name="off")
    register(off, cy)
    services.tournament_cancel(by=director, tournament_id=off.pk)
    waiting = create(director, name="waiting")
    register(waiting, ann)
    knockout = create(director, name="knockout", bounty=Bounty(30, progressive=True))
    register(knockout, ann, bob, cy)
    start(knockout, clock)
    bust(knockout, ann, bob)
    before = projected_rows()
    assert before["tournaments"][playing.pk]["level_ends_at"] is not None
    assert before["entrants"][(knockout.pk, bob.pk)]["bounty"] == 45

    Tournament.objects.update(level_ends_at=None, players_left=0, name="scrambled")
    Entrant.objects.filter(tournament=waiting).delete()
    Entrant.objects.update(stack=1, prize=999, bounty=7, bounty_won=7)
    call_command("rebuild_tournament_projections", stdout=StringIO())
    assert projected_rows() == before


def test_one_command_rebuilds_the_read_models_of_every_app(director, players, clock, staff):
    ann, bob, cy = players(3)
    playing = create(director, name="playing", rebuys=Rebuys(2, 1000, 100))
    register(playing, ann, bob, cy)
    start(playing, clock)
    bust(playing, ann, bob)
    waiting = create(director, name="waiting")
    register(waiting, ann)
    cash = tables.table_create(
        by=staff, name="Cash", game="32-card-draw", betting="no-limit", small_blind=1, big_blind=2
    )
    for seat, player in enumerate((ann, bob), start=1):
        tables.seat_sit(by=fund(player), table_id=cash.pk, seat=seat, buy_in=100)
    before = projected_rows(), poker_rows()
    assert before[1]["hands"] and before[1]["seats"] and before[0]["entrants"]

    Tournament.objects.update(level_ends_at=None, players_left=0, name="scrambled")
    Entrant.objects.filter(tournament=waiting).delete()
    Entrant.objects.update(stack=1, prize=999)
    Seat.objects.update(stack=0, sitting_out=True)
    Hand.objects.update(phase="garbage", pot=12345)
    Table.objects.update(version=999, name="scrambled")
    out = StringIO()
    call_command("rebuild_projections", stdout=out)
    assert (projected_rows(), poker_rows()) == before
    assert out.getvalue().splitlines() == [
        "poker: 2 streams",  # the table and its hand
        "casino: 0 streams",  # no casino table here
        "tournaments: 2 streams",
        "rebuilt the read models of 4 streams",
    ]
