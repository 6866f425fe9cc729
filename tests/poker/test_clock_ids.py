"""The table clocks run under ids of the room's own kind
(``kernel.system_ids``): a player who spends the id a clock used to take
(``uuid5`` of a namespace in the source) on a command of his own, a sit at
another table, cannot freeze the hand nor hold up the next deal; the
clock still acts exactly once.  A client may not choose an id of that
kind."""

from __future__ import annotations

import uuid
from typing import Any

import pytest

from kernel.clocks import ClockEarly
from kernel.models import Event
from poker import clocks, services
from poker.models import Hand, Table
from tests.funds import fund
from tests.poker.api_support import action_body, post, refused
from tests.poker.clock_support import timed_table, until
from tests.poker.test_api_actions import actions_path, room  # noqa: F401 - the fixture
from tests.poker.test_clocks import act

pytestmark = [pytest.mark.django_db(transaction=True)]

PUBLIC_NAMESPACE = uuid.UUID("6f1d9d2e-4c57-4d1e-9b53-2b8f1f0c7a10")
"""The namespace the clocks' ids were once derived from, in the source."""


def public_id(stream: str, version: int) -> uuid.UUID:
    return uuid.uuid5(PUBLIC_NAMESPACE, f"{stream}:{version}")


def spend(player: Any, command_id: uuid.UUID, staff: Any) -> None:
    """``player`` takes ``command_id`` first, with a sit at another table."""
    other = services.table_create(
        by=staff, name="Other", game="32-card-draw", betting="no-limit", small_blind=1, big_blind=2
    )
    services.seat_sit(by=fund(player), table_id=other.pk, seat=1, buy_in=100, command_id=command_id)


def fire(table: int, stream: str, version: int) -> dict[str, Any]:
    """The clock's timer, fired as soon as it is due."""

    def due() -> dict[str, Any] | None:
        try:
            return clocks.clock_expire(table_id=table, stream=stream, version=version)
        except ClockEarly:
            return None

    return until(due, 10, f"the clock of {stream} at {version}")


def test_an_action_clock_whose_public_id_a_player_spent_still_folds_once(make_user, staff):
    players = [make_user("ann"), make_user("bob")]
    table = timed_table(staff, players, action_seconds=1, bet_seconds=1)
    hand = Hand.objects.get(table=table, number=1)
    spend(make_user("carl"), public_id(hand.stream, hand.version), staff)
    fire(table, hand.stream, hand.version)
    timed_out = Event.objects.filter(stream=hand.stream, type="hand.folded", data__timed_out=True)
    assert timed_out.count() == 1
    events = Event.objects.count()
    clocks.clock_expire(table_id=table, stream=hand.stream, version=hand.version)  # its answer
    assert Event.objects.count() == events


def test_a_deal_clock_whose_public_id_a_player_spent_still_deals_once(make_user, staff, settings):
    settings.CLOCKS_ENABLED = True  # a pause between hands; its timer is fired here
    players = [make_user("ann"), make_user("bob")]
    table = timed_table(staff, players, action_seconds=30, pause_seconds=1)
    hand = Hand.objects.get(table=table, number=1)
    first = Table.objects.get(pk=table)
    act(table, players, "fold")  # hand 1 is over; both play on
    hand.refresh_from_db()
    assert hand.ended_at is not None and Table.objects.get(pk=table).hand_number == 1
    spend(make_user("carl"), public_id(first.stream, 1), staff)
    fire(table, first.stream, 1)
    assert Table.objects.get(pk=table).hand_number == 2
    events = Event.objects.count()
    clocks.clock_expire(table_id=table, stream=first.stream, version=1)  # its first answer
    assert Table.objects.get(pk=table).hand_number == 2 and Event.objects.count() == events


def test_clock_ids_are_the_room_s_own_and_a_client_may_not_send_one(room):  # noqa: F811
    r = room()
    _, bob, view = r.to_act()
    stream, version = f"hand-{view['hand']['id']}", view["hand"]["version"]
    timer = clocks.timer_id(stream, version)
    assert timer != public_id(stream, version) and timer.version == 8
    body = action_body(view, "call") | {"command_id": str(timer)}
    answer = refused(post(bob, actions_path(r), body), 400, "invalid")
    assert "command_id" in answer["fields"]
