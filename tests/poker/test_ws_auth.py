"""Who a WebSocket client is: a ticket in the query string (single use,
short-lived, from ``POST /api/ws-ticket/``) or the session cookie; a wrong,
spent or expired ticket is nobody, and so is an API token in the URL;
anonymous clients may watch public tables but not act nor open a player's
own stream, which only ever carries its player's frames; unknown tables
and paths are refused, and so are origins other than this site's (scheme,
host and port) unless the client brings a ticket (the Origin check guards
the session cookie).  A refusal is an error frame and a close code and
reason."""

from __future__ import annotations

import asyncio
import random
from datetime import timedelta
from typing import Any

import pytest
from channels.db import database_sync_to_async
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.test import Client as DjangoClient
from django.utils import timezone
from knox.models import AuthToken
from knox.settings import CONSTANTS

from accounts.tickets import NOT_AUTHENTICATED, cache_key
from tests.poker.ws_support import (
    HOST,
    ORIGIN,
    Client,
    Store,
    act_frame,
    actor,
    leaks,
    make_users,
    me_client,
    open_table,
    play,
    position_of_table,
    seat_all,
    table_path,
    ticket_for,
    token_for,
    written,
)

pytestmark = pytest.mark.django_db(transaction=True)


@database_sync_to_async
def session_cookie(user: Any) -> tuple[bytes, bytes]:
    """The Cookie header of a browser logged in as ``user``."""
    client = DjangoClient()
    client.force_login(user)
    return (b"cookie", f"sessionid={client.cookies['sessionid'].value}".encode())


def own_cards(frame: dict[str, Any]) -> list[str] | None:
    """The cards a snapshot shows of its viewer's hand (None: none)."""
    hand = frame["view"]["hand"]
    if hand is None or hand["your_seat"] is None:
        return None
    return next(p for p in hand["players"] if p["seat"] == hand["your_seat"])["cards"]


async def first_frame(client: Client) -> dict[str, Any]:
    accepted, _ = await client.open()
    assert accepted, client.path
    frame = await client.next()
    assert frame["type"] == "snapshot"
    return frame


async def test_a_ticket_in_the_query_string_logs_the_socket_in():
    tid = await open_table()
    ann, bob = await make_users("ann", "bob")
    await seat_all(tid, [ann, bob])
    client = Client(table_path(tid, ticket=await ticket_for(ann)), user=ann)
    snapshot = await first_frame(client)
    assert snapshot["view"]["you"] == {"seat": 1}
    assert own_cards(snapshot) and len(own_cards(snapshot)) == 5
    user, view = await actor(tid, [ann, bob])
    if user == ann:
        reply = await client.request(act_frame(view["hand"], action="call"))
        assert reply["type"] == "answer" and reply["answer"]["you"] == {"seat": 1}
    else:
        reply = await client.request(act_frame(view["hand"], action="call"))
        assert reply["type"] == "error" and reply["code"] == "out_of_turn"
    await client.close()


async def test_a_session_cookie_logs_the_socket_in():
    tid = await open_table()
    ann, bob = await make_users("ann", "bob")
    cookie = await session_cookie(bob)
    client = Client(f"/ws/tables/{tid}/", user=bob, headers=[ORIGIN, HOST, cookie])
    mine = Client("/ws/me/", user=bob, headers=[ORIGIN, HOST, cookie])
    assert (await first_frame(client))["view"]["you"] == {"seat": None}
    assert (await mine.open())[0]
    assert (await mine.next())["wallet"]["user"] == bob.pk  # his wallet, as he connects
    await seat_all(tid, [ann, bob])
    # The deal: his cards come on both of his sockets.
    private = await mine.until(lambda f: f["type"] == "private")
    assert private["event"]["type"] == "hand.cards_dealt"
    assert await client.until(lambda f: f["type"] == "private") == private
    again = Client(f"/ws/tables/{tid}/", user=bob, headers=[ORIGIN, HOST, cookie])
    snapshot = await first_frame(again)
    assert snapshot["view"]["you"] == {"seat": 2}
    hand = snapshot["view"]["hand"]
    (dealt,) = [h for h in private["event"]["hands"] if h["seat"] == hand["your_seat"]]
    assert own_cards(snapshot) == dealt["cards"]
    await client.close()
    await mine.close()


