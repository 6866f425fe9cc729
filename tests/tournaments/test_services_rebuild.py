"""The read models the services write are projections of the streams
alone: ``rebuild_tournament_projections`` reproduces every row exactly,
the level clock's deadline included."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import call_command

from tests.tournaments.service_support import bust, create, projected_rows, register, start
from tournaments import services
from tournaments.models import Entrant, Tournament
from tournaments.rules import Rebuys

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
    before = projected_rows()
    assert before["tournaments"][playing.pk]["level_ends_at"] is not None

    Tournament.objects.update(level_ends_at=None, players_left=0, name="scrambled")
    Entrant.objects.filter(tournament=waiting).delete()
    Entrant.objects.update(stack=1, prize=999)
    call_command("rebuild_tournament_projections", stdout=StringIO())
    assert projected_rows() == before
