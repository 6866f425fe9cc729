"""The table clocks on a real Celery worker (RULES.md 1; clocks in seconds
here so the tests run quickly): every clock is a row of the kernel's
clocks written by the command, fired by the kernel's drain, which a
separate worker process's waker sends on Redis when the clock comes due,
on the test's PostgreSQL database."""

from __future__ import annotations

import math
import time
import uuid
from datetime import datetime, timedelta
from typing import Any

import pytest
from celery.signals import before_task_publish
from django.db import transaction

from config.celery import app, use_broker
from kernel import clocks as kernel_clocks
from kernel.api_errors import ApiError
from kernel.clocks import SWEEP_GRACE_SECONDS, ClockEarly, drain
from kernel.errors import ClockMoved
from kernel.models import Clock, Command, Event
from poker import clocks, selectors, services
from poker.models import Hand, Seat, Table
from tests.poker.clock_support import timed_table, until

pytestmark = [pytest.mark.django_db(transaction=True)]


def sweep() -> int:
    """The drain of this app's clocks, now: how many acted."""
    return drain(kinds=clocks.KINDS)


PASSIVE = ("check", "call", "stand", "decline", "show")


def table_now(table: int) -> Table:
    return Table.objects.get(pk=table)


def turn(table: int, players: list[Any]) -> tuple[Any, dict[str, Any]]:
    """The player to act and the hand as he sees it."""
    for player in players:
        hand = selectors.table_view(table_now(table), player)["hand"]
        if hand and hand.get("legal") and hand["your_seat"] == hand["to_act"] is not None:
            return player, hand
    raise AssertionError("nobody is to act")


def act(table: int, players: list[Any], action: str, **more: Any) -> dict[str, Any]:
    player, hand = turn(table, players)
    return services.hand_act(
        by=player,
        table_id=table,
        hand=hand["id"],
        version=hand["version"],
        action=action,
        **more,
    )


def hand_events(hand: Hand) -> list[Event]:
    return list(Event.objects.filter(stream=hand.stream).order_by("version"))


def ended(hand: Hand) -> Hand | None:
    fresh = Hand.objects.get(pk=hand.pk)
    return fresh if fresh.ended_at is not None else None


def when(iso: str) -> datetime:
    return datetime.fromisoformat(iso)


# --------------------------------------------------------------------------
# Judged at each action (no worker needed)


def test_a_raise_is_accepted_in_the_bet_window_and_refused_after_it(make_user, staff):
    players = [make_user("ann"), make_user("bob")]
    table = timed_table(staff, players, bet_seconds=2, action_seconds=30)
    _, hand = turn(table, players)
    act(table, players, "raise", amount=hand["legal"]["min_raise_to"])  # at once: in the window
    time.sleep(2.1)
    _, hand = turn(table, players)
    before = Event.objects.count()
    with pytest.raises(ApiError) as refused:  # a full raise, but late (and no longer offered)
        act(table, players, "raise", amount=2 * hand["current_bet"])
    assert (refused.value.code, refused.value.status) == ("bet_window_closed", 409)
    assert Event.objects.count() == before  # nothing written
    act(table, players, "call")  # check, call or fold still go


def test_the_legal_actions_offer_a_bet_or_raise_only_while_the_bet_window_is_open(make_user, staff):
    players = [make_user("ann"), make_user("bob")]
    table = timed_table(staff, players, bet_seconds=1, action_seconds=30)
    _, hand = turn(table, players)
    assert "raise" in hand["legal"]["actions"] and "min_raise_to" in hand["legal"]
    time.sleep(1.1)
    _, hand = turn(table, players)
    assert hand["legal"]["actions"] == ["fold", "call"]  # what would still be accepted
    assert not {"min_raise_to", "max_raise_to"} & hand["legal"].keys()
    act(table, players, "call")
    _, hand = turn(table, players)  # the big blind's turn: a new clock, a new window
    assert "raise" in hand["legal"]["actions"]


def test_a_retry_after_the_bet_window_closed_gets_the_first_answer(make_user, staff):
    players = [make_user("ann"), make_user("bob")]
    table = timed_table(staff, players, bet_seconds=1, action_seconds=30)
    player, _ = turn(table, players)
    command_id = uuid.uuid4()

    def top_up() -> dict[str, Any]:  # his turn goes on: his answer shows his menu
        return services.seat_top_up(by=player, table_id=table, amount=1, command_id=command_id)

    first = top_up()
    assert "raise" in first["hand"]["legal"]["actions"]
    time.sleep(1.1)
    assert top_up() == first  # the menu as it was then, not as it is now
    assert "raise" not in turn(table, players)[1]["legal"]["actions"]