@database_sync_to_async
def staff_sessions(name: str) -> tuple[Any, tuple[bytes, bytes], tuple[bytes, bytes]]:
    """A cashier with a TOTP device and the Cookie headers of two browsers
    he logged in with: one by password alone (as the API's session login
    did before the setting), one at the admin's login with a code."""
    from accounts import second_factor
    from accounts.services import role_grant
    from tests.accounts.otp_support import admin_login, code_of

    user = get_user_model().objects.create_user(name, password="pw")
    role_grant(user=user, role="cashier")
    device = second_factor.enrol(user)
    plain, verified = DjangoClient(), DjangoClient()
    plain.force_login(user)
    reply = admin_login(
        verified, name, "pw", otp_device=device.persistent_id, otp_token=code_of(device)
    )
    assert reply.status_code == 302  # in, with the code
    cookies = (f"sessionid={c.cookies['sessionid'].value}".encode() for c in (plain, verified))
    return user, (b"cookie", next(cookies)), (b"cookie", next(cookies))


async def test_a_staff_session_without_his_second_factor_opens_sockets_as_nobody(settings):
    settings.STAFF_REQUIRE_OTP = True
    cy, plain, verified = await staff_sessions("cy")
    code, _, frame = await Client("/ws/me/", headers=[ORIGIN, HOST, plain]).refusal()
    assert (code, frame["code"]) == (4401, "not_authenticated")
    for cookie in (verified, plain):
        if cookie is plain:
            settings.STAFF_REQUIRE_OTP = False  # no code asked: the same session is his
        mine = Client("/ws/me/", user=cy, headers=[ORIGIN, HOST, cookie])
        assert (await mine.open())[0]
        assert (await mine.next())["wallet"]["user"] == cy.pk
        await mine.close()


async def test_a_wrong_ticket_is_anonymous():
    tid = await open_table()
    ann, bob = await make_users("ann", "bob")
    await seat_all(tid, [ann, bob])
    # Even beside a valid session: an unknown ticket is nobody, never someone.
    for headers in ([ORIGIN, HOST], [ORIGIN, HOST, await session_cookie(ann)]):
        client = Client(table_path(tid, ticket="0" * 40), headers=headers)
        snapshot = await first_frame(client)
        assert snapshot["view"]["you"] == {"seat": None}
        assert own_cards(snapshot) is None
        assert all(p["cards"] is None for p in snapshot["view"]["hand"]["players"])
        before = await written()
        _, view = await actor(tid, [ann, bob])
        reply = await client.request(act_frame(view["hand"], action="call"))
        assert reply["type"] == "error" and reply["code"] == "not_authenticated"
        assert await written() == before
        await client.close()
        refused = Client("/ws/me/?ticket=nonsense", headers=headers)
        assert (await refused.refusal())[:2] == (4401, NOT_AUTHENTICATED.reason)


async def test_an_inactive_players_ticket_is_anonymous():
    tid = await open_table()
    (ann,) = await make_users("ann")
    tickets = [await ticket_for(ann), await ticket_for(ann)]
    await database_sync_to_async(get_user_model().objects.filter(pk=ann.pk).update)(is_active=False)
    snapshot = await first_frame(Client(table_path(tid, ticket=tickets[0])))
    assert snapshot["view"]["you"] == {"seat": None}
    assert (await Client(f"/ws/me/?ticket={tickets[1]}").refusal())[0] == 4401


async def test_a_ticket_opens_one_socket_only():
    (ann,) = await make_users("ann")
    ticket = await ticket_for(ann)
    mine = Client(f"/ws/me/?ticket={ticket}", user=ann)
    assert (await mine.open())[0] and (await mine.next())["wallet"]["user"] == ann.pk
    assert (await Client(f"/ws/me/?ticket={ticket}").refusal())[0] == 4401
    await mine.close()


async def test_a_ticket_expires(settings):
    settings.WS_TICKET_SECONDS = 1
    (ann,) = await make_users("ann")
    ticket = await ticket_for(ann)
    async with asyncio.timeout(10):
        while await cache.aget(cache_key(ticket)) is not None:  # the cache lets it go
            await asyncio.sleep(0.05)
    assert (await Client(f"/ws/me/?ticket={ticket}").refusal())[0] == 4401


async def test_an_api_token_in_the_url_logs_nobody_in():
    """Long-lived secrets stay out of URLs (servers and proxies log them)."""
    tid = await open_table()
    ann, bob = await make_users("ann", "bob")
    await seat_all(tid, [ann, bob])
    token = await token_for(ann)
    snapshot = await first_frame(Client(f"/ws/tables/{tid}/?token={token}"))
    assert snapshot["view"]["you"] == {"seat": None} and own_cards(snapshot) is None
    assert (await Client(f"/ws/me/?token={token}").refusal())[0] == 4401


