"""Live tables over WebSockets: frames by feed position, hidden cards only
to their owner, catch-up from the event store after a reconnect (also when
the channel layer lost frames), acting over the socket by the REST rules,
and publication only after the commit."""

from __future__ import annotations

import asyncio
import random
import threading
import uuid
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from django.db import connection, transaction
from rest_framework.test import APIClient

from kernel import feed
from kernel.api_errors import ApiError
from poker import projections, publish, services, work
from tests.poker.api_support import random_action, seed_decks
from tests.poker.ws_support import (
    Client,
    Store,
    act_frame,
    actor,
    keep_stacks,
    leaks,
    make_users,
    me_client,
    open_table,
    play,
    position_of_table,
    quiet_all,
    seat_all,
    table_client,
    view_of,
    written,
)

pytestmark = pytest.mark.django_db(transaction=True)


def check_feed_order(client: Client, start: int, end: int) -> None:
    """The public frames cover ``start+1 .. end`` once each, in order, and
    each private frame comes right after the public frame of its event."""
    assert client.public_positions() == list(range(start + 1, end + 1)), client.path
    previous: dict[str, Any] | None = None
    for frame in client.feed():
        if frame["type"] == "private":
            assert previous is not None and previous["type"] == "event", frame
            assert previous["position"] == frame["position"], (previous, frame)
            assert (previous["stream"], previous["version"]) == (
                frame["stream"],
                frame["version"],
            )
        previous = frame


def check_against_store(store: Store, client: Client) -> None:
    """Every frame names a stored event (position, stream and version), and
    the private frames are exactly those of the viewer's own hidden cards."""
    snapshot = client.of("snapshot")[0]["position"]
    for frame in client.feed():
        row = store.at[frame["position"]]
        assert (row["stream"], row["version"]) == (frame["stream"], frame["version"]), frame
        assert frame["event"]["type"] == row["type"]
    private = [f["position"] for f in client.of("private")]
    assert private == [p for p in store.owners(client.viewer) if p > snapshot]


# --------------------------------------------------------------------------
# The big scan


async def test_many_hands_played_over_sockets_nobody_gets_a_card_he_may_not_see(monkeypatch):
    seed_decks(monkeypatch, 2024)
    rng = random.Random(2024)
    tid = await open_table()
    users = await make_users("ann", "bob", "cy", "dee")
    players = {u.pk: await table_client(tid, u) for u in users}
    mine = {u.pk: await me_client(u) for u in users}
    spectators = [await table_client(tid), await table_client(tid)]
    tables = [*players.values(), *spectators]
    await seat_all(tid, users)

    acts = 0
    while True:
        turn = await actor(tid, users)
        if turn is None:
            await keep_stacks(tid, users)
            continue
        user, view = turn
        hand = view["hand"]
        if hand["number"] > 32:
            break
        client = players[user.pk]
        # The menu from this player's last answer when it is still current,
        # else from his view (what GET /api/tables/<id>/ answers).
        answers = client.of("answer")
        last = answers[-1]["answer"]["hand"] if answers else None
        if last and (last["id"], last["version"]) == (hand["id"], hand["version"]):
            hand = last
        if acts % 7 == 3:
            # Someone acts on what he saw a moment ago: refused, with the
            # table as he may see it now (scanned like every other frame).
            late = players[rng.choice(users).pk]
            old = act_frame({**hand, "version": hand["version"] - 1}, action="check")
            refused = await late.request(old)
            assert refused["code"] == "stale_version", refused
            assert refused["current"]["hand"]["version"] == hand["version"]
        reply = await client.request(act_frame(hand, **random_action(rng, hand)))
        assert reply["type"] == "answer", reply
        acts += 1
        if acts % 5 == 0:
            await keep_stacks(tid, users)
        for other in (*tables, *mine.values()):
            await other.pump()

    end = await position_of_table(tid)
    for client in tables:
        await client.until_position(end)
    for user in users:  # his own stream caught up with his private frames
        await mine[user.pk].has(players[user.pk].of("private")[-1])
    await quiet_all((*tables, *mine.values()))
    store = await database_sync_to_async(Store)(tid)
    assert store.last == end and acts > 200

    for client in (*tables, *mine.values()):
        assert leaks(store, client) == [], client.path
    for client in tables:
        start = client.frames[0]["position"]
        check_feed_order(client, start, end)
        check_against_store(store, client)
        assert client.feed() == await replayed(monkeypatch, tid, start, client.viewer)
    assert sum(len(p.of("error")) for p in players.values()) > 20
    for spectator in spectators:
        assert not spectator.of("private", "answer", "error")
        assert spectator.feed() == spectators[0].feed()
    for user in users:
        # The own stream: exactly the private frames of the table stream,
        # beside the seat frames of what happened to his seat and his wallet.
        own = [f for f in mine[user.pk].frames if f["type"] not in ("seat", "wallet")]
        assert own == players[user.pk].of("private")
        assert mine[user.pk].frames
    # Every hidden-card event reached its owner, and the showdowns were seen.
    assert {r["type"] for r in store.rows} >= {"hand.cards_dealt", "hand.cards_drawn", "hand.shown"}
    for client in (*tables, *mine.values()):
        await client.close()


