"""``manage.py lock_account USERNAME --reason WHY [--unlock] [--by STAFF]``:
lock a player's account (he cannot log in, his tokens stop working, he is
taken out of play) or unlock it, recorded with who and why."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from accounts import locks
from accounts.management.console import refusals, user_named


class Command(BaseCommand):
    help = (
        "Lock an account by username (--unlock: unlock it), with a reason. A locked player "
        "cannot log in; his tokens and sessions stop working; he leaves his cash tables "
        "(a hand he is in is folded) and is sat out at his tournament tables."
    )

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("username", help="the player (exact username)")
        parser.add_argument("--reason", required=True, help="why (kept with the record)")
        parser.add_argument("--unlock", action="store_true", help="unlock instead")
        parser.add_argument(
            "--by",
            default=None,
            help="the member of staff acting (needs accounts.lock_accounts); "
            "left out: recorded as the console's login",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        user = user_named(options["username"])
        by = None if options["by"] is None else user_named(options["by"])
        act = locks.account_unlock if options["unlock"] else locks.account_lock
        with refusals():
            done = act(user=user, reason=options["reason"], by=by)
        for line in done.notes:
            self.stdout.write(line)
        for line in done.problems:
            self.stderr.write(line)
        verb = "unlocked" if options["unlock"] else "locked"
        assert done.record is not None
        self.stdout.write(f"{user.username} {verb} by {done.record.by_label}")
