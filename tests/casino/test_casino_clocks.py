"""The casino clocks (seconds here, so the tests run quickly): the betting
window deals the boxes that bet, an idle box stands and then folds, and
each timer acts once, only at the version it was set at; on a real Celery
worker as at the pot tables (``tests/poker/clock_support.py``)."""

from __future__ import annotations

import time
from typing import Any

import pytest

from accounts.audit import ledger_audit
from casino import clocks, selectors, services
from casino.models import CasinoRound, CasinoTable
from kernel.clocks import ClockEarly, drain
from kernel.errors import ClockMoved
from kernel.models import Event
from tests.casino.support import money_in_play
from tests.poker.clock_support import until

pytestmark = [pytest.mark.django_db(transaction=True)]


def sweep() -> int:
    """The drain of this app's clocks, now: how many acted."""
    return drain(kinds=clocks.KINDS)


def casino(staff: Any, players: list[Any], **clocks: Any) -> int:
    """A table with the given clocks, its players seated in boxes 1, 2, ..."""
    table = services.casino_table_open(by=staff, name="Clock", **clocks)
    for box, player in enumerate(players, start=1):
        services.casino_sit(by=player, table_id=table.pk, box=box)
    return int(table.pk)


def table_now(table: int) -> CasinoTable:
    return CasinoTable.objects.get(pk=table)


def view(table: int, player: Any) -> dict[str, Any]:
    return selectors.casino_table_view(table_now(table), player)


def test_the_window_closing_deals_the_boxes_that_bet(make_user, staff, bankroll):
    bankroll()
    ann, bob = make_user("ann"), make_user("bob")
    table = casino(staff, [ann, bob], bet_seconds=1)
    services.casino_bet(by=ann, table_id=table, amount=10)
    row = table_now(table)
    with pytest.raises(ClockEarly):
        clocks.clock_expire(table_id=table, stream=row.stream, version=1)
    assert view(table, ann)["round"] is None
    time.sleep(1.1)
    clocks.clock_expire(table_id=table, stream=row.stream, version=1)
    dealt = view(table, ann)["round"]
    assert [b["player"] for b in dealt["boxes"]] == [ann.pk] and dealt["phase"] == "first-exchange"
    events = Event.objects.count()
    clocks.clock_expire(table_id=table, stream=row.stream, version=1)  # again: the first answer
    assert Event.objects.count() == events


def test_an_idle_box_stands_in_the_exchange_and_folds_in_the_decision(make_user, staff, bankroll):
    bankroll()
    ann = make_user("ann")
    table = casino(staff, [ann], decision_seconds=1)
    total = money_in_play([ann], [table])
    services.casino_bet(by=ann, table_id=table, amount=10)
    row = CasinoRound.objects.get(table=table, number=1)
    assert row.phase == "first-exchange"
    time.sleep(1.1)
    clocks.clock_expire(table_id=table, stream=row.stream, version=row.version)
    row.refresh_from_db()
    assert row.phase == "decision"
    kinds = list(Event.objects.filter(stream=row.stream).values_list("type", "data"))
    assert ("casino.stood", {"box": 0, "exchange": 0, "timed_out": True}) in kinds
    time.sleep(1.1)
    clocks.clock_expire(table_id=table, stream=row.stream, version=row.version)
    row.refresh_from_db()
    assert row.phase == "complete"
    box = view(table, ann)["round"]["boxes"][0]
    assert box["folded"] and box["result"] == "fold" and box["won"] == 0
    assert money_in_play([ann], [table]) == total
    assert ledger_audit() == []


def test_a_timer_set_at_an_old_version_does_nothing(make_user, staff, bankroll):
    bankroll()
    ann = make_user("ann")
    table = casino(staff, [ann], decision_seconds=1)
    services.casino_bet(by=ann, table_id=table, amount=10)
    row = CasinoRound.objects.get(table=table, number=1)
    old = row.version
    services.casino_act(by=ann, table_id=table, action="stand", round=row.pk, version=old)
    time.sleep(1.1)
    with pytest.raises(ClockMoved):
        clocks.clock_expire(table_id=table, stream=row.stream, version=old)
    with pytest.raises(ClockMoved):  # the window of a round already dealt
        clocks.clock_expire(table_id=table, stream=table_now(table).stream, version=1)


@pytest.mark.redis
@pytest.mark.postgres
def test_the_worker_deals_at_the_window_and_times_out_idle_boxes(
    start_worker, make_user, staff, bankroll
):
    start_worker()
    bankroll()
    ann, bob = make_user("ann"), make_user("bob")
    table = casino(staff, [ann, bob], bet_seconds=1, decision_seconds=1)
    total = money_in_play([ann, bob], [table])
    services.casino_bet(by=ann, table_id=table, amount=10)
    assert view(table, ann)["clock"]["kind"] == "bet-window"
    until(lambda: table_now(table).round_number == 1, 20, "the window to deal")
    row = until(
        lambda: CasinoRound.objects.filter(table=table, number=1, phase="complete").first(),
        30,
        "the decision clocks to end the round",
    )
    timed_out = Event.objects.filter(stream=row.stream, data__timed_out=True).count()
    assert timed_out == 2  # stood, then folded
    assert not table_now(table).round_running and view(table, ann)["clock"] is None
    assert money_in_play([ann, bob], [table]) == total
    assert ledger_audit() == []


def test_a_window_is_closed_by_the_drain_once_due(make_user, staff, bankroll, settings):
    settings.CLOCKS_ENABLED = True  # the bet writes the window's clock; no worker here
    bankroll()
    ann, bob = make_user("ann"), make_user("bob")
    table = casino(staff, [ann, bob], bet_seconds=1)
    services.casino_bet(by=ann, table_id=table, amount=10)
    assert sweep() == 0  # not due yet
    time.sleep(1.1)
    assert sweep() == 1
    assert table_now(table).round_number == 1
    assert sweep() == 0  # once