async def replayed(monkeypatch, table: int, after: int, viewer: int | None) -> list[Any]:
    monkeypatch.setattr(feed, "REPLAY_LIMIT", 100_000)
    return await database_sync_to_async(publish.replay)(table, after, viewer)


# --------------------------------------------------------------------------
# Catching up from the store


async def settle(table: int, *clients: Client) -> int:
    """Wait until every table client got the last stored position; it."""
    end = await position_of_table(table)
    for client in clients:
        await client.until_position(end)
        await client.quiet(0.05)
    return end


async def test_a_reconnect_after_the_last_position_gets_exactly_the_missed_frames(monkeypatch):
    seed_decks(monkeypatch, 3)
    rng = random.Random(3)
    tid = await open_table()
    users = await make_users("ann", "bob", "cy")
    await seat_all(tid, users)
    ann = users[0]
    stayed = [await table_client(tid, ann), await table_client(tid)]
    leaving = [await table_client(tid, ann), await table_client(tid)]
    await play(tid, users, rng, 12)
    await settle(tid, *stayed, *leaving)
    lasts = [c.public_positions()[-1] for c in leaving]
    for client in leaving:
        await client.close()
    await play(tid, users, rng, 25)
    end = await settle(tid, *stayed)
    assert end > lasts[0] + 20

    for k, (stay, left) in enumerate(zip(stayed, leaving, strict=True)):
        end = await settle(tid, stay)
        back = await table_client(tid, left.user, after=lasts[k], snapshot=False)
        await back.until_position(end)
        await back.quiet()
        missed = [f for f in stay.feed() if f["position"] > lasts[k]]
        assert back.frames == missed  # no snapshot, nothing twice, nothing left out
        if left.user is not None:
            assert back.of("private")  # his hidden cards came back too
        # Then it is live again, from the next position on.
        await play(tid, users, rng, 4)
        later = await settle(tid, back)
        check_feed_order(back, lasts[k], later)
        await back.close()
    for client in stayed:
        await client.close()


async def test_a_reconnect_at_the_current_position_gets_nothing_until_the_next_event():
    rng = random.Random(4)
    tid = await open_table()
    users = await make_users("ann", "bob")
    await seat_all(tid, users)
    now = await position_of_table(tid)
    client = await table_client(tid, users[1], after=now, snapshot=False)
    await client.quiet()
    assert client.frames == []
    await play(tid, users, rng, 1)
    end = await settle(tid, client)
    check_feed_order(client, now, end)
    await client.close()


