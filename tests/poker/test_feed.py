"""A table's feed: one order over its own stream and its hands' streams."""

from __future__ import annotations

import random

from kernel.eventstore import load_feed
from kernel.models import Event
from poker.models import Table
from tests.poker.api_support import random_action
from tests.poker.test_session import act, command


def test_every_event_of_a_table_has_the_next_feed_position(open_table, make_user, client_for):
    rng = random.Random(5)
    tid = open_table()["table"]["id"]
    users = [make_user(n) for n in ("ann", "bob", "cy")]
    clients = {u.pk: client_for(u) for u in users}
    for seat, user in enumerate(users, start=1):
        command(clients[user.pk], f"/api/tables/{tid}/sit/", seat=seat, buy_in=100)
    for _ in range(60):
        view = client_for(None).get(f"/api/tables/{tid}/").json()
        owner = next(s["player"] for s in view["seats"] if s["seat"] == view["hand"]["to_act_seat"])
        mine = clients[owner].get(f"/api/tables/{tid}/").json()
        assert act(clients[owner], tid, mine, **random_action(rng, mine["hand"])).status_code == 200

    fed = load_feed(tid, limit=10_000)
    mine_all = Event.objects.filter(stream__in=[f"table-{tid}"]) | Event.objects.filter(
        stream__startswith=f"hand-{tid}-"
    )
    assert [e.position for e in fed] == list(range(1, mine_all.count() + 1))
    assert Table.objects.get(pk=tid).position == len(fed)
    # Each stream's versions rise along the feed: one order for all of them.
    last: dict[str, int] = {}
    for event in fed:
        assert event.version == last.get(event.stream, 0) + 1
        last[event.stream] = event.version
    assert len(last) > 3  # the table and several hands


def test_the_feed_after_a_position_is_what_a_client_missed(open_table, make_user, client_for):
    tid = open_table()["table"]["id"]
    ann, bob = make_user("ann"), make_user("bob")
    command(client_for(ann), f"/api/tables/{tid}/sit/", seat=1, buy_in=100)
    seen = Table.objects.get(pk=tid).position
    command(client_for(bob), f"/api/tables/{tid}/sit/", seat=2, buy_in=100)
    missed = load_feed(tid, after=seen)
    assert missed[0].type == "table.player_seated" and missed[0].data["player"] == str(bob.pk)
    assert {e.stream for e in missed} == {f"table-{tid}", f"hand-{tid}-1"}
    assert missed[-1].position == Table.objects.get(pk=tid).position
