"""The tournament streams over WebSockets: a snapshot, then one update per
committed command with the clock, players left, the average stack and the
standings; the lobby's tournament lines; nothing for a refused command; a
fresh snapshot after a lost frame."""

from __future__ import annotations

from typing import Any

import pytest
from channels.db import database_sync_to_async

from kernel.api_errors import ApiError
from tests.poker.ws_support import Client
from tests.tournaments import service_support as support
from tournaments import publish, services

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("pools_paid"),
]


class Socket(Client):
    """A tournament stream's connection, which may also be checked quiet."""

    async def silent(self) -> bool:
        return await self.comm.receive_nothing(timeout=0.3)


async def watch(t: Any) -> tuple[Socket, dict[str, Any]]:
    socket = Socket(f"/ws/tournaments/{t.pk}/")
    assert (await socket.open())[0]
    return socket, await socket.next()


def sync(call: Any) -> Any:
    return database_sync_to_async(call)


async def test_an_unknown_tournament_closes_the_socket():
    code, reason, frame = await Socket("/ws/tournaments/999999/").refusal()
    assert (code, reason) == (4404, "no such tournament")
    assert frame == {"type": "error", "code": "not_found", "message": reason}


async def test_a_snapshot_then_an_update_after_each_command(director, players, clock):
    ann, bob, cy = await sync(players)(3)
    t = await sync(support.create)(director)
    socket, snapshot = await watch(t)
    assert (snapshot["type"], snapshot["version"], snapshot["players_left"]) == ("snapshot", 2, 0)
    assert snapshot["detail"]["name"] == "T" and snapshot["clock"] is None
    await sync(support.register)(t, ann, bob, cy)
    for version, player in ((3, ann), (4, bob), (5, cy)):
        update = await socket.next()
        assert (update["type"], update["version"]) == ("update", version)
        assert update["events"] == [
            {"version": version, "type": "tournament.player_registered",
             "player": str(player.pk), "entry": 1, "paid": 110},
        ]  # fmt: skip
    await sync(support.start)(t, clock)
    started = await socket.next()
    assert started["events"][0]["type"] == "tournament.started"
    assert (started["players_left"], started["average_stack"]) == (3, 1000)
    assert started["clock"]["level"] == 1 and started["clock"]["seconds_left"] == 600
    assert [s["place"] for s in started["standings"]] == [1, 1, 1]
    await socket.close()


async def test_the_level_the_pause_and_busts_come_as_updates(director, players, clock):
    ann, bob, cy = await sync(players)(3)
    t = await sync(support.create)(director)
    await sync(support.register)(t, ann, bob, cy)
    await sync(support.start)(t, clock)
    socket, _ = await watch(t)
    await sync(support.tick)(t, clock)
    level = await socket.next()
    assert [e["type"] for e in level["events"]] == ["tournament.level_changed"]
    assert (level["clock"]["level"], level["clock"]["big_blind"]) == (2, 40)
    await sync(services.tournament_pause)(by=director, tournament_id=t.pk)
    assert (await socket.next())["clock"]["paused"] is True
    await sync(services.tournament_resume)(by=director, tournament_id=t.pk)
    assert (await socket.next())["clock"]["paused"] is False  # no hand while paused
    await sync(support.bust)(t, cy, ann)
    await socket.next()  # the hand began
    finished = await socket.next()
    assert "tournament.player_eliminated" in [e["type"] for e in finished["events"]]
    assert (finished["players_left"], finished["average_stack"]) == (2, 1500)
    assert finished["standings"][-1] == {
        "place": 3, "shared": 1, "player": cy.pk, "name": "p3", "stack": 0, "in": False,
        "bounty": 0, "bounty_won": 0,
    }  # fmt: skip
    await socket.close()


async def test_a_refused_command_sends_nothing(director, players):
    (ann,) = await sync(players)(1)
    t = await sync(support.create)(director)
    await sync(support.register)(t, ann)
    socket, _ = await watch(t)
    with pytest.raises(ApiError):
        await sync(support.register)(t, ann)
    assert await socket.silent()
    await socket.close()


async def test_a_lost_update_is_filled_in_from_the_store(director, players, monkeypatch):
    ann, bob = await sync(players)(2)
    t = await sync(support.create)(director)
    socket, _ = await watch(t)
    sent = publish.send_all
    monkeypatch.setattr(publish, "send_all", lambda messages: None)  # the layer loses it
    await sync(support.register)(t, ann)
    monkeypatch.setattr(publish, "send_all", sent)
    await sync(support.register)(t, bob)
    again = await socket.next()
    assert (again["type"], again["version"], again["entries"]) == ("update", 4, 2)
    assert [(e["version"], e["player"]) for e in again["events"]] == [
        (3, str(ann.pk)), (4, str(bob.pk)),
    ]  # fmt: skip
    assert await socket.silent()
    await socket.close()


async def test_a_client_back_after_a_version_gets_what_it_missed(director, players):
    ann, bob, cy = await sync(players)(3)
    t = await sync(support.create)(director)
    await sync(support.register)(t, ann, bob)  # versions 3 and 4
    socket = Socket(f"/ws/tournaments/{t.pk}/?after=3")
    assert (await socket.open())[0]
    missed = await socket.next()
    assert (missed["type"], missed["version"], missed["entries"]) == ("update", 4, 2)
    assert [e["version"] for e in missed["events"]] == [4]
    await sync(support.register)(t, cy)
    assert (await socket.next())["events"][0]["version"] == 5  # then live
    await socket.close()
    # At the last version: an update with no event, the tournament as it stands.
    for after, kind in (("4", "update"), ("5", "update"), ("0", "snapshot"), ("99", "snapshot")):
        socket = Socket(f"/ws/tournaments/{t.pk}/?after={after}")
        assert (await socket.open())[0]
        first = await socket.next()
        assert (first["type"], first["version"]) == (kind, 5), after
        await socket.close()


async def test_a_ping_gets_the_version_seen(director):
    t = await sync(support.create)(director)
    socket, _ = await watch(t)
    await socket.comm.send_json_to({"type": "ping"})
    assert await socket.next() == {"type": "pong", "version": 2}
    await socket.comm.send_json_to({"type": "register"})
    assert (await socket.next())["code"] == "read_only"
    await socket.close()


async def test_the_lobbies_show_tournaments_appearing_filling_and_closing(director, players, clock):
    ann, bob = await sync(players)(2)
    early = await sync(support.create)(director, name="Early")
    lobby = Socket("/ws/tournaments/")
    tables = Socket("/ws/lobby/")
    assert (await lobby.open())[0] and (await tables.open())[0]
    snapshot = await lobby.next()
    assert [t["name"] for t in snapshot["tournaments"]] == ["Early"]
    assert (await tables.next())["type"] == "snapshot"
    t = await sync(support.create)(director, name="Late", min_players=3)
    for socket in (lobby, tables):
        line = await socket.next()
        assert line["type"] == "tournament" and line["tournament"]["name"] == "Late"
    await sync(support.register)(t, ann, bob)
    assert [(await lobby.next())["tournament"]["entries"] for _ in range(2)] == [1, 2]
    await sync(support.start)(t, clock)  # too few: cancelled
    closed = (await lobby.next())["tournament"]
    assert (closed["status"], closed["registration_open"]) == ("cancelled", False)
    assert early.pk != t.pk
    for socket in (lobby, tables):
        await socket.close()