async def test_a_client_too_far_behind_gets_a_snapshot_at_the_current_position_then_later_frames(
    monkeypatch,
):
    monkeypatch.setattr(feed, "REPLAY_LIMIT", 8)
    rng = random.Random(5)
    tid = await open_table()
    users = await make_users("ann", "bob", "cy")
    await seat_all(tid, users)
    seen = await position_of_table(tid)
    for user in (users[0], None):
        await play(tid, users, rng, 15)
        now = await position_of_table(tid)
        assert now - seen > 8
        client = await table_client(tid, user, after=seen, snapshot=False)
        await client.next()
        await client.quiet()
        [snapshot] = client.frames  # nothing but the snapshot: it is the present
        assert snapshot["type"] == "snapshot" and snapshot["position"] == now
        assert snapshot["view"] == await view_of(tid, user)
        await play(tid, users, rng, 3)
        later = await settle(tid, client)
        check_feed_order(client, now, later)
        await client.close()


def first_hole(client: Client) -> int:
    """The last position before the first frame the client can tell it
    missed: a gap in the public positions, or a public frame of his own
    hidden cards without its private frame (he knows his seat in the hand
    from the public HandStarted)."""
    expected = client.frames[0]["position"] + 1
    me = client.viewer
    seats: dict[str, int | None] = {}
    feed = client.feed()
    for k, frame in enumerate(feed):
        if frame["type"] == "private":
            continue
        if frame["position"] != expected:
            return expected - 1
        event = frame["event"]
        if event["type"] == "hand.started":
            seated = {p["player"]: p["seat"] for p in event["players"]}
            seats[frame["stream"]] = seated.get(me)
        seat = seats.get(frame["stream"])
        owned = seat is not None and (
            event["type"] == "hand.cards_dealt"
            or (
                event["type"] in ("hand.discarded", "hand.cards_drawn")
                and event["seat"] == seat
                and event["count"]
            )
        )
        following = feed[k + 1] if k + 1 < len(feed) else None
        if owned and (following is None or following["type"] != "private"):
            return expected - 1
        expected += 1
    return expected - 1


async def test_frames_the_channel_layer_lost_are_recovered_from_the_store(monkeypatch):
    seed_decks(monkeypatch, 6)
    rng = random.Random(6)
    tid = await open_table()
    users = await make_users("ann", "bob", "cy")
    watchers = [await table_client(tid, users[0]), await table_client(tid)]
    layer = get_channel_layer()
    send = layer.group_send
    dropped: list[Any] = []

    async def lossy(group: str, message: dict[str, Any]) -> None:
        if rng.random() < 0.2:
            dropped.append(message)
        else:
            await send(group, message)

    monkeypatch.setattr(layer, "group_send", lossy)
    await seat_all(tid, users)
    await play(tid, users, rng, 40)
    monkeypatch.setattr(layer, "group_send", send)
    end = await position_of_table(tid)
    for client in watchers:
        await client.quiet()
    # Among the lost messages were some with hidden cards (a deal, a draw).
    lost = [m["frame"] for m in dropped if m["frame"]["type"] == feed.FEED]
    assert any(cut["private"] for message in lost for cut in message["cuts"])

    for client in watchers:
        start = client.frames[0]["position"]
        whole = await replayed(monkeypatch, tid, start, client.viewer)
        # The layer lost frames, but each later frame made the consumer fetch
        # what it skipped from the store: only a loss at the very end can stay.
        assert whole[: len(client.feed())] == client.feed()
        kept = first_hole(client)
        back = await table_client(tid, client.user, after=kept, snapshot=False)
        if kept < end:
            await back.until_position(end)
        await back.quiet()
        recovered = [f for f in client.feed() if f["position"] <= kept] + back.frames
        assert recovered == whole
        assert [f["position"] for f in recovered if f["type"] == "event"] == list(
            range(start + 1, end + 1)
        )
        await back.close()
        await client.close()


# --------------------------------------------------------------------------
# Acting over the socket: the service of POST /api/tables/<id>/actions/


