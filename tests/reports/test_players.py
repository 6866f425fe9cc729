"""Each player's row: his hands are the hands' first events naming him,
his money his cash account's entries, his tournaments his entrant rows."""

from __future__ import annotations

import pytest
from django.utils.dateparse import parse_datetime

from accounts.models import Transfer
from kernel.models import Event
from poker.models import Hand
from tests.reports.support import cash_by_player, dealt, entries, report
from tournaments.models import Entrant

pytestmark = [pytest.mark.django_db, pytest.mark.postgres]

Kind = Transfer.Kind


@pytest.fixture
def rows(world, client_for):
    return {r["username"]: r for r in report(client_for(world.boss), "players")}


def test_only_players_who_played_are_listed(world, rows):
    assert sorted(rows) == ["ann", "bob", "cat"]  # not the boss, who only dealt money


def test_a_players_hands_are_the_hands_he_was_dealt(world, rows):
    counts = dealt()
    for name, user in world.users.items():
        assert rows[name]["hands"] == counts[str(user.pk)]
    assert rows["ann"]["hands"] > 0 and rows["cat"]["hands"] == 0


def test_a_players_net_is_every_movement_of_his_cash_but_the_cashiers(world, rows):
    net = cash_by_player(leave_out=(Kind.DEPOSIT, Kind.WITHDRAWAL))
    tables = cash_by_player(Kind.BUY_IN, Kind.TOP_UP, Kind.TOP_UP_REFUND, Kind.CASH_OUT)
    tournaments = cash_by_player(
        Kind.REGISTRATION, Kind.UNREGISTRATION, Kind.REBUY, Kind.ADD_ON, Kind.PRIZE
    )
    for name, user in world.users.items():
        row = rows[name]
        assert row["net"] == net.get(user.pk, 0)
        assert row["tables_net"] == tables.get(user.pk, 0)
        assert row["tournaments_net"] == tournaments.get(user.pk, 0)
        assert row["net"] == row["tables_net"] + row["tournaments_net"]
    assert rows["ann"]["tables_net"] == -200  # still seated: her chips are on the table


def test_a_players_tournaments_are_his_entrant_rows(world, rows):
    for name, user in world.users.items():
        [entrant] = Entrant.objects.filter(player=user)
        row = rows[name]
        assert (row["tournaments"], row["entries"]) == (1, entrant.entries)
        assert (row["best_place"], row["prizes"]) == (entrant.place, entrant.prize)
        assert row["cashes"] == (1 if entrant.prize else 0)
    assert sorted(r["best_place"] for r in rows.values()) == [1, 2, 3]
    assert sum(r["prizes"] for r in rows.values()) == 300


def test_last_seen_is_his_last_hand_or_money(world, rows):
    for name, user in world.users.items():
        seen = rows[name]["last_seen"]
        assert (seen and parse_datetime(seen)) == last_seen(user)
    assert rows["ann"]["last_seen"] is not None and rows["bob"]["last_seen"] is not None


def last_seen(user):
    """The latest of his last login, the start of the last hand he was
    dealt and his cash's last movement but the cashier's, row by row."""
    moments = [user.last_login]
    for event in Event.objects.filter(type="hand.started"):
        if str(user.pk) in (player["name"] for player in event.data["players"]):
            moments.append(Hand.objects.get(pk=event.stream.removeprefix("hand-")).started_at)
    for entry in entries(account__kind="cash", account__user=user):
        if entry.transfer.kind not in (Kind.DEPOSIT, Kind.WITHDRAWAL):
            moments.append(entry.transfer.created_at)
    return max((m for m in moments if m is not None), default=None)
