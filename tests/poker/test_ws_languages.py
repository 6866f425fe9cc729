"""A socket's error frames come in its language: the ``lang`` of its
query string (the client's page), else the account's, else the
handshake's ``Accept-Language``; codes are the same in every language."""

from __future__ import annotations

from typing import Any

import pytest
from channels.db import database_sync_to_async

from tests.poker.ws_support import (
    HOST,
    ORIGIN,
    Client,
    act_frame,
    actor,
    make_users,
    open_table,
    seat_all,
    table_path,
    ticket_for,
)

pytestmark = pytest.mark.django_db(transaction=True)


async def socket(table: int, user: Any, *, lang: str | None = None, header: str | None = None):
    path = table_path(table, ticket=await ticket_for(user))
    if lang is not None:
        path += f"&lang={lang}"
    headers = [ORIGIN, HOST] + ([(b"accept-language", header.encode())] if header else [])
    client = Client(path, user=user, headers=headers)
    accepted, _ = await client.open()
    assert accepted
    assert (await client.next())["type"] == "snapshot"
    return client


async def waiting_player(users: list[Any], table: int) -> tuple[Any, Any, dict[str, Any]]:
    found = await actor(table, users)
    assert found is not None
    mover, view = found
    waiting = next(u for u in users if u.pk != mover.pk)
    return mover, waiting, view


async def test_an_out_of_turn_refusal_over_a_german_socket_is_german_and_names_the_mover():
    table = await open_table()
    users = await make_users("ann_de", "bob_de")
    await seat_all(table, users)
    mover, waiting, view = await waiting_player(users, table)
    name = await database_sync_to_async(lambda: type(mover).objects.get(pk=mover.pk).screen_name)()
    for client in (
        await socket(table, waiting, lang="de"),
        await socket(table, waiting, header="de-DE,de;q=0.9,en;q=0.5"),
    ):
        reply = await client.request(act_frame(view["hand"], action="check"))
        assert (reply["type"], reply["code"]) == ("error", "out_of_turn"), reply
        assert reply["message"] == f"{name} ist am Zug, nicht Sie."
        await client.close()
    english = await socket(table, waiting, lang="en", header="de")
    reply = await english.request(act_frame(view["hand"], action="check"))
    assert (reply["code"], reply["message"]) == ("out_of_turn", f"It is {name}'s turn, not yours.")
    await english.close()


async def test_the_sockets_own_refusals_are_german_on_a_german_socket():
    table = await open_table()
    (ann,) = await make_users("ann_frames")
    client = await socket(table, ann, lang="de")
    await client.send({"type": "dance"})
    reply = await client.next()
    assert (reply["type"], reply["code"]) == ("error", "unknown_type")
    assert reply["message"] == "Unbekannter Frame-Typ 'dance': verwenden Sie act oder ping."
    await client.send([1])
    reply = await client.next()
    assert (reply["code"], reply["message"]) == ("malformed", "Ein Frame ist ein JSON-Objekt.")
    await client.close()


async def test_a_refused_socket_says_why_in_its_language_and_closes_with_the_english_reason():
    client = Client("/ws/tables/999999/?lang=de")
    accepted, _ = await client.open()
    assert accepted
    frame = await client.next()
    assert (frame["type"], frame["code"]) == ("error", "not_found")
    assert frame["message"] == "diesen Tisch gibt es nicht"
    closed = await client.comm.receive_output(timeout=5)
    assert (closed["type"], closed["code"], closed["reason"]) == (
        "websocket.close",
        4404,
        "no such table",
    )


async def test_a_too_small_raise_over_a_socket_names_the_allowed_raises_in_its_language():
    table = await open_table(game="five-card-draw")
    users = await make_users("ann_raise", "bob_raise")
    await seat_all(table, users)
    found = await actor(table, users)
    assert found is not None
    mover, view = found
    legal = view["hand"]["legal"]
    low, high = legal["min_raise_to"], legal["max_raise_to"]
    assert low < high
    said = {
        "de": f"Erhöhen Sie auf {low} bis {high} Chips.",
        "en": f"Raise to between {low} and {high} chips.",
    }
    for lang, message in said.items():
        client = await socket(table, mover, lang=lang)
        reply = await client.request(act_frame(view["hand"], action="raise", amount=low - 1))
        assert (reply["type"], reply["code"], reply["message"]) == ("error", "bad_amount", message)
        await client.close()