async def heads_up(seed: int = 7) -> tuple[int, list[Any], dict[int, Client], Client]:
    """A table with ann and bob in a hand, their table sockets and a spectator's."""
    tid = await open_table()
    users = await make_users("ann", "bob", "cy")
    await seat_all(tid, users[:2])
    sockets = {u.pk: await table_client(tid, u) for u in users}
    spectator = await table_client(tid)
    return tid, users, sockets, spectator


async def rest_post(user: Any, path: str, body: dict[str, Any]) -> Any:
    def post() -> Any:
        client = APIClient()
        if user is not None:
            client.force_authenticate(user)
        return client.post(path, body, format="json")

    return await database_sync_to_async(post)()


async def test_an_act_over_the_socket_is_answered_with_the_players_view_and_published():
    tid, users, sockets, spectator = await heads_up()
    user, view = await actor(tid, users)
    hand = view["hand"]
    reply = await sockets[user.pk].request(act_frame(hand, action="call"))
    assert reply["type"] == "answer"
    assert reply["answer"] == await view_of(tid, user)
    assert reply["answer"]["hand"]["version"] > hand["version"]
    end = await settle(tid, spectator)
    called = [f for f in spectator.of("event") if f["event"]["type"] == "hand.called"]
    assert called and called[-1]["event"]["seat"] == hand["to_act"]
    assert spectator.frames[-1]["position"] == end


async def test_a_stale_version_over_the_socket_is_refused_with_the_current_state():
    tid, users, sockets, spectator = await heads_up()
    user, view = await actor(tid, users)
    await sockets[user.pk].request(act_frame(view["hand"], action="call"))
    await settle(tid, spectator)
    user, now = await actor(tid, users)
    before = await written()
    reply = await sockets[user.pk].request(act_frame(view["hand"], action="check"))
    assert reply["type"] == "error" and reply["code"] == "stale_version", reply
    assert reply["current"] == now and reply["message"]
    assert await written() == before
    store = await database_sync_to_async(Store)(tid)
    assert leaks(store, sockets[user.pk]) == []
    await spectator.until_position(await position_of_table(tid))
    await spectator.quiet()
    assert spectator.frames[-1]["position"] == await position_of_table(tid)


async def test_a_repeated_command_id_gets_the_first_answer_and_writes_nothing():
    tid, users, sockets, spectator = await heads_up()
    user, view = await actor(tid, users)
    frame = act_frame(view["hand"], action="call")
    first = await sockets[user.pk].request(frame)
    assert first["type"] == "answer"
    await settle(tid, spectator)
    before, seen = await written(), len(spectator.frames)
    again = await sockets[user.pk].request(frame)
    assert again == first
    # The same command over REST is the same command too.
    body = {k: v for k, v in frame.items() if k != "type"}
    response = await rest_post(user, f"/api/tables/{tid}/actions/", body)
    assert response.status_code == 200 and response.json() == first["answer"]
    assert await written() == before
    await spectator.quiet()
    assert len(spectator.frames) == seen


