"""Throttled: logins and token requests (together) per address and per
account, registrations per address, password changes per address and per
player; a 429 names when to come back, and after that wait it is allowed
again."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from tests.poker.api_support import ok, post, refused
from tests.throttling import set_rates, throttled

STRONG = "correct horse battery"
LOGIN = "/api/auth/login/"
TOKEN = "/api/auth/token/"

pytestmark = pytest.mark.django_db


def at(address: str) -> APIClient:
    """A client whose requests come from ``address``."""
    return APIClient(REMOTE_ADDR=address)


def guess(client: APIClient, path: str = LOGIN, username: str = "ann") -> object:
    return post(client, path, username=username, password="wrong")


def refused_guess(response: object) -> None:
    """A wrong password answered, not throttled."""
    assert response.status_code == 400, response.content  # type: ignore[attr-defined]


@pytest.fixture
def ann(make_user):
    return make_user("ann")


# --------------------------------------------------------------------------
# Login and token


def test_logins_from_one_address_are_throttled_and_allowed_again_after_the_wait(
    settings, throttle_clock, ann
):
    set_rates(settings, login_address="3/m")
    client = at("10.0.0.1")
    for _ in range(3):
        refused_guess(guess(client))
    wait = throttled(guess(client))
    assert 1 <= wait <= 60
    throttled(post(client, LOGIN, username="ann", password="pw"))  # even the right one
    throttle_clock.advance(wait)
    ok(post(client, LOGIN, username="ann", password="pw"))


def test_another_address_is_not_throttled_by_one_address_guesses(settings, throttle_clock, ann):
    set_rates(settings, login_address="2/m")
    for _ in range(2):
        refused_guess(guess(at("10.0.0.1"), username=f"x{_}"))
    throttled(guess(at("10.0.0.1"), username="other"))
    ok(post(at("10.0.0.2"), LOGIN, username="ann", password="pw"))


def test_guesses_at_one_account_from_many_addresses_are_throttled(
    settings, throttle_clock, ann, make_user
):
    set_rates(settings, login_account="3/m")
    make_user("bob")
    for n in range(3):
        refused_guess(guess(at(f"10.0.1.{n}")))
    wait = throttled(guess(at("10.0.1.9")))
    throttled(guess(at("10.0.1.10"), username="ANN"))  # the account, whatever the case
    ok(post(at("10.0.1.11"), LOGIN, username="bob", password="pw"))  # another account
    throttle_clock.advance(wait)
    ok(post(at("10.0.1.12"), LOGIN, username="ann", password="pw"))


@pytest.mark.parametrize(
    "spelling",
    [" ann", "ann   ", "\uff41\uff4e\uff4e", "ANN"],
    ids=["lead", "trail", "wide", "case"],
)
def test_every_spelling_that_logs_in_to_an_account_counts_against_it(
    settings, throttle_clock, ann, spelling
):
    """Login trims and NFKC-normalizes the username: the throttle counts
    the account that spelling reaches, not the raw text."""
    set_rates(settings, login_account="3/m")
    for n in range(3):
        refused_guess(guess(at(f"10.0.2.{n}")))
    throttled(post(at("10.0.2.9"), LOGIN, username=spelling, password="pw"))
    throttled(guess(at("10.0.2.10"), username=" " * 8 + "ann"))


def test_token_requests_are_throttled_and_count_with_the_logins(settings, throttle_clock, ann):
    set_rates(settings, login_address="3/m")
    client = at("10.0.2.1")
    refused_guess(guess(client, LOGIN))
    refused_guess(guess(client, TOKEN))
    refused_guess(guess(client, TOKEN))
    wait = throttled(guess(client, TOKEN))
    throttled(guess(client, LOGIN))
    ok(post(at("10.0.2.2"), TOKEN, username="ann", password="pw"))
    throttle_clock.advance(wait)
    assert ok(post(client, TOKEN, username="ann", password="pw"))["token"]


def test_token_requests_at_one_account_from_many_addresses_are_throttled(
    settings, throttle_clock, ann
):
    set_rates(settings, login_account="2/m")
    for n in range(2):
        refused_guess(guess(at(f"10.0.3.{n}"), TOKEN))
    throttled(guess(at("10.0.3.9"), TOKEN))


def forwarded(address: str, forwarded_for: str) -> object:
    """A wrong password from ``address`` that says it forwards ``forwarded_for``."""
    body = {"username": "ann", "password": "wrong"}
    return at(address).post(LOGIN, body, format="json", HTTP_X_FORWARDED_FOR=forwarded_for)


def test_the_address_is_remote_addr_and_a_forwarded_for_header_is_ignored(
    settings, throttle_clock, ann
):
    set_rates(settings, login_address="2/m")
    for n in range(2):
        refused_guess(forwarded("10.0.4.1", f"192.0.2.{n}"))
    throttled(forwarded("10.0.4.1", "192.0.2.99"))


def test_with_one_proxy_in_front_the_address_is_the_one_it_saw(settings, throttle_clock, ann):
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "NUM_PROXIES": 1}
    set_rates(settings, login_address="2/m")
    for n in range(2):  # the left part is the client's to write: not counted on
        refused_guess(forwarded("10.0.4.1", f"198.51.100.{n}, 203.0.113.1"))
    refused_guess(forwarded("10.0.4.1", "198.51.100.0, 203.0.113.2"))  # another address
    throttled(forwarded("10.0.4.1", "198.51.100.9, 203.0.113.1"))


# --------------------------------------------------------------------------
# Registration


def register(client: APIClient, name: str) -> object:
    return post(client, "/api/auth/register/", username=name, password=STRONG)


def test_registrations_from_one_address_are_throttled_and_allowed_again_after_the_wait(
    settings, throttle_clock
):
    set_rates(settings, register_address="2/h")
    client = at("10.0.5.1")
    ok(register(client, "ann"), 201)
    ok(register(at("10.0.5.1"), "bob"), 201)
    wait = throttled(register(at("10.0.5.1"), "cy"))
    assert wait > 60  # an hour's window
    ok(register(at("10.0.5.2"), "cy"), 201)  # another address
    throttle_clock.advance(wait)
    ok(register(at("10.0.5.1"), "dee"), 201)


# --------------------------------------------------------------------------
# Password change


def change(client: APIClient, old: str = "wrong") -> object:
    return post(client, "/api/auth/password/", old_password=old, new_password="another good one")


def logged_in(user, address: str) -> APIClient:
    client = at(address)
    client.force_authenticate(user)
    return client


def test_password_changes_of_one_player_are_throttled_from_any_address(
    settings, throttle_clock, ann, make_user
):
    set_rates(settings, password_account="2/m")
    bob = make_user("bob")
    for n in range(2):
        refused(change(logged_in(ann, f"10.0.6.{n}")), 400, "wrong_password")
    wait = throttled(change(logged_in(ann, "10.0.6.9"), old="pw"))
    refused(change(logged_in(bob, "10.0.6.9")), 400, "wrong_password")  # another player
    throttle_clock.advance(wait)
    ok(change(logged_in(ann, "10.0.6.9"), old="pw"))


def test_password_changes_from_one_address_are_throttled(settings, throttle_clock, ann, make_user):
    set_rates(settings, password_address="2/m")
    players = [ann, make_user("bob"), make_user("cy")]
    for player in players[:2]:
        refused(change(logged_in(player, "10.0.7.1")), 400, "wrong_password")
    wait = throttled(change(logged_in(players[2], "10.0.7.1")))
    refused(change(logged_in(players[2], "10.0.7.2")), 400, "wrong_password")
    throttle_clock.advance(wait)
    refused(change(logged_in(players[2], "10.0.7.1")), 400, "wrong_password")
