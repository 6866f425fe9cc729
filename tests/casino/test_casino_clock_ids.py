"""The casino clocks (the betting window, a box's decision clock) run under
ids of the room's own kind (``kernel.system_ids``): a player who spends
the id a clock used to take (``uuid5`` of a namespace in the source) on a
command of his own, a sit at another table, cannot hold up the deal nor
freeze a round; each clock still acts exactly once."""

from __future__ import annotations

import uuid
from typing import Any

import pytest

from casino import clocks, services
from casino.models import CasinoRound, CasinoTable
from kernel.clocks import ClockEarly
from kernel.models import Event
from tests.poker.clock_support import until

pytestmark = [pytest.mark.django_db(transaction=True)]

PUBLIC_NAMESPACE = uuid.UUID("b7d3f4a2-0c1e-4f6b-9a8d-5e2c7f1b3d90")
"""The namespace the clocks' ids were once derived from, in the source."""


def public_id(stream: str, version: int) -> uuid.UUID:
    return uuid.uuid5(PUBLIC_NAMESPACE, f"{stream}:{version}")


def spend(player: Any, command_id: uuid.UUID, staff: Any) -> None:
    """``player`` takes ``command_id`` first, with a sit at another table."""
    other = services.casino_table_open(by=staff, name="Other")
    services.casino_sit(by=player, table_id=other.pk, box=1, command_id=command_id)


def fire(table: int, stream: str, version: int) -> dict[str, Any]:
    """The clock's timer, fired as soon as it is due."""

    def due() -> dict[str, Any] | None:
        try:
            return clocks.clock_expire(table_id=table, stream=stream, version=version)
        except ClockEarly:
            return None

    return until(due, 10, f"the clock of {stream} at {version}")


def test_casino_clocks_whose_public_ids_a_player_spent_still_act_once(make_user, staff, bankroll):
    bankroll()
    ann, bob = make_user("ann"), make_user("bob")
    carl, dee = make_user("carl"), make_user("dee")
    table = services.casino_table_open(by=staff, name="Clock", bet_seconds=1, decision_seconds=1)
    services.casino_sit(by=ann, table_id=table.pk, box=1)
    services.casino_sit(by=bob, table_id=table.pk, box=2)  # he does not bet: the window runs
    services.casino_bet(by=ann, table_id=table.pk, amount=10)
    stream = CasinoTable.objects.get(pk=table.pk).stream
    spend(carl, public_id(stream, 1), staff)
    fire(table.pk, stream, 1)  # the window closes: the round is dealt
    row = CasinoRound.objects.get(table=table.pk, number=1)
    spend(dee, public_id(row.stream, row.version), staff)
    fire(table.pk, row.stream, row.version)  # the box stands, timed out
    stood = Event.objects.filter(stream=row.stream, type="casino.stood", data__timed_out=True)
    assert stood.count() == 1
    events = Event.objects.count()
    clocks.clock_expire(table_id=table.pk, stream=row.stream, version=row.version)  # again
    clocks.clock_expire(table_id=table.pk, stream=stream, version=1)
    assert Event.objects.count() == events and stood.count() == 1
    assert clocks.timer_id(stream, 1) != public_id(stream, 1)
