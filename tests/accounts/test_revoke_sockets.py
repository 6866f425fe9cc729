"""A socket keeps the credential it opened with (the API token its ticket
was asked with, or the session cookie): revoking that credential (logout,
logout everywhere, a password change) closes the socket with 4401 and
``logged_out``, a table socket and the player's own stream alike; sockets
opened with his other credentials, and other players', stay open."""

from __future__ import annotations

from typing import Any

import pytest
from channels.db import database_sync_to_async
from django.contrib.auth import get_user_model
from django.test import Client as DjangoClient
from rest_framework.test import APIClient

from kernel.consumers import LOGGED_OUT
from poker.casino import services as casino_services
from tests.funds import fund
from tests.poker.ws_support import ORIGIN, Client, act_frame, actor, open_table, seat_all

pytestmark = pytest.mark.django_db(transaction=True)

PASSWORD = "correct horse battery"


@database_sync_to_async
def player(name: str) -> Any:
    return fund(get_user_model().objects.create_user(name, password=PASSWORD))


@database_sync_to_async
def login(user: Any) -> APIClient:
    """A device logged in with an API token (as the browser client is)."""
    answer = APIClient().post(
        "/api/auth/token/", {"username": user.username, "password": PASSWORD}, format="json"
    )
    assert answer.status_code == 200, answer.content
    device = APIClient()
    device.credentials(HTTP_AUTHORIZATION=f"Token {answer.json()['token']}")
    return device


@database_sync_to_async
def post(device: Any, path: str, body: Any = None) -> Any:
    return device.post(path, body, format="json")


async def ticket(device: Any) -> str:
    answer = await post(device, "/api/ws-ticket/")
    assert answer.status_code == 201, answer.content
    return str(answer.json()["ticket"])


async def sockets(table: int, user: Any, device: Any) -> tuple[Client, Client]:
    """His table socket (its snapshot taken) and his own stream (its wallet
    taken), each opened with a ticket of ``device``."""
    at_table = Client(f"/ws/tables/{table}/?ticket={await ticket(device)}", user=user)
    own = Client(f"/ws/me/?ticket={await ticket(device)}", user=user)
    for client, first in ((at_table, "snapshot"), (own, "wallet")):
        assert (await client.open())[0]
        assert (await client.next())["type"] == first
    return at_table, own


async def closed_logged_out(client: Client) -> None:
    frame = await client.until(lambda f: f["type"] == "error")
    closing = await client.comm.receive_output(5)
    assert closing["type"] == "websocket.close", closing
    assert (frame["code"], closing["code"]) == ("logged_out", LOGGED_OUT.close_code)


async def still_open(client: Client) -> None:
    assert (await client.ping())["type"] == "pong"


async def test_logout_everywhere_closes_every_socket_of_his_tokens_and_no_one_elses():
    tid = await open_table()
    ann, bob = await player("ann"), await player("bob")
    await seat_all(tid, [ann, bob])
    phone, laptop, bobs = await login(ann), await login(ann), await login(bob)
    mine = [*await sockets(tid, ann, phone), *await sockets(tid, ann, laptop)]
    others = await sockets(tid, bob, bobs)
    assert (await post(phone, "/api/auth/logout-all/")).status_code == 204
    for client in mine:
        await closed_logged_out(client)
    for client in others:
        await still_open(client)
        await client.close()


async def test_a_closed_table_socket_can_no_longer_act():
    tid = await open_table()
    ann, bob = await player("ann"), await player("bob")
    await seat_all(tid, [ann, bob])
    user, view = await actor(tid, [ann, bob])
    device = await login(user)
    at_table, own = await sockets(tid, user, device)
    assert (await post(device, "/api/auth/logout-all/")).status_code == 204
    await closed_logged_out(at_table)
    await at_table.send(act_frame(view["hand"], action="call"))
    assert await at_table.comm.receive_nothing(timeout=0.5)
    await closed_logged_out(own)


@database_sync_to_async
def tournament(director_name: str) -> int:
    from accounts.services import role_grant
    from tests.tournaments.service_support import create

    director = get_user_model().objects.create_user(director_name)
    role_grant(user=director, role="tournament_director")
    return int(create(director).pk)


async def test_logout_everywhere_closes_his_casino_and_tournament_sockets_too():
    ann = await player("ann")
    device = await login(ann)
    boss = await database_sync_to_async(get_user_model().objects.create_user)("boss", is_staff=True)
    casino = await database_sync_to_async(casino_services.casino_table_open)(by=boss, name="C")
    streams = {
        f"/ws/casino/tables/{casino.pk}/": "snapshot",
        f"/ws/tournaments/{await tournament('td')}/": "snapshot",
    }
    clients = []
    for path, first in streams.items():
        client = Client(f"{path}?ticket={await ticket(device)}", user=ann)
        assert (await client.open())[0] and (await client.next())["type"] == first
        clients.append(client)
    assert (await post(device, "/api/auth/logout-all/")).status_code == 204
    for client in clients:
        await closed_logged_out(client)


async def test_a_password_change_closes_the_old_tokens_sockets_not_the_new_ones():
    tid = await open_table()
    ann = await player("ann")
    phone, laptop = await login(ann), await login(ann)
    old = await sockets(tid, ann, laptop)
    body = {"old_password": PASSWORD, "new_password": "another horse battery"}
    answer = await post(phone, "/api/auth/password/", body)
    assert answer.status_code == 200, answer.content
    for client in old:
        await closed_logged_out(client)
    phone.credentials(HTTP_AUTHORIZATION=f"Token {answer.json()['token']}")
    fresh = await sockets(tid, ann, phone)
    for client in fresh:
        await still_open(client)
        await client.close()


async def test_a_logout_closes_that_tokens_sockets_only():
    tid = await open_table()
    ann = await player("ann")
    phone, laptop = await login(ann), await login(ann)
    on_phone, on_laptop = await sockets(tid, ann, phone), await sockets(tid, ann, laptop)
    assert (await post(phone, "/api/auth/logout/")).status_code == 204
    for client in on_phone:
        await closed_logged_out(client)
    for client in on_laptop:
        await still_open(client)
        await client.close()


async def test_a_session_logout_closes_the_sockets_its_cookie_opened():
    tid = await open_table()
    ann = await player("ann")
    browser = DjangoClient(enforce_csrf_checks=False)
    await database_sync_to_async(browser.force_login)(ann)
    cookie = (b"cookie", f"sessionid={browser.cookies['sessionid'].value}".encode())
    host = (b"host", b"localhost")
    own = Client("/ws/me/", user=ann, headers=[ORIGIN, host, cookie])
    assert (await own.open())[0] and (await own.next())["type"] == "wallet"
    device = await login(ann)
    other = await sockets(tid, ann, device)
    assert (await post(device, "/api/auth/logout/")).status_code == 204  # a token's logout
    for client in other:
        await closed_logged_out(client)
    await still_open(own)  # its session still works
    answer = await database_sync_to_async(browser.post)("/api/auth/logout/")
    assert answer.status_code == 204, answer.content
    await closed_logged_out(own)
