"""Tournament commands count against the player's command rate (with his
table commands): past it, 429 ``throttled``; another player is not
affected; reads are free; after the wait the command goes through."""

from __future__ import annotations

from typing import Any

import pytest

from tests.throttling import set_rates, throttled
from tests.tournaments.service_support import create

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("pools_paid")]


def command(client: Any, t: Any, name: str) -> Any:
    return client.post(f"/api/tournaments/{t.pk}/{name}/", {}, format="json")


def test_a_players_tournament_commands_are_throttled_until_the_wait_is_over(
    settings, throttle_clock, client_for, director, players
):
    ann, bob = players(2)
    t = create(director)
    set_rates(settings, command="2/m")
    mine = client_for(ann)
    assert command(mine, t, "register").status_code == 200
    assert command(mine, t, "unregister").status_code == 200
    wait = throttled(command(mine, t, "register"))
    assert mine.get(f"/api/tournaments/{t.pk}/").status_code == 200  # reads are free
    assert command(client_for(bob), t, "register").status_code == 200  # another player
    throttle_clock.advance(wait)
    assert command(mine, t, "register").status_code == 200
