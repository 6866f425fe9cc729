"""``manage.py grant_role USERNAME ROLE [--revoke]``: make a user staff, a
cashier, a tournament director or floor staff (or take it back), for
operators without the admin at hand (the admin's user list has the same
grants and revocations as actions)."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from accounts import services
from accounts.roles import ROLES

STAFF = "staff"
"""Not a group: ``is_staff`` (opens and closes tables, logs in to the admin)."""


class Command(BaseCommand):
    help = (
        "Grant a role to a user by username (--revoke: take it away): staff (is_staff), "
        f"or one of the staff roles {', '.join(ROLES)} (which also make the user staff)."
    )

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("username", help="the user (exact username)")
        parser.add_argument("role", choices=[STAFF, *ROLES], help="the role")
        parser.add_argument(
            "--revoke",
            action="store_true",
            help="take the role away (revoking a staff role leaves is_staff as it is)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        username, role, revoke = options["username"], options["role"], options["revoke"]
        model = get_user_model()
        with transaction.atomic():
            user = model.objects.select_for_update().filter(username=username).first()
            if user is None:
                raise CommandError(f"no user {username!r} (createsuperuser or register first)")
            if role == STAFF:
                user.is_staff = not revoke
                user.save(update_fields=["is_staff"])
            elif revoke:
                services.role_revoke(user=user, role=role)
            else:
                services.role_grant(user=user, role=role)
        done = "revoked from" if revoke else "granted to"
        self.stdout.write(f"{role} {done} {username}")
