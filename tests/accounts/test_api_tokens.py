"""API tokens (django-rest-knox): one per login, per device; stored hashed;
they expire after ``TOKEN_TTL_HOURS``; a logout revokes only its own, a
logout-all every one."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from knox.models import AuthToken
from rest_framework.test import APIClient

from accounts import services
from tests.poker.api_support import ok, post, refused

STRONG = "correct horse battery"

pytestmark = pytest.mark.django_db


@pytest.fixture
def ann(db):
    return services.user_register(username="ann", password=STRONG)


def device(key: str) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    return client


def log_in(path: str = "/api/auth/login/") -> str:
    return str(ok(post(APIClient(), path, username="ann", password=STRONG))["token"])


def works(key: str) -> bool:
    response = device(key).get("/api/me/")
    if response.status_code == 401:
        assert response.json()["code"] == "authentication_failed"
        return False
    return bool(ok(response)["username"] == "ann")


def test_each_login_and_token_request_makes_a_token_of_its_own(ann):
    keys = [log_in(), log_in(), log_in("/api/auth/token/"), log_in("/api/auth/token/")]
    assert len(set(keys)) == 4
    assert all(works(k) for k in keys)
    assert AuthToken.objects.filter(user=ann).count() == 4


def test_tokens_are_stored_hashed(ann):
    key = log_in()
    row = AuthToken.objects.get(user=ann)
    assert key not in row.digest and row.token_key == key[: len(row.token_key)] != key


def test_logout_revokes_only_the_token_it_came_with(ann):
    phone, laptop = log_in(), log_in()
    assert device(phone).post("/api/auth/logout/").status_code == 204
    assert not works(phone)
    assert works(laptop)


def test_logout_all_revokes_every_token(ann):
    phone, laptop = log_in(), log_in()
    browser = APIClient()
    ok(post(browser, "/api/auth/login/", username="ann", password=STRONG))
    assert device(phone).post("/api/auth/logout-all/").status_code == 204
    assert not works(phone) and not works(laptop)
    assert not AuthToken.objects.filter(user=ann).exists()
    refused(device(phone).post("/api/auth/logout-all/"), 401, "authentication_failed")


def test_logout_all_needs_a_login():
    refused(APIClient().post("/api/auth/logout-all/"), 401, "not_authenticated")


def test_a_token_expires_after_the_configured_hours(ann, settings):
    settings.REST_KNOX = {**settings.REST_KNOX, "TOKEN_TTL": timedelta(hours=2)}
    before = timezone.now()
    body = ok(post(APIClient(), "/api/auth/login/", username="ann", password=STRONG))
    expiry = parse_datetime(body["expiry"])
    assert expiry is not None
    assert before + timedelta(hours=2) <= expiry <= timezone.now() + timedelta(hours=2)
    assert works(body["token"])
    AuthToken.objects.filter(user=ann).update(expiry=timezone.now() - timedelta(seconds=1))
    assert not works(body["token"])
    assert not AuthToken.objects.filter(user=ann).exists()  # an expired token is deleted


def test_the_token_lifetime_is_a_setting():
    from django.conf import settings

    assert settings.REST_KNOX["TOKEN_TTL"] == timedelta(hours=settings.TOKEN_TTL_HOURS)


def test_a_password_change_revokes_every_other_token(ann):
    phone, laptop = log_in(), log_in()
    change = {"old_password": STRONG, "new_password": "another good one"}
    body = ok(device(phone).post("/api/auth/password/", change, format="json"))
    assert body["expiry"] and not works(phone) and not works(laptop)
    assert works(body["token"])