async def test_an_anonymous_client_may_spectate_a_table():
    tid = await open_table()
    ann, bob = await make_users("ann", "bob")
    spectator = Client(f"/ws/tables/{tid}/")
    snapshot = await first_frame(spectator)
    assert snapshot["view"]["you"] == {"seat": None}
    await seat_all(tid, [ann, bob])
    await spectator.until_position(await position_of_table(tid))
    await spectator.quiet()
    assert spectator.of("event") and not spectator.of("private")
    await spectator.close()


async def test_the_own_stream_refuses_anonymous_clients_saying_why():
    code, reason, frame = await Client("/ws/me/").refusal()
    assert (code, reason) == (4401, "not authenticated: log in or send a ticket")
    assert frame == {"type": "error", "code": "not_authenticated", "message": reason}


async def test_the_own_stream_carries_only_its_players_private_frames_from_every_table():
    rng = random.Random(9)
    ann, bob, cy = users = await make_users("ann", "bob", "cy")
    first, second = await open_table(), await open_table(name="Second")
    streams = {u.pk: await me_client(u) for u in users}
    # Asking for someone else's stream gets one's own.
    nosy = Client(f"/ws/me/?ticket={await ticket_for(cy)}&user={ann.pk}&player={ann.pk}", user=cy)
    assert (await nosy.open())[0]
    await seat_all(first, [ann, bob])
    await seat_all(second, [cy, ann])
    await play(first, [ann, bob], rng, 12)
    await play(second, [ann, cy], rng, 12)
    for client in (*streams.values(), nosy):
        await client.quiet()
    stores = {t: await database_sync_to_async(Store)(t) for t in (first, second)}
    tables_of = {ann: [first, second], bob: [first], cy: [second]}
    for user in users:
        seat_frames = [f for f in streams[user.pk].frames if f["type"] == "seat"]
        # His seats across tables: he sat at each table he plays at.
        assert {f["table"] for f in seat_frames if f["event"]["type"] == "table.player_seated"} == {
            t for t, members in ((first, {ann, bob}), (second, {cy, ann})) if user in members
        }
        assert all(f["event"].get("player", str(user.pk)) == str(user.pk) for f in seat_frames)
        # His wallet after each buy-in: his own, never anyone else's.
        wallets = [f for f in streams[user.pk].frames if f["type"] == "wallet"]
        assert wallets and all(f["wallet"]["user"] == user.pk for f in wallets)
        assert wallets[0]["entry"] is None  # as he connected; then one per move of his money
        kinds = [f["entry"]["kind"] for f in wallets[1:]]
        assert kinds.count("buy_in") == len(tables_of[user]) and set(kinds) <= {"buy_in", "top_up"}
        assert wallets[-1]["wallet"]["cash"] == wallets[-1]["entry"]["balance_after"]
        got = [f for f in streams[user.pk].frames if f["type"] not in ("seat", "wallet")]
        assert got and all(f["type"] == "private" for f in got)
        for table, store in stores.items():
            positions = [f["position"] for f in got if f["table"] == table]
            assert positions == store.owners(user.pk)
            mine = Client("", user=user)
            mine.frames = [f for f in got if f["table"] == table]
            assert leaks(store, mine) == []
    assert nosy.frames == streams[cy.pk].frames
    tables_seen = {u: {f["table"] for f in streams[u.pk].frames if "table" in f} for u in users}
    assert tables_seen[ann] == {first, second} and tables_seen[bob] == {first}
    for client in (*streams.values(), nosy):
        await client.close()


async def test_no_route_opens_another_players_stream():
    ann, bob = await make_users("ann", "bob")
    ticket = await ticket_for(bob)
    for path in (
        f"/ws/me/{ann.pk}/",
        f"/ws/players/{ann.pk}/",
        f"/ws/me/{ann.pk}/?ticket={ticket}",
    ):
        code, _, frame = await Client(path).refusal()
        assert (code, frame["code"]) == (4404, "not_found"), path


async def test_an_unknown_path_closes_with_4404_and_why():
    for path in ("/ws/nope/", "/ws/tables/abc/", "/ws/", "/elsewhere/"):
        code, reason, frame = await Client(path).refusal()
        assert (code, reason, frame) == (
            4404,
            "no such stream",
            {"type": "error", "code": "not_found", "message": "no such stream"},
        ), path


async def test_an_unknown_table_closes_with_4404_and_why():
    tid = await open_table()
    code, reason, frame = await Client(f"/ws/tables/{tid + 1}/").refusal()
    assert (code, reason, frame["code"]) == (4404, "no such table", "not_found")
    (ann,) = await make_users("ann")
    assert (await Client(table_path(tid + 1, ticket=await ticket_for(ann))).refusal())[0] == 4404