def test_acting_after_the_clock_draws_on_the_time_bank(make_user, staff):
    players = [make_user("ann"), make_user("bob")]
    table = timed_table(staff, players, action_seconds=1, bet_seconds=1, time_bank_seconds=20)
    player, _ = turn(table, players)
    seat = Seat.objects.get(table=table, player=player).number
    started = Hand.objects.get(table=table, number=1).turn_started_at
    time.sleep(2.05)  # the clock ran out over a second ago: the bank is running
    act(table, players, "call")
    used = Event.objects.filter(stream=f"table-{table}", type="table.time_bank_used").get()
    late = (used.recorded_at - started).total_seconds() - 1  # past the deadline
    assert late > 1
    assert used.data == {"seat": seat, "seconds": math.ceil(late)}  # a started second counts
    assert Seat.objects.get(table=table, number=seat).time_bank == 20 - math.ceil(late)


def test_the_deadlines_are_in_the_table_view(make_user, staff):
    players = [make_user("ann"), make_user("bob")]
    table = timed_table(staff, players, action_seconds=20, bet_seconds=5, time_bank_seconds=7)
    clock = selectors.table_view(table_now(table), None)["clock"]
    hand = Hand.objects.get(table=table, number=1)
    assert clock["kind"] == "action" and clock["seat"] == hand.to_act_seat
    started = when(clock["started"])
    assert started == hand.turn_started_at
    assert when(clock["bet_until"]) - started == timedelta(seconds=5)
    assert when(clock["deadline"]) - started == timedelta(seconds=20)
    assert when(clock["expires"]) - started == timedelta(seconds=27)


def test_the_table_view_shows_the_hand_as_of_the_table_row_read_with_it(make_user, staff):
    """A hand ended between reading the table and its hand must not show up
    as ended beside seats from before it (CI once saw a timed-out player's
    hand complete while he was not yet sitting out)."""
    players = [make_user("ann"), make_user("bob")]
    table = timed_table(staff, players, action_seconds=30)
    read = Table.objects.select_related("current_hand").get(pk=table)
    act(table, players, "fold")
    assert ended(Hand.objects.get(table=table, number=1)) is not None
    view = selectors.table_view(read, None)
    assert view["table"]["version"] == read.version
    assert view["hand"]["phase"] != "complete"
    assert view["clock"]["kind"] == "action"


def test_a_fold_out_of_turn_leaves_the_clock_of_the_player_to_act(make_user, staff):
    """A player who leaves folds his hand at once, out of turn: the player
    to act keeps his clock (in the view, the replayed frames and a rebuild
    of the hand row), and his own next turn starts a new one."""
    from kernel.eventstore import load_feed
    from poker.projections import rebuild
    from poker.publish import feed_clocks

    players = [make_user("ann"), make_user("bob"), make_user("cy")]
    table = timed_table(staff, players, action_seconds=30, bet_seconds=10)
    for _ in range(6):  # the first hands are dealt to two: the third waits for his blind
        if len(Hand.objects.get(pk=table_now(table).current_hand_id).seats) == 3:
            break
        act(table, players, "fold")
    number = table_now(table).hand_number
    actor, _ = turn(table, players)
    before = selectors.table_view(table_now(table), None)["clock"]
    leaver = next(p for p in players if p != actor)
    time.sleep(0.05)
    position = table_now(table).position
    answer = services.seat_leave(by=leaver, table_id=table)
    assert answer["clock"]["started"] == before["started"]  # the command's own view
    hand = Hand.objects.get(table=table, number=number)
    assert len(hand.seats) == 3 and hand.ended_at is None
    assert "hand.folded" in [e.type for e in hand_events(hand)]
    after = selectors.table_view(table_now(table), None)["clock"]
    assert (after["seat"], after["started"], after["expires"]) == (
        before["seat"], before["started"], before["expires"],
    )  # fmt: skip
    replayed = feed_clocks(table, load_feed(table, after=position))
    assert {c["started"] for c in replayed.values()} == {before["started"]}
    rebuild()
    assert Hand.objects.get(pk=hand.pk).turn_started_at == when(before["started"])
    time.sleep(0.05)
    act(table, players, "call")
    moved = selectors.table_view(table_now(table), None)["clock"]
    assert when(moved["started"]) > when(before["started"])


