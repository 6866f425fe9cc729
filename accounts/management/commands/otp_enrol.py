"""``manage.py otp_enrol <username>``: a new TOTP device for a staff
member's authenticator app; prints the otpauth:// address to scan or type
(shown once, never logged)."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from accounts import second_factor
from accounts.management.console import user_named


class Command(BaseCommand):
    help = "Enrol a TOTP device (authenticator app) for a staff account's second factor."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("username")
        parser.add_argument("--name", default="authenticator", help="what to call the device")

    def handle(self, *args: Any, username: str, name: str, **options: Any) -> None:
        device = second_factor.enrol(user_named(username), name)
        self.stdout.write(f"Device {device.pk} for {username}; add it to the authenticator app:")
        self.stdout.write(device.config_url)