FOREIGN = [
    [(b"origin", b"http://evil.example"), HOST],
    [(b"origin", b"http://localhost.evil.example"), HOST],
    [(b"origin", b"http://localhost:9999"), HOST],  # another port of this host
    [(b"origin", b"https://localhost"), HOST],  # another scheme
    [(b"origin", b"http://localhost"), (b"host", b"localhost:8000")],
    [(b"origin", b"http://localhost"), (b"host", b"evil.example")],  # not an allowed host
    [(b"origin", b"http://localhost")],  # no Host
    [HOST],  # no Origin at all
]


async def test_without_a_ticket_an_origin_other_than_this_sites_is_refused_with_4403():
    tid = await open_table()
    (ann,) = await make_users("ann")
    cookie = await session_cookie(ann)
    for origin in FOREIGN:
        for headers in (origin, [*origin, cookie]):
            # An empty ticket is no ticket: the cookie would log the socket in.
            for path in (table_path(tid), "/ws/me/?ticket=", "/ws/lobby/"):
                code, reason, frame = await Client(path, headers=headers).refusal()
                assert (code, frame["code"]) == (4403, "origin_refused"), (path, headers)
                assert reason == frame["message"] and reason.startswith("origin refused")


async def test_this_sites_own_origin_and_the_trusted_ones_are_welcome(settings):
    settings.CSRF_TRUSTED_ORIGINS = ["https://poker.example.com"]
    tid = await open_table()
    (ann,) = await make_users("ann")
    cookie = await session_cookie(ann)
    welcome = [
        [(b"origin", b"http://127.0.0.1:8000"), (b"host", b"127.0.0.1:8000"), cookie],
        [(b"origin", b"http://localhost:80"), HOST, cookie],  # the default port, said
        [(b"origin", b"https://poker.example.com"), HOST, cookie],
    ]
    for headers in welcome:
        assert (await first_frame(Client(table_path(tid), headers=headers)))["type"] == "snapshot"
    secure = Client(table_path(tid), headers=[(b"origin", b"https://localhost"), HOST, cookie])
    secure.comm.scope["scheme"] = "wss"
    assert (await first_frame(secure))["type"] == "snapshot"


async def test_a_client_with_a_ticket_needs_no_origin():
    tid = await open_table()
    ann, bob = await make_users("ann", "bob")
    await seat_all(tid, [ann, bob])
    token = await token_for(ann)
    for headers in FOREIGN:
        client = Client(
            table_path(tid, ticket=await ticket_for(ann, token)), user=ann, headers=headers
        )
        snapshot = await first_frame(client)
        assert snapshot["view"]["you"] == {"seat": 1}
        assert own_cards(snapshot) and len(own_cards(snapshot)) == 5
        await client.close()
        mine = Client(f"/ws/me/?ticket={await ticket_for(ann, token)}", user=ann, headers=headers)
        assert (await mine.open())[0]
        assert (await mine.next())["wallet"]["user"] == ann.pk
        await mine.close()


async def test_a_wrong_ticket_from_a_foreign_origin_never_uses_the_session():
    """A page elsewhere cannot ride the cookie by adding a made-up ticket."""
    tid = await open_table()
    ann, bob = await make_users("ann", "bob")
    await seat_all(tid, [ann, bob])
    headers = [(b"origin", b"http://evil.example"), HOST, await session_cookie(ann)]
    snapshot = await first_frame(Client(table_path(tid, ticket="0" * 64), headers=headers))
    assert snapshot["view"]["you"] == {"seat": None} and own_cards(snapshot) is None
    assert (await Client("/ws/me/?ticket=" + "0" * 64, headers=headers).refusal())[0] == 4401


async def test_a_ticket_of_a_revoked_or_expired_token_is_anonymous():
    tid = await open_table()
    ann, bob = await make_users("ann", "bob")
    await seat_all(tid, [ann, bob])
    revoked, expired = await token_for(ann), await token_for(ann)
    tickets = {t: [await ticket_for(ann, t), await ticket_for(ann, t)] for t in (revoked, expired)}
    await database_sync_to_async(_revoke)(revoked)
    await database_sync_to_async(_expire)(expired)
    for token in (revoked, expired):
        snapshot = await first_frame(Client(table_path(tid, ticket=tickets[token][0])))
        assert snapshot["view"]["you"] == {"seat": None}
        assert (await Client(f"/ws/me/?ticket={tickets[token][1]}").refusal())[0] == 4401


def _revoke(key: str) -> None:
    AuthToken.objects.filter(token_key=key[: CONSTANTS.TOKEN_KEY_LENGTH]).delete()


def _expire(key: str) -> None:
    rows = AuthToken.objects.filter(token_key=key[: CONSTANTS.TOKEN_KEY_LENGTH])
    rows.update(expiry=timezone.now() - timedelta(seconds=1))
