"""Commands racing on PostgreSQL (one thread and connection each): the
tournament lock queues them, so the stream has no gaps or doubles, the
last entry goes to one player only, a sit-and-go starts once, and the
ledger stays sound whatever the order."""

from __future__ import annotations

from typing import Any

import pytest

from kernel.models import Event
from tests.poker.concurrency import race
from tests.tournaments.conftest import CASH
from tests.tournaments.service_support import cash, create, fresh, house, pool, register
from tournaments import services

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("pools_paid", "pg_default"),
    pytest.mark.postgres,
]


def versions(t: Any) -> list[int]:
    rows = Event.objects.filter(stream=fresh(t).stream).order_by("version")
    return list(rows.values_list("version", flat=True))


def entry(t: Any, user: Any) -> Any:
    return lambda: services.tournament_register(by=user, tournament_id=t.pk)


def test_the_last_entry_goes_to_one_player(director, players):
    ann, bob, cy = players(3)
    t = create(director, max_players=2)
    register(t, ann)
    outcomes = race(entry(t, bob), entry(t, cy))
    assert sorted(o.code or "ok" for o in outcomes) == ["ok", "tournament_full"]
    assert fresh(t).entries == 2 and versions(t) == list(range(1, 5))
    assert sorted([cash(bob), cash(cy)]) == [CASH - 110, CASH]


def test_a_sit_and_go_filled_by_a_crowd_starts_once(director, players):
    crowd = players(6)
    t = create(director, sit_and_go=True, max_players=4)
    outcomes = race(*(entry(t, p) for p in crowd))
    assert sorted(o.code or "ok" for o in outcomes) == ["ok"] * 4 + ["registration_closed"] * 2
    row = fresh(t)
    assert (row.status, row.entries, row.players_left) == ("running", 4, 4)
    kinds = list(Event.objects.filter(stream=row.stream).values_list("type", flat=True))
    assert kinds.count("tournament.started") == 1 and versions(t) == list(range(1, len(kinds) + 1))
    assert pool(t) == 400


def test_a_cancellation_racing_registrations_refunds_whoever_got_in(director, players):
    field = players(4)
    t = create(director)
    cancel = lambda: services.tournament_cancel(by=director, tournament_id=t.pk)  # noqa: E731
    outcomes = race(cancel, *(entry(t, p) for p in field))
    assert outcomes[0].ok
    assert {o.code for o in outcomes[1:]} <= {None, "tournament_over"}
    assert [cash(p) for p in field] == [CASH] * 4 and (pool(t), house()) == (0, 0)
