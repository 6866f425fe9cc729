"""A command id names one command: the same command sent again gets its
first answer; another command under that id (another action, amount, kind
or table) is refused with 409 ``command_id_reused`` and changes nothing.
The id is stored with a digest of the command's kind, target and body;
rows stored before digests were kept are taken for the same command."""

from __future__ import annotations

import time
import uuid

import pytest

from kernel.eventstore import digest
from kernel.models import Command, Event
from poker import clocks
from poker.models import Hand
from tests.poker.api_support import action_body, command, ok, post, refused, unchanged
from tests.poker.clock_support import timed_table
from tests.poker.test_api_actions import actions_path, room  # noqa: F401 - the fixture


def test_the_same_action_sent_again_gets_its_first_answer(room):  # noqa: F811
    r = room()
    _, bob, view = r.to_act()
    body = action_body(view, "call")
    first = ok(post(bob, actions_path(r), body))
    with unchanged(r.table, bob):
        assert ok(post(bob, actions_path(r), body)) == first


def test_a_raise_then_a_fold_under_one_id_is_409_command_id_reused(room):  # noqa: F811
    r = room()
    _, bob, view = r.to_act()
    raised = action_body(view, "raise", amount=view["hand"]["legal"]["min_raise_to"])
    ok(post(bob, actions_path(r), raised))
    folded = action_body(view, "fold") | {"command_id": raised["command_id"]}
    with unchanged(r.table, bob):
        refused(post(bob, actions_path(r), folded), 409, "command_id_reused")


def test_another_amount_under_one_id_is_409_even_when_it_would_succeed(room):  # noqa: F811
    r = room(("ann",))
    cid = str(uuid.uuid4())
    first = ok(command(r.client("ann"), r.table, "top-up", amount=10, command_id=cid))
    with unchanged(r.table, r.client("ann")):
        assert ok(command(r.client("ann"), r.table, "top-up", amount=10, command_id=cid)) == first
        other = command(r.client("ann"), r.table, "top-up", amount=30, command_id=cid)
        refused(other, 409, "command_id_reused")


def test_another_kind_of_command_under_one_id_is_409(room):  # noqa: F811
    r = room(("ann",))
    cid = str(uuid.uuid4())
    ok(command(r.client("ann"), r.table, "top-up", amount=10, command_id=cid))
    with unchanged(r.table, r.client("ann")):
        refused(
            command(r.client("ann"), r.table, "sit-out", command_id=cid), 409, "command_id_reused"
        )


def test_the_same_command_at_another_table_is_409(room, open_table, make_user, client_for):  # noqa: F811
    r = room(("ann",))
    other = open_table(name="Other")["table"]["id"]
    cid = str(uuid.uuid4())
    ok(command(r.client("ann"), r.table, "sit-out", command_id=cid))
    ok(command(r.client("ann"), other, "sit", seat=1, buy_in=100))
    with unchanged(other, r.client("ann")):
        refused(
            command(r.client("ann"), other, "sit-out", command_id=cid), 409, "command_id_reused"
        )


def test_an_id_stored_without_a_digest_is_taken_for_the_same_command(room):  # noqa: F811
    r = room(("ann",))
    cid = str(uuid.uuid4())
    first = ok(command(r.client("ann"), r.table, "top-up", amount=10, command_id=cid))
    Command.objects.filter(pk=cid).update(digest=None)  # as stored before digests
    with unchanged(r.table, r.client("ann")):
        other = ok(command(r.client("ann"), r.table, "top-up", amount=30, command_id=cid))
    assert other == first


@pytest.mark.parametrize("with_digest", [True, False])
def test_a_tournament_command_id_sent_to_a_table_is_409_not_a_500(room, with_digest):  # noqa: F811
    r = room(("ann",))
    cid = uuid.uuid4()
    Command.objects.create(
        id=cid,
        stream="tournament-1",
        answer={"tournament": 1, "version": 3},
        digest=digest("tournament.register", 1, {"ticket": None}) if with_digest else None,
        by=r.users["ann"],
    )
    with unchanged(r.table, r.client("ann")):
        response = command(r.client("ann"), r.table, "top-up", amount=10, command_id=str(cid))
        refused(response, 409, "command_id_reused")


def test_the_digest_reads_the_body_as_canonical_json():
    one = digest("seat.sit", 7, {"seat": 1, "buy_in": 100, "wait_for_big_blind": False})
    same = digest("seat.sit", 7, {"wait_for_big_blind": False, "buy_in": 100, "seat": 1})
    assert one == same and len(one) == 64
    assert digest("seat.sit", 8, {"seat": 1, "buy_in": 100, "wait_for_big_blind": False}) != one
    assert digest("seat.top_up", 7, {}) != digest("seat.sit_out", 7, {})


def test_a_timer_that_fires_twice_is_the_same_command(make_user, staff):
    players = [make_user("ann"), make_user("bob")]
    table = timed_table(staff, players, action_seconds=1, bet_seconds=1)
    hand = Hand.objects.get(table=table, number=1)
    time.sleep(1.1)
    first = clocks.clock_expire(table_id=table, stream=hand.stream, version=hand.version)
    events = Event.objects.count()
    again = clocks.clock_expire(table_id=table, stream=hand.stream, version=hand.version)
    assert again["table"]["id"] == first["table"] and Event.objects.count() == events
