"""A staff member's second factor as a test drives it: the code his
authenticator shows now, and the admin's login form."""

from __future__ import annotations

from django.test import Client
from django_otp.oath import TOTP
from django_otp.plugins.otp_totp.models import TOTPDevice

ADMIN_LOGIN = "/admin/login/"


def code_of(device: TOTPDevice) -> str:
    """The code the authenticator app shows now."""
    return str(
        TOTP(device.bin_key, device.step, device.t0, device.digits, device.drift).token()
    ).zfill(device.digits)


def admin_login(client: Client, username: str, password: str, **more: str) -> object:
    return client.post(ADMIN_LOGIN, {"username": username, "password": password, **more})