async def test_refusals_over_the_socket_have_the_rest_codes_and_change_nothing():
    tid, users, sockets, spectator = await heads_up()
    caller, view = await actor(tid, users)
    called = await sockets[caller.pk].request(act_frame(view["hand"], action="call"))
    assert called["type"] == "answer"
    await settle(tid, spectator)
    user, view = await actor(tid, users)
    assert user != caller
    hand = view["hand"]
    stranger = users[2]
    cases: list[tuple[str, Any, dict[str, Any]]] = [
        ("out_of_turn", caller, act_frame(hand, action="check")),
        ("bad_amount", user, act_frame(hand, action="raise", amount=10**6)),
        ("illegal_action", user, act_frame(hand, action="discard", cards=[])),
        ("not_seated", stranger, act_frame(hand, action="check")),
        ("not_found", user, {**act_frame(hand, action="check"), "hand": f"{tid}-99"}),
        ("malformed", user, act_frame(hand, action="check", amount=4)),
        ("invalid", user, act_frame(hand, action="check", cards=["Zz"])),  # not a card: the pattern
        ("invalid", user, act_frame(hand, action="dance")),
        ("invalid", user, {**act_frame(hand, action="check"), "version": -1}),
        ("invalid", user, {**act_frame(hand, action="check"), "version": "3"}),
        ("invalid", user, {**act_frame(hand, action="check"), "command_id": "x"}),
        (
            "command_id_taken",
            user,
            {**act_frame(hand, action="check"), "command_id": called["command_id"]},
        ),
    ]
    before = await written()
    for code, who, frame in cases:
        reply = await sockets[who.pk].request(frame)
        assert reply["type"] == "error" and reply["code"] == code, (code, reply)
        assert reply["message"] and reply["command_id"] == frame["command_id"]
        body = {k: v for k, v in frame.items() if k != "type"}
        response = await rest_post(who, f"/api/tables/{tid}/actions/", body)
        assert response.json()["code"] == code, (code, response.json())
        assert await written() == before
    await spectator.until_position(await position_of_table(tid))
    await spectator.quiet()
    assert spectator.frames[-1]["position"] == await position_of_table(tid)
    store = await database_sync_to_async(Store)(tid)
    for socket in sockets.values():
        assert (await socket.ping())["type"] == "pong"
        assert leaks(store, socket) == []


async def test_an_anonymous_client_may_watch_but_not_act():
    tid, users, sockets, spectator = await heads_up()
    user, view = await actor(tid, users)
    before = await written()
    reply = await spectator.request(act_frame(view["hand"], action="call"))
    assert reply["type"] == "error" and reply["code"] == "not_authenticated", reply
    assert await written() == before
    response = await rest_post(None, f"/api/tables/{tid}/actions/", act_frame(view["hand"]))
    assert response.json()["code"] == "not_authenticated"
    # Still watching: the next action reaches it.
    await sockets[user.pk].request(act_frame(view["hand"], action="call"))
    await settle(tid, spectator)


# --------------------------------------------------------------------------
# Publication only after the commit


async def test_a_refused_command_publishes_nothing():
    tid, users, _, spectator = await heads_up()
    _, view = await actor(tid, users)
    await spectator.until_position(await position_of_table(tid))
    await spectator.quiet()
    seen = len(spectator.frames)
    with pytest.raises(ApiError) as refused:
        await database_sync_to_async(services.hand_act)(
            by=users[2],
            table_id=tid,
            hand=view["hand"]["id"],
            version=view["hand"]["version"],
            action="check",
            command_id=uuid.uuid4(),
        )
    assert refused.value.code == "not_seated"
    await spectator.quiet()
    assert len(spectator.frames) == seen


async def test_events_appended_then_rolled_back_are_never_published(monkeypatch):
    tid, users, sockets, spectator = await heads_up()
    user, view = await actor(tid, users)
    await spectator.until_position(await position_of_table(tid))
    await spectator.quiet()
    before, seen = await written(), len(spectator.frames)
    write = projections.write

    def broken(*args: Any, **kwargs: Any) -> None:
        write(*args, **kwargs)  # the events are appended and projected, then:
        raise RuntimeError("the database went away")

    monkeypatch.setattr(projections, "write", broken)
    # The locked path: on the one-statement path the statement is the
    # commit, so nothing runs between the append and its commit to fail.
    work.CURRENT.forget()
    body = {"hand": view["hand"]["id"], "version": view["hand"]["version"], "action": "call"}
    with pytest.raises(RuntimeError):
        await database_sync_to_async(services.hand_act)(
            by=user, table_id=tid, command_id=uuid.uuid4(), **body
        )

    class Rollback(Exception):
        pass

    def inside_an_outer_transaction() -> None:
        with transaction.atomic():
            services.hand_act(by=user, table_id=tid, command_id=uuid.uuid4(), **body)
            raise Rollback

    monkeypatch.setattr(projections, "write", write)
    with pytest.raises(Rollback):
        await database_sync_to_async(inside_an_outer_transaction)()
    await spectator.quiet()
    assert len(spectator.frames) == seen and await written() == before
    # The same action, committed, is published at the positions it took.
    await sockets[user.pk].request({"type": "act", **body, "command_id": str(uuid.uuid4())})
    end = await settle(tid, spectator)
    check_feed_order(spectator, spectator.frames[0]["position"], end)