def test_a_timer_whose_hand_moved_on_is_dropped_without_the_table_lock(make_user, staff):
    """An action clock whose player acted in time (most of them) is found
    stale by one read of the hand's version, without locking the table."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    players = [make_user("ann"), make_user("bob")]
    table = timed_table(staff, players, action_seconds=30)
    hand = Hand.objects.get(table=table, number=1)
    old = hand.version
    act(table, players, "call")
    with CaptureQueriesContext(connection) as seen, pytest.raises(ClockMoved):
        clocks.clock_expire(table_id=table, stream=hand.stream, version=old)
    assert len(seen.captured_queries) == 1
    assert "FOR UPDATE" not in seen.captured_queries[0]["sql"].upper()
    current = Hand.objects.get(pk=hand.pk).version
    with CaptureQueriesContext(connection) as seen, pytest.raises(ClockEarly):
        clocks.clock_expire(table_id=table, stream=hand.stream, version=current)
    assert len(seen.captured_queries) > 1  # a hand at the timer's version: checked under the lock


def test_clocks_whose_timers_were_lost_are_fired_by_the_sweep(make_user, staff, settings):
    settings.CLOCKS_ENABLED = True  # timers go to the in-memory broker: nobody runs them
    players = [make_user("ann"), make_user("bob")]
    table = timed_table(staff, players, action_seconds=1, bet_seconds=1, pause_seconds=1)
    hand = Hand.objects.get(table=table, number=1)
    assert sweep() == 0  # nothing overdue yet
    time.sleep(1 + SWEEP_GRACE_SECONDS + 0.1)
    assert sweep() == 1
    (fold,) = [e for e in hand_events(hand) if e.type == "hand.folded"]
    assert fold.data["timed_out"] is True
    services.seat_sit_in(by=Seat.objects.get(table=table, sitting_out=True).player, table_id=table)
    assert table_now(table).hand_number == 1  # the pause after hand 1 is not over
    time.sleep(1 + SWEEP_GRACE_SECONDS + 0.1)
    assert sweep() == 1
    assert table_now(table).hand_number == 2


# --------------------------------------------------------------------------
# Timers on a real worker


@pytest.mark.redis
@pytest.mark.postgres
def test_an_idle_player_is_folded_when_his_clock_ends_and_sits_out(start_worker, make_user, staff):
    start_worker()
    players = [make_user("ann"), make_user("bob")]
    table = timed_table(staff, players, action_seconds=1, bet_seconds=1)
    hand = Hand.objects.get(table=table, number=1)
    idle = hand.to_act_seat
    done = until(lambda: ended(hand), 20, "the clock to fold the idle player")
    (fold,) = [e for e in hand_events(done) if e.type == "hand.folded"]
    assert fold.data["timed_out"] is True
    assert fold.recorded_at - hand.turn_started_at >= timedelta(seconds=1)
    assert Seat.objects.get(table=table, number=idle).sitting_out
    assert table_now(table).hand_number == 1  # one player ready: no next hand


@pytest.mark.redis
@pytest.mark.postgres
def test_a_player_stood_pat_by_the_draw_clock_cannot_bet(start_worker, make_user, staff):
    start_worker()
    players = [make_user("ann"), make_user("bob")]
    table = timed_table(staff, players, draw_seconds=1, action_seconds=30, bet_seconds=30)
    act(table, players, "call")
    act(table, players, "check")
    hand = Hand.objects.get(table=table, number=1)
    assert hand.phase == "draw"
    idle = hand.to_act_seat
    until(lambda: Hand.objects.get(pk=hand.pk).to_act_seat != idle, 20, "the draw clock")
    (stood,) = [e for e in hand_events(hand) if e.type == "hand.discarded"]
    assert stood.data["cards"] == [] and stood.data["timed_out"] is True
    act(table, players, "stand")  # the other player draws in time
    while Hand.objects.get(pk=hand.pk).to_act_seat != idle:
        act(table, players, "check")
    _, seen = turn(table, players)
    assert not {"bet", "raise"} & set(seen["legal"]["actions"])
    assert "check" in seen["legal"]["actions"]


@pytest.mark.redis
@pytest.mark.postgres
def test_a_clock_set_at_an_old_version_does_nothing(start_worker, make_user, staff):
    start_worker()
    players = [make_user("ann"), make_user("bob")]
    table = timed_table(staff, players, action_seconds=30)
    hand = Hand.objects.get(table=table, number=1)
    old = hand.version
    act(table, players, "call")
    now = Hand.objects.get(pk=hand.pk).version
    with transaction.atomic():  # the hand's clock moved back to the old version, due now
        kernel_clocks.clock_set(
            stream=hand.stream,
            kind=clocks.TURN,
            version=old,
            due=hand.turn_started_at,
            args={"table": table},
        )
    until(lambda: not Clock.objects.filter(stream=hand.stream).exists(), 20, "the drain")
    assert Hand.objects.get(pk=hand.pk).version == now
    assert not Command.objects.filter(id=clocks.timer_id(hand.stream, old)).exists()
    with pytest.raises(ClockMoved):
        clocks.clock_expire(table_id=table, stream=hand.stream, version=old)


@pytest.mark.redis
@pytest.mark.postgres
def test_the_next_hand_is_dealt_by_itself_after_the_pause(start_worker, make_user, staff):
    start_worker()
    players = [make_user("ann"), make_user("bob")]
    table = timed_table(staff, players, pause_seconds=1)
    act(table, players, "fold")
    first = Hand.objects.get(table=table, number=1)
    assert first.ended_at is not None and table_now(table).hand_number == 1
    clock = selectors.table_view(table_now(table), None)["clock"]
    assert clock["kind"] == "next_hand"
    assert when(clock["expires"]) == first.ended_at + timedelta(seconds=1)
    until(lambda: table_now(table).hand_number == 2, 20, "the next hand")
    second = Hand.objects.get(table=table, number=2)
    assert second.started_at - first.ended_at >= timedelta(seconds=1)


@pytest.mark.redis
@pytest.mark.postgres
def test_clocks_survive_a_worker_killed_before_they_came_due(start_worker, make_user, staff):
    first = start_worker()
    hands = []  # as they were when their clocks were set
    for n in range(3):
        players = [make_user(f"a{n}"), make_user(f"b{n}")]
        table = timed_table(staff, players, action_seconds=2, bet_seconds=1)
        hands.append(Hand.objects.get(table=table, number=1))
    first.kill()
    start_worker()
    for hand in hands:
        done = until(lambda h=hand: ended(h), 30, "a clock the dead worker left")
        folds = [e for e in hand_events(done) if e.type == "hand.folded"]
        assert [f.data["timed_out"] for f in folds] == [True]  # once
        fired = Command.objects.filter(id=clocks.timer_id(hand.stream, hand.version))
        assert fired.count() == 1


@pytest.mark.redis
@pytest.mark.postgres
def test_a_command_writes_its_clock_and_sends_nothing_to_the_broker(start_worker, make_user, staff):
    """The command's clock is a row at the hand's version; only the drain,
    sent by the worker's waker once the clock is due, is Celery work."""
    published: list[str] = []

    def seen(sender: str, **_: Any) -> None:
        published.append(sender)

    before_task_publish.connect(seen, weak=False)
    try:
        worker = start_worker()
        players = [make_user("ann"), make_user("bob")]
        table = timed_table(staff, players, action_seconds=1, bet_seconds=1)
        hand = Hand.objects.get(table=table, number=1)
        clock = Clock.objects.get(stream=hand.stream)
        assert (clock.kind, clock.version) == (clocks.TURN, hand.version)
        done = until(lambda: ended(hand), 20, "the clock to fold the idle player")
    finally:
        before_task_publish.disconnect(seen)
    assert published == []  # this process sent nothing: the worker's waker sent the drain
    assert "kernel.tasks.clock_drain" in worker.text()
    assert [e.data["timed_out"] for e in hand_events(done) if e.type == "hand.folded"] == [True]
    assert Command.objects.filter(id=clocks.timer_id(hand.stream, hand.version)).count() == 1


@pytest.mark.redis
def test_a_command_answers_with_the_broker_down_and_the_drain_fires_its_clock(
    make_user, staff, settings
):
    """A command does not reach the broker at all: its clock is a row, and
    fires whenever a drain runs."""
    settings.CLOCKS_ENABLED = True
    broker = app.conf.broker_url
    use_broker("redis://127.0.0.1:1/0")  # nothing listens there
    try:
        players = [make_user("ann"), make_user("bob")]
        table = timed_table(staff, players, action_seconds=1, bet_seconds=1)
    finally:
        use_broker(broker)
    hand = Hand.objects.get(table=table, number=1)
    assert hand.ended_at is None
    time.sleep(1 + SWEEP_GRACE_SECONDS + 0.1)
    assert sweep() == 1
    assert ended(hand) is not None
