"""The reports' tests: a small room played through the services (cash
hands at a table, a tournament played out, deposits and withdrawals, a
ticket the house gives away), and helpers that sum the ledger's entries
and the event store's events directly, for the reports to be compared to."""

from __future__ import annotations

import random
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pytest
from rest_framework.test import APIClient

from accounts import money
from accounts.audit import ledger_audit
from poker import services as tables
from poker.models import Table
from tests.isolation import (  # noqa: F401 - autouse
    fast_password_hashing,
    fresh_caches,
    generous_throttles,
    in_memory_channel_layer,
    local_cache,
)
from tests.people import client_for, user_maker  # noqa: F401 - client_for: a fixture
from tests.poker.api_support import Room, action_body, ok, post, random_action
from tests.tournaments.service_support import ServiceClock, create, play_out, register, start
from tournaments.models import Tournament

CASH = 100_000
BUY_IN = 200
TOURNAMENT_FEE = 100


@pytest.fixture(autouse=True)
def tournament_hands_reported(settings: Any) -> None:
    """The tournament's hands are reported by the test (``play_out``), not
    dealt at its own tables."""
    settings.TOURNAMENT_TABLES = False


@pytest.fixture
def make_user(db: None) -> Callable[..., Any]:
    return user_maker(CASH)


@dataclass
class World:
    """What the room did: its players, staff, table and tournament."""

    users: dict[str, Any]
    boss: Any
    table: int
    tournament: Tournament
    clients: dict[str, APIClient] = field(default_factory=dict)


def play_hands(room: Room, count: int, rng: random.Random) -> None:
    """``count`` hands at ``room``'s table, each player's action random."""
    for _ in range(count):
        start = room.view()["hand"]
        assert start is not None
        while True:
            hand = room.view()["hand"]
            if hand is None or hand["id"] != start["id"] or hand["phase"] == "complete":
                break
            _, client, mine = room.to_act()
            move = random_action(rng, mine["hand"])
            action = move.pop("action")
            body = action_body(mine, action, **move)
            ok(post(client, f"/api/tables/{room.table}/actions/", body))


@pytest.fixture
def world(make_user: Callable[..., Any], client_for: Any, monkeypatch: Any) -> World:  # noqa: F811
    """Three players with deposits (ann withdraws some); ann and bob play
    five hands at a cash table and bob leaves; ann, bob and cat play a
    tournament out (100 + 100), cat on a ticket the house gave him."""
    boss = make_user("boss", cash=0, staff=True)
    boss.is_superuser = True
    boss.save(update_fields=["is_superuser"])
    users = {name: make_user(name) for name in ("ann", "bob", "cat")}
    money.wallet_withdraw(transfer_id=uuid.uuid4(), user_id=users["ann"].pk, amount=1_000, by=boss)

    table = tables.table_create(
        by=boss, name="Main", game="32-card-draw", betting="no-limit", small_blind=1, big_blind=2
    ).pk
    room = Room(table)
    for seat, name in enumerate(("ann", "bob"), start=1):
        room.users[name] = users[name]
        room.clients[users[name].pk] = client_for(users[name])
        tables.seat_sit(by=users[name], table_id=table, seat=seat, buy_in=BUY_IN)
    play_hands(room, 5, random.Random(5))
    tables.seat_leave(by=users["bob"], table_id=table)

    clock = ServiceClock(monkeypatch)
    tournament = create(boss, name="Sunday", min_players=3, buy_in=100, fee=TOURNAMENT_FEE)
    register(tournament, users["ann"], users["bob"])
    money.ticket_award(
        transfer_id=uuid.uuid4(), user_id=users["cat"].pk, target=tournament.pk, value=200, by=boss
    )  # paid from the fees just taken: the house holds nothing else
    register(tournament, users["cat"])
    start(tournament, clock)
    play_out(tournament, seed=3)
    assert Tournament.objects.get(pk=tournament.pk).status == "finished"
    assert Table.objects.filter(pk=table).exists()
    return World(users, boss, table, Tournament.objects.get(pk=tournament.pk))


@pytest.fixture(autouse=True)
def audited(request: pytest.FixtureRequest) -> Any:
    """Every test leaves the ledger sound."""
    if request.node.get_closest_marker("django_db") is None and "world" not in request.fixturenames:
        yield
        return
    request.getfixturevalue("_django_db_helper")
    yield
    assert ledger_audit() == []
