"""The staff's doors: the admin's login throttled as the API's is, and,
with ``STAFF_REQUIRE_OTP`` on, a code of the staff member's TOTP device
(real codes, computed as an authenticator app does) at API login, at the
admin's login, and for every request a staff token or session makes."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import call_command
from django.test import Client
from django_otp.plugins.otp_totp.models import TOTPDevice
from rest_framework.test import APIClient

from accounts import second_factor
from tests.accounts.otp_support import admin_login, code_of
from tests.poker.api_support import ok, post, refused
from tests.throttling import set_rates

pytestmark = pytest.mark.django_db


def api_login(username: str, **more: str) -> object:
    return post(APIClient(), "/api/auth/login/", username=username, password="pw", **more)


def with_token(token: str) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    return client


@pytest.fixture
def otp_on(settings):
    settings.STAFF_REQUIRE_OTP = True


# --------------------------------------------------------------------------
# The admin's login is throttled


def test_guesses_at_the_admins_login_are_throttled_per_account(settings, throttle_clock, cashier):
    set_rates(settings, login_account="3/m")
    for n in range(3):
        guess = admin_login(Client(REMOTE_ADDR=f"10.0.3.{n}"), "cashier", "wrong")
        assert guess.status_code == 200  # the form again, with its error
    refused_ = admin_login(Client(REMOTE_ADDR="10.0.3.9"), "cashier", "pw")  # even the right one
    assert refused_.status_code == 429 and 1 <= int(refused_["Retry-After"]) <= 60
    assert admin_login(Client(REMOTE_ADDR="10.0.3.10"), " CASHIER ", "pw").status_code == 429
    refused(api_login("cashier"), 429, "throttled")  # the API's logins count with them
    throttle_clock.advance(int(refused_["Retry-After"]))
    assert admin_login(Client(), "cashier", "pw").status_code == 302  # in


def test_guesses_from_one_address_at_the_admins_login_are_throttled(
    settings, throttle_clock, make_user
):
    set_rates(settings, login_address="2/m")
    client = Client(REMOTE_ADDR="10.0.4.1")
    for n in range(2):
        assert admin_login(client, f"nobody{n}", "wrong").status_code == 200
    assert admin_login(client, "somebody", "wrong").status_code == 429


def test_the_admins_login_throttle_speaks_the_browsers_language(
    settings, throttle_clock, make_user
):
    set_rates(settings, login_address="1/m")
    german = Client(REMOTE_ADDR="10.0.5.1", HTTP_ACCEPT_LANGUAGE="de")
    assert admin_login(german, "nobody", "wrong").status_code == 200
    refused_ = admin_login(german, "nobody", "wrong")
    wait = refused_["Retry-After"]
    assert refused_.status_code == 429
    said = f"Zu viele Anmeldeversuche: versuchen Sie es in {wait} Sekunden wieder."
    assert refused_.content.decode() == said
    english = admin_login(Client(REMOTE_ADDR="10.0.5.1"), "nobody", "wrong")
    assert english.content.decode().startswith("Too many login attempts: try again in ")


# --------------------------------------------------------------------------
# The second factor


def test_with_the_setting_off_staff_log_in_with_a_password(cashier):
    ok(api_login("cashier"))
    assert admin_login(Client(), "cashier", "pw").status_code == 302


def test_a_staff_api_login_needs_a_current_code_of_his_device(otp_on, cashier):
    refused(api_login("cashier"), 400, "second_factor_required")  # no device yet
    device = second_factor.enrol(cashier)
    refused(api_login("cashier"), 400, "second_factor_required")
    session = ok(api_login("cashier", otp=code_of(device)))
    staff = with_token(session["token"])
    ok(staff.get(f"/api/players/{cashier.pk}/notes/"))  # a staff operation
    refused(
        api_login("cashier", otp=code_of(device)), 400, "bad_second_factor"
    )  # a code works once
    wrong = "000000" if code_of(device) != "000000" else "111111"
    refused(api_login("cashier", otp=wrong), 400, "bad_second_factor")


def test_a_player_is_never_asked_for_a_code(otp_on, make_user):
    make_user("ann")
    token = ok(api_login("ann"))["token"]
    ok(with_token(token).get("/api/me/"))


def test_a_token_from_before_he_was_made_staff_is_refused(otp_on, make_user):
    from accounts import services

    ann = make_user("ann")
    token = ok(api_login("ann"))["token"]
    services.role_grant(user=ann, role="cashier")
    refused(with_token(token).get("/api/me/"), 401, "second_factor_required")
    device = second_factor.enrol(ann)
    ok(with_token(ok(api_login("ann", otp=code_of(device)))["token"]).get("/api/me/"))


def test_a_session_logged_in_with_a_code_reaches_the_admin_and_one_without_does_not(
    otp_on, cashier, make_user
):
    device = second_factor.enrol(cashier)
    plain = Client()
    assert admin_login(plain, "cashier", "pw").status_code == 200  # the form asks for the code
    assert plain.get("/admin/").status_code == 302  # back to the login
    verified = Client()
    reply = admin_login(
        verified, "cashier", "pw", otp_device=device.persistent_id, otp_token=code_of(device)
    )
    assert reply.status_code == 302
    assert verified.get("/admin/").status_code == 200


def test_an_unverified_staff_session_is_refused_by_the_api(otp_on, cashier):
    client = APIClient()
    client.force_login(cashier)
    refused(client.get("/api/me/"), 401, "second_factor_required")


def test_otp_enrol_makes_a_confirmed_device_and_prints_its_address(cashier):
    out = StringIO()
    call_command("otp_enrol", "cashier", stdout=out)
    device = TOTPDevice.objects.get(user=cashier)
    assert device.confirmed and device.config_url in out.getvalue()
    assert out.getvalue().count("otpauth://totp/") == 1
