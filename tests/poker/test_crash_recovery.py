"""A process that dies loses nothing and leaves nothing half done.

The hands are played by separate Python processes (``crash_driver.py``)
through ``poker.services`` on a database they share: a SQLite file, and a
PostgreSQL database of its own when the server answers, each set up with
``manage.py migrate``.  The test kills a player process with SIGKILL,
between two commands or inside one, then goes on in a fresh process.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.db import OperationalError

from kernel.api_errors import ApiError
from kernel.folds import Folds
from poker import projections, services, streams
from poker.engine.evolve import evolve
from poker.engine.table import evolve_table
from poker.models import Hand
from tests.funds import fund
from tests.poker.processes import BACKENDS, Child, SharedDatabase, children, shared_database


@pytest.fixture(scope="module", params=BACKENDS)
def shared(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[SharedDatabase]:
    yield from shared_database(request.param, tmp_path_factory, "crash")


@pytest.fixture
def start(shared: SharedDatabase) -> Iterator[Callable[[], Child]]:
    """Start player processes on the shared database (all gone at the end)."""
    yield from children(shared)


def move(play: dict[str, Any]) -> dict[str, Any]:
    """A legal move for the player to act: throw two cards if he may draw,
    else call or check (the hand goes on)."""
    seat = play["to_act_seat"]
    legal = play["legal"]
    if "discard" in legal["actions"] and legal["max_discard"] >= 2:
        return {"seat": seat, "action": "discard", "cards": play["cards"][str(seat)][:2]}
    for action in ("call", "check", "stand", "decline", "show"):
        if action in legal["actions"]:
            return {"seat": seat, "action": action}
    raise AssertionError(f"no move in {legal}")


def by_stream(picture: dict[str, Any]) -> dict[str, list[Any]]:
    out: dict[str, list[Any]] = {}
    for event in picture["events"]:
        out.setdefault(event[0], []).append(event)
    return out


def assert_chips_conserved(picture: dict[str, Any]) -> None:
    chips = picture["chips"]
    assert chips["seated"] == chips["brought"] - chips["taken"], chips


def assert_log_grew_from(before: dict[str, Any], after: dict[str, Any]) -> None:
    """Every stream of ``before`` is a prefix of the same stream ``after``,
    and every stream runs 1..n."""
    old, new = by_stream(before), by_stream(after)
    for stream, events in old.items():
        assert new[stream][: len(events)] == events, stream
    for stream, events in new.items():
        assert [e[1] for e in events] == list(range(1, len(events) + 1)), stream


def test_a_process_killed_between_two_actions_loses_nothing(shared, start):
    """A player process plays on to a three-handed hand, four moves into it, then is
    killed while it waits for its next command.  A fresh process finds the
    hand exactly where it was - version, player to act, every player's cards,
    stacks, log and read models - and plays it on to the end; chips are
    conserved and the read models are a replay of the log."""
    first = start()
    table = first.call("setup", prefix="between", players=["ann", "bob", "cy"], buy_in=100)
    table = table["table"]
    seen = first.call("look", table=table)
    while len(seen["play"]["cards"]) < 3:  # play on to the first three-handed hand
        assert seen["table"]["hand_number"] < 4
        seen = first.call("finish", table=table, hand=seen["play"]["hand"])
    for _ in range(4):
        first.call("act", table=table, **move(seen["play"]))
        seen = first.call("look", table=table)

    first.kill()  # it is blocked reading its next command

    second = start()
    found = second.call("look", table=table)
    play = seen["play"]
    assert found["play"]["hand"] == play["hand"]
    assert found["play"]["version"] == play["version"]
    assert found["play"]["to_act_seat"] == play["to_act_seat"]
    assert found["play"]["cards"] == play["cards"]
    assert found == seen

    end = second.call("finish", table=table, hand=play["hand"])
    hand = by_stream(end)[f"hand-{play['hand']}"]
    seats = next(h["seats"] for h in end["hands"] if h["id"] == play["hand"])
    next_event = hand[play["version"]]  # the first one after the kill
    assert next_event[1] == play["version"] + 1
    assert next_event[3]["player"] == seats.index(play["to_act_seat"])
    assert hand[-1][2] == "hand.ended"
    assert_log_grew_from(seen, end)
    assert_chips_conserved(seen)
    assert_chips_conserved(end)
    assert second.call("rebuilt", table=table)
    second.close()


def test_a_process_killed_inside_a_command_leaves_nothing_half_applied(shared, start):
    """A player process is killed inside a command's transaction - a fold
    that ends hand 2, settles it on the table and deals hand 3 - with the
    table locked, the events of all three streams appended and the read
    models written, not committed.  Meanwhile another session sees the table
    as before and cannot write it; after the kill a fresh process finds
    table and hand versions, events, commands and read models exactly as
    before that command, and the same command then succeeds."""
    first = start()
    table = first.call("setup", prefix="inside", players=["dee", "eve"], buy_in=100)
    table = table["table"]
    hand_one = first.call("look", table=table)["play"]["hand"]
    before = first.call("finish", table=table, hand=hand_one)
    play = before["play"]
    assert "fold" in play["legal"]["actions"]  # the small blind, facing the big one
    fold = {"seat": play["to_act_seat"], "action": "fold"}

    first.send("hang", table=table, **fold)
    inside = first.receive()["inside"]
    appended = {stream for stream, _ in inside["appended"]}
    assert appended == {f"table-{table}", f"hand-{table}-2", f"hand-{table}-3"}
    assert shared.writer_shut_out(table)
    assert shared.peek("SELECT version, hand_number FROM poker_table WHERE id = %s", table) == [
        (before["table"]["version"], 2)
    ]
    hands = shared.peek("SELECT id, version FROM poker_hand WHERE table_id = %s", table)
    assert sorted(hands) == [(h["id"], h["version"]) for h in before["hands"]]
    assert len(hands) == 2
    logged = shared.peek(
        "SELECT count(*) FROM poker_event WHERE stream = %s OR stream LIKE %s",
        f"table-{table}",
        f"hand-{table}-%",
    )
    assert logged == [(len(before["events"]),)]

    first.kill()

    second = start()
    assert second.call("look", table=table) == before
    redone = second.call("act", table=table, version=play["version"], **fold)
    folded = [v for stream, v in inside["appended"] if stream == f"hand-{table}-2"]
    assert redone["version"] == play["version"] + len(folded)
    after = second.call("look", table=table)
    assert after["table"]["hand_number"] == 3
    assert_log_grew_from(before, after)
    assert_chips_conserved(after)
    assert second.call("rebuilt", table=table)
    second.close()


# --------------------------------------------------------------------------
# A command that fails late, in one process


@pytest.mark.django_db(transaction=True)  # commits as in production: on_commit runs
def test_a_command_that_fails_after_its_writes_leaves_no_fold_behind(monkeypatch):
    """A command rolls back after its read models were written (its commit
    fails).  Another process (its own fold cache) then plays a different
    action at that version.  This process must fold the hand as the log
    says: the big blind may not check a raise he never saw.  (Before
    5f4b98a the failed command's fold stayed cached as that version, the
    check was accepted and appended after the raise.)"""
    model = get_user_model()
    boss = model.objects.create(username="boss", is_staff=True)
    users = {n: fund(model.objects.create(username=n)) for n in ("ann", "bob")}
    table = services.table_create(
        by=boss, name="late", game="32-card-draw", betting="no-limit", small_blind=1, big_blind=2
    )
    services.seat_sit(by=users["ann"], table_id=table.pk, seat=1, buy_in=100)
    hand = services.seat_sit(by=users["bob"], table_id=table.pk, seat=2, buy_in=100)["hand"]
    small = users["ann"] if hand["to_act_seat"] == 1 else users["bob"]
    big = users["bob"] if small is users["ann"] else users["ann"]
    at = {"table_id": table.pk, "hand": hand["id"]}
    version = hand["version"]

    write = projections.write

    def write_then_fail(work: Any, recorded: Any, *appending: Any) -> None:
        write(work, recorded, *appending)
        raise OperationalError("server closed the connection unexpectedly")

    monkeypatch.setattr(projections, "write", write_then_fail)
    with pytest.raises(OperationalError):
        services.hand_act(by=small, version=version, action="call", **at)
    monkeypatch.setattr(projections, "write", write)
    assert Hand.objects.get(pk=hand["id"]).version == version  # rolled back

    ours = streams.hands, streams.tables
    monkeypatch.setattr(streams, "hands", Folds(streams.decode_hand, evolve))
    monkeypatch.setattr(streams, "tables", Folds(streams.decode_table, evolve_table))
    services.hand_act(by=small, version=version, action="raise", amount=6, **at)
    monkeypatch.setattr(streams, "hands", ours[0])
    monkeypatch.setattr(streams, "tables", ours[1])

    with pytest.raises(ApiError) as refused:
        services.hand_act(by=big, version=version + 1, action="check", **at)
    assert refused.value.code == "illegal_action"
    from_log = Folds(streams.decode_hand, evolve).state(f"hand-{hand['id']}", version + 1)
    assert streams.hands.state(f"hand-{hand['id']}", version + 1) == from_log
