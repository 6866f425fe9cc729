"""Players through the API: registration, login with a token and a
session, logout, password change, the profile (screen name shown at
tables), and roles."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from knox.models import AuthToken
from rest_framework.test import APIClient

from accounts import services
from poker import services as tables
from tests.funds import fund
from tests.poker.api_support import ok, post, refused

STRONG = "correct horse battery"


def register(client: APIClient, **body: object) -> object:
    body = {"username": "ann", "password": STRONG, **body}
    return post(client, "/api/auth/register/", body)


def token_client(key: str) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    return client


# --------------------------------------------------------------------------
# Registration


@pytest.mark.django_db
def test_registration_makes_a_player_logged_in_with_a_token_and_a_session():
    client = APIClient()
    body = ok(register(client, screen_name="Annie", email="ann@example.com"), 201)
    assert body["user"]["username"] == "ann" and body["user"]["screen_name"] == "Annie"
    assert body["user"]["roles"] == ["player"] and body["user"]["is_staff"] is False
    assert ok(token_client(body["token"]).get("/api/me/"))["username"] == "ann"
    assert ok(client.get("/api/me/"))["username"] == "ann"  # the session cookie
    assert get_user_model().objects.get(username="ann").check_password(STRONG)


@pytest.mark.django_db
def test_the_screen_name_defaults_to_the_username():
    assert ok(register(APIClient()), 201)["user"]["screen_name"] == "ann"


@pytest.mark.django_db
def test_a_taken_username_is_409_whatever_its_case():
    ok(register(APIClient()), 201)
    refused(register(APIClient(), username="ANN", screen_name="other"), 409, "username_taken")
    assert get_user_model().objects.count() == 1


@pytest.mark.django_db
def test_a_taken_screen_name_is_409():
    ok(register(APIClient(), screen_name="Ace"), 201)
    refused(register(APIClient(), username="bob", screen_name="ace"), 409, "screen_name_taken")


@pytest.mark.django_db
@pytest.mark.parametrize(
    "body",
    [
        {"password": "short"},
        {"password": "password"},
        {"password": "1234567890"},
        {"username": "a b"},
        {"username": ""},
        {"email": "not-an-email"},
    ],
)
def test_a_weak_password_or_a_bad_name_is_400_invalid(body):
    response = register(APIClient(), **body)
    assert refused(response, 400, "invalid")["fields"]
    assert not get_user_model().objects.exists()


# --------------------------------------------------------------------------
# Logging in and out


@pytest.fixture
def ann(db):
    return services.user_register(username="ann", password=STRONG)


def test_login_gives_a_token_and_a_session(ann):
    client = APIClient()
    body = ok(post(client, "/api/auth/login/", username="ann", password=STRONG))
    assert AuthToken.objects.filter(user=ann).count() == 1 and body["expiry"]
    assert ok(client.get("/api/me/"))["id"] == ann.pk
    assert ok(token_client(body["token"]).get("/api/me/"))["id"] == ann.pk


def test_a_wrong_password_is_refused(ann):
    response = post(APIClient(), "/api/auth/login/", username="ann", password="nope")
    refused(response, 400, "bad_credentials")


def test_an_inactive_player_cannot_log_in(ann):
    ann.is_active = False
    ann.save()
    response = post(APIClient(), "/api/auth/login/", username="ann", password=STRONG)
    refused(response, 400, "bad_credentials")


def test_logout_ends_the_session_and_its_token(ann):
    client = APIClient()
    key = ok(post(client, "/api/auth/login/", username="ann", password=STRONG))["token"]
    assert token_client(key).post("/api/auth/logout/").status_code == 204
    refused(token_client(key).get("/api/me/"), 401, "authentication_failed")
    client.post("/api/auth/logout/")
    refused(client.get("/api/me/"), 401, "not_authenticated")


def test_me_needs_a_login():
    refused(APIClient().get("/api/me/"), 401, "not_authenticated")


# --------------------------------------------------------------------------
# Password change


def test_a_password_change_needs_the_old_password_and_replaces_the_tokens(ann):
    client = APIClient()
    old_key = ok(post(client, "/api/auth/login/", username="ann", password=STRONG))["token"]
    bad = {"old_password": "nope", "new_password": "another good one"}
    refused(post(client, "/api/auth/password/", bad), 400, "wrong_password")
    weak = {"old_password": STRONG, "new_password": "123"}
    refused(post(client, "/api/auth/password/", weak), 400, "invalid")
    good = {"old_password": STRONG, "new_password": "another good one"}
    new_key = ok(post(client, "/api/auth/password/", good))["token"]
    assert new_key != old_key
    refused(token_client(old_key).get("/api/me/"), 401, "authentication_failed")
    assert ok(token_client(new_key).get("/api/me/"))["id"] == ann.pk
    assert ok(client.get("/api/me/"))["id"] == ann.pk  # this session stays
    login = {"username": "ann", "password": "another good one"}
    ok(post(APIClient(), "/api/auth/login/", login))


# --------------------------------------------------------------------------
# Profile


def test_a_player_changes_his_screen_name_and_tables_show_it(ann, make_user):
    client = APIClient()
    client.force_authenticate(ann)
    answer = ok(client.patch("/api/me/", {"screen_name": "The Shark"}, format="json"))
    assert answer["screen_name"] == "The Shark"
    boss = make_user("boss", staff=True)
    table = tables.table_create(
        by=boss, name="t", game="32-card-draw", betting="no-limit", small_blind=1, big_blind=2
    )
    fund(ann, 100)
    view = tables.seat_sit(by=ann, table_id=table.pk, seat=1, buy_in=100)
    assert view["seats"][0]["screen_name"] == "The Shark"


def test_a_screen_name_taken_by_another_is_409(ann, make_user):
    make_user("bob")
    services.profile_update(user=get_user_model().objects.get(username="bob"), screen_name="Ace")
    client = APIClient()
    client.force_authenticate(ann)
    refused(
        client.patch("/api/me/", {"screen_name": "ACE"}, format="json"), 409, "screen_name_taken"
    )


# --------------------------------------------------------------------------
# Roles


@pytest.mark.parametrize(
    ("role", "can", "cannot"),
    [
        ("cashier", {"accounts.view_wallets", "accounts.move_cash"}, "direct_tournaments"),
        (
            "tournament_director",
            {"accounts.view_wallets", "accounts.direct_tournaments"},
            "move_cash",
        ),
    ],
)
def test_a_staff_role_is_a_set_of_permissions(make_user, role, can, cannot):
    user = make_user("sam", role=role)
    assert can <= user.get_all_permissions()
    assert not user.has_perm(f"accounts.{cannot}")
    assert user.is_staff
    client = APIClient()
    client.force_authenticate(user)
    assert ok(client.get("/api/me/"))["roles"] == ["player", role]


def test_a_player_has_no_staff_permission(make_user):
    user = make_user("pat")
    assert not user.get_all_permissions()
    services.role_grant(user=user, role="cashier")
    services.role_revoke(user=user, role="cashier")
    assert not get_user_model().objects.get(pk=user.pk).get_all_permissions()