async def test_every_frame_is_sent_after_its_event_is_visible_to_other_connections(monkeypatch):
    import asyncio

    from django.db import connections

    from kernel.models import Event

    rng = random.Random(8)
    tid = await open_table()
    users = await make_users("ann", "bob", "cy")
    spectator = await table_client(tid)
    layer = get_channel_layer()
    send = layer.group_send
    unseen: list[int] = []
    checked: list[int] = []

    def stored(position: int) -> bool:
        try:
            return Event.objects.filter(feed=tid, position=position).exists()
        finally:
            connections.close_all()

    async def checking(group: str, message: dict[str, Any]) -> None:
        frame = message["frame"]
        if frame["type"] == feed.FEED:
            positions = [cut["public"]["position"] for cut in frame["cuts"]]
        else:
            positions = [frame["position"]] if "position" in frame else []
        for position in positions:
            checked.append(position)
            if not await asyncio.to_thread(stored, position):
                unseen.append(position)
        await send(group, message)

    monkeypatch.setattr(layer, "group_send", checking)
    await seat_all(tid, users)
    await play(tid, users, rng, 10)
    await settle(tid, spectator)
    assert len(checked) > 20 and unseen == []
    await spectator.close()


# --------------------------------------------------------------------------
# Bugs


async def test_a_snapshot_shows_the_table_as_of_its_position(monkeypatch):
    from poker import selectors

    tid = await open_table()
    users = await make_users("ann", "bob")
    await seat_all(tid, users)
    user, view = await actor(tid, users)
    hand = view["hand"]
    table_view = selectors.table_view

    def call() -> None:
        try:
            services.hand_act(
                by=user,
                table_id=tid,
                hand=hand["id"],
                version=hand["version"],
                action="call",
                command_id=uuid.uuid4(),
            )
        finally:
            connection.close()  # this thread's own

    other = threading.Thread(target=call)

    def with_a_command_in_between(row: Any, viewer: Any) -> Any:
        # Another player's command, on a connection of its own, commits after
        # the row was read (on SQLite it waits for the snapshot's write lock).
        other.start()
        if connection.vendor == "postgresql":
            other.join()
        monkeypatch.setattr(selectors, "table_view", table_view)
        return table_view(row, viewer)

    monkeypatch.setattr(selectors, "table_view", with_a_command_in_between)
    client = await table_client(tid, snapshot=False)
    await client.next()
    await asyncio.to_thread(other.join)
    await client.quiet()
    snapshot = client.frames[0]
    store = await database_sync_to_async(Store)(tid)
    shown = snapshot["view"]["hand"]
    stream = f"hand-{shown['id']}"
    at = max(r["version"] for r in store.hands[stream] if r["position"] <= snapshot["position"])
    # The events after the snapshot's position are those after what it shows.
    assert shown["version"] == at, (shown["version"], at, client.feed())


async def test_a_position_beyond_the_feed_gets_a_snapshot():
    rng = random.Random(10)
    tid = await open_table()
    users = await make_users("ann", "bob")
    await seat_all(tid, users)
    now = await position_of_table(tid)
    client = await table_client(tid, users[0], after=now + 40, snapshot=False)
    await play(tid, users, rng, 3)
    await client.next()
    await client.quiet()
    assert client.frames[0]["type"] == "snapshot", client.frames
    check_feed_order(client, client.frames[0]["position"], await position_of_table(tid))
