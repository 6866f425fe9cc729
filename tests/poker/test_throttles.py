"""Each player's commands are throttled together: table actions and seat
commands over REST and act frames over a socket; reads are not.  Past the
rate: 429 ``throttled`` over REST, an error frame over a socket (which
stays open); another player is not affected; after the wait it is allowed."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
import redis
from asgiref.sync import sync_to_async
from django.core.cache import BaseCache
from django.core.cache.backends.locmem import LocMemCache
from rest_framework.test import APIClient

from accounts.throttles import WINDOW_SUFFIX, CommandThrottle, shared_cache
from tests.poker.api_support import command, ok, post, refused
from tests.poker.ws_support import make_users, table_client
from tests.poker.ws_support import open_table as open_table_now
from tests.throttling import set_rates, throttled


def sit_out(client: APIClient, table: int) -> object:
    """A command refused by the table (not seated), counted all the same."""
    return command(client, table, "sit-out")


@pytest.mark.django_db
def test_a_players_actions_and_seat_commands_count_together_until_the_wait_is_over(
    settings, throttle_clock, open_table, make_user, client_for
):
    set_rates(settings, command="3/m")
    table = open_table()["table"]["id"]
    ann = client_for(make_user("ann"))
    ok(command(ann, table, "sit", seat=1, buy_in=200))
    refused(post(ann, f"/api/tables/{table}/actions/", {}), 400, "invalid")
    ok(command(ann, table, "sit-out"))
    wait = throttled(command(ann, table, "sit-in"))
    throttled(post(ann, f"/api/tables/{table}/actions/", {}))
    throttle_clock.advance(wait)
    ok(command(ann, table, "sit-in"))


@pytest.mark.django_db
def test_another_players_commands_are_not_throttled(
    settings, throttle_clock, open_table, make_user, client_for
):
    set_rates(settings, command="2/m")
    table = open_table()["table"]["id"]
    ann, bob = client_for(make_user("ann")), client_for(make_user("bob"))
    for _ in range(2):
        refused(sit_out(ann, table), 409, "not_seated")
    throttled(sit_out(ann, table))
    ok(command(bob, table, "sit", seat=1, buy_in=200))


@pytest.mark.django_db
def test_reads_are_not_throttled(settings, throttle_clock, open_table, make_user, client_for):
    set_rates(settings, command="1/m")
    table = open_table()["table"]["id"]
    ann = client_for(make_user("ann"))
    refused(sit_out(ann, table), 409, "not_seated")
    throttled(sit_out(ann, table))
    for _ in range(5):
        ok(ann.get(f"/api/tables/{table}/"))
        ok(ann.get("/api/tables/"))


# --------------------------------------------------------------------------
# Over a socket


@pytest.fixture(params=["memory", "redis"])
def command_cache(request: pytest.FixtureRequest, settings: Any) -> str:
    """The throttles' cache: process memory (DRF's read and write of a
    history), or Redis (one script a count, from the socket's loop); a
    Redis one under a key prefix of the test's own."""
    if request.param == "redis":
        url, prefix = request.getfixturevalue("redis_url"), request.getfixturevalue("redis_prefix")
        use_redis(settings, url, prefix)
    return str(request.param)


def use_redis(settings: Any, url: str, prefix: str) -> None:
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": url,
            "KEY_PREFIX": prefix,
        }
    }


async def rest_as(user, path: str) -> object:
    from channels.db import database_sync_to_async

    def send() -> object:
        client = APIClient()
        client.force_authenticate(user)
        return post(client, path, {})

    return await database_sync_to_async(send)()


@pytest.mark.django_db(transaction=True)
async def test_socket_commands_past_the_rate_get_a_throttled_frame_and_the_socket_stays_open(
    settings, throttle_clock, command_cache
):
    set_rates(settings, command="2/m")
    table = await open_table_now()
    ann, bob = await make_users("ann", "bob")
    mine, his = await table_client(table, ann), await table_client(table, bob)
    for n in range(2):
        reply = await mine.request({"type": "act", "command_id": f"c{n}"})
        assert reply["type"] == "error" and reply["code"] == "invalid", reply
    reply = await mine.request({"type": "act", "command_id": "c2"})
    assert reply["type"] == "error" and reply["code"] == "throttled", reply
    assert reply["command_id"] == "c2" and reply["message"]
    assert isinstance(reply["retry_after"], int) and 1 <= reply["retry_after"] <= 60
    assert (await mine.ping())["type"] == "pong"  # still open
    assert (await his.request({"type": "act"}))["code"] == "invalid"  # another player
    throttle_clock.advance(reply["retry_after"])
    assert (await mine.request({"type": "act"}))["code"] == "invalid"
    await mine.close()
    await his.close()


@pytest.mark.django_db(transaction=True)
async def test_socket_and_rest_commands_of_a_player_count_together(
    settings, throttle_clock, command_cache
):
    set_rates(settings, command="2/m")
    table = await open_table_now()
    (ann,) = await make_users("ann")
    socket = await table_client(table, ann)
    assert (await socket.request({"type": "act"}))["code"] == "invalid"
    refused(await rest_as(ann, f"/api/tables/{table}/actions/"), 400, "invalid")
    assert (await socket.request({"type": "act"}))["code"] == "throttled"
    throttled(await rest_as(ann, f"/api/tables/{table}/actions/"))
    await socket.close()


async def test_every_socket_counts_in_the_one_cache_of_the_process(settings):
    """Django keeps a cache per async context, a socket's: a Redis one would
    open a connection pool for each socket (and each request)."""

    async def cache_of_a_socket() -> object:
        return await sync_to_async(lambda: CommandThrottle().cache)()

    one, other = await asyncio.gather(cache_of_a_socket(), cache_of_a_socket())
    assert isinstance(one, BaseCache) and one is other
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    again = await cache_of_a_socket()
    assert isinstance(again, LocMemCache) and again is not one  # the settings' own


@pytest.mark.django_db
def test_on_redis_a_players_window_is_one_list_of_the_times_allowed(
    settings, throttle_clock, redis_url, redis_prefix
):
    """One script a count: the times allowed within the period, newest
    first, kept no longer than the period; a refused command adds none."""
    use_redis(settings, redis_url, redis_prefix)
    set_rates(settings, command="2/m")
    throttle = CommandThrottle()
    key = throttle.key_of(7)
    assert throttle.allow_key(key)
    throttle_clock.advance(10)
    assert CommandThrottle().allow_key(key)
    refused = CommandThrottle()
    assert not refused.allow_key(key)
    assert refused.wait() == pytest.approx(50)  # until the first leaves the window
    client = redis.Redis.from_url(redis_url)
    window = shared_cache().make_key(key) + WINDOW_SUFFIX
    assert window.startswith(redis_prefix)
    now = throttle_clock.now
    assert [float(t) for t in client.lrange(window, 0, -1)] == [now, now - 10]
    assert 0 < client.ttl(window) <= 60
    throttle_clock.advance(50)
    assert CommandThrottle().allow_key(key)
    assert [float(t) for t in client.lrange(window, 0, -1)] == [now + 50, now]
    client.close()
