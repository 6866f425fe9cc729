"""The staff's second factor: a TOTP device (django-otp) when
``settings.STAFF_REQUIRE_OTP`` is on (the production profile's default).

A staff account (``is_staff``, a superuser, or the holder of any role:
those move money, lock players, direct tournaments) then proves a code of
his confirmed device:

- at API login and token requests (``otp`` beside the password): the
  token issued is marked verified (``VerifiedToken``) and the session too
  (django-otp's own login);
- at the admin's login (django-otp's admin form);
- on every API request: a staff account's token that was not issued after
  a code (one from before he was made staff, or before the setting), or an
  unverified session, is refused with 401 ``second_factor_required``
  (``config.auth``): he logs in again with a code;
- on every socket: such a token or session opens it as nobody, and an open
  socket whose credential stops passing ends as a revoked one does
  (``config.ws_auth.credential_user``).

Players are never asked.  A device is enrolled with ``manage.py
otp_enrol <username>`` (or in the admin's TOTP devices).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.conf import settings
from django_otp import DEVICE_ID_SESSION_KEY, devices_for_user, match_token
from django_otp.models import Device
from django_otp.plugins.otp_totp.models import TOTPDevice
from knox.models import AuthToken

from accounts.errors import BadSecondFactor, SecondFactorRequired
from accounts.models import VerifiedToken


def required(user: Any) -> bool:
    """Whether ``user`` must prove a second factor (the setting is on and he
    is staff)."""
    if not settings.STAFF_REQUIRE_OTP or not user.is_authenticated:
        return False
    return bool(user.is_staff or user.is_superuser or user.groups.exists())


def checked(user: Any, code: str | None) -> Device | None:
    """The device ``code`` is a current code of, for a user who must give
    one (None for any other); ``SecondFactorRequired`` without a code (or
    without a device), ``BadSecondFactor`` for a wrong one."""
    if not required(user):
        return None
    if not code or not any(devices_for_user(user)):
        raise SecondFactorRequired()
    device = match_token(user, code)
    if device is None:
        raise BadSecondFactor()
    return device


def token_verified(token: AuthToken) -> None:
    """Mark a token as issued after a second factor."""
    VerifiedToken.objects.get_or_create(token=token)


def token_passes(user: Any, token: AuthToken) -> bool:
    """Whether a request made with ``token`` may go on."""
    return not required(user) or VerifiedToken.objects.filter(token=token).exists()


def session_passes(user: Any) -> bool:
    """Whether a request made with ``user``'s session may go on (django-otp's
    middleware says whether the session was verified)."""
    return not required(user) or bool(getattr(user, "is_verified", lambda: False)())


def stored_session_passes(user: Any, session: Mapping[str, Any]) -> bool:
    """Whether a socket opened with ``user``'s stored ``session`` may go
    on: as ``session_passes``, read from the session itself (a socket has no
    django-otp middleware): the device django-otp's login verified it with
    is still a confirmed device of his."""
    if not required(user):
        return True
    persistent_id = session.get(DEVICE_ID_SESSION_KEY)
    device = Device.from_persistent_id(persistent_id) if persistent_id else None
    return device is not None and device.user_id == user.pk and device.confirmed


def enrol(user: Any, name: str = "authenticator") -> TOTPDevice:
    """A new confirmed TOTP device of ``user``: its ``config_url`` is the
    otpauth:// address an authenticator app reads (as a QR code or typed)."""
    device: TOTPDevice = TOTPDevice.objects.create(user=user, name=name, confirmed=True)
    return device
