"""``manage.py find_player TEXT``: the players whose username, screen name
or email holds TEXT (or whose screen name reads as it), one a line."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError

from accounts.roles import user_roles
from accounts.selectors import players_find


class Command(BaseCommand):
    help = (
        "Find players by part of a username, screen name or email (any case), or by a "
        "screen name written with look-alike letters. Prints id, username, screen name, "
        "email, roles and whether the account is locked."
    )

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("text", help="what to look for")

    def handle(self, *args: Any, **options: Any) -> None:
        found = list(players_find(query=options["text"]))
        if not found:
            raise CommandError(f"no player matches {options['text']!r}", returncode=1)
        for user in found:
            state = "LOCKED" if not user.is_active else "active"
            roles = ",".join(user_roles(user))
            email = user.email or "-"
            self.stdout.write(
                f"{user.pk}\t{user.username}\t{user.screen_name}\t{email}\t{roles}\t{state}"
            )
