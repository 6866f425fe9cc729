"""``manage.py lock_account USERNAME --reason WHY [--unlock] [--by STAFF]``:
lock a player's account (he cannot log in, his tokens stop working, he is
taken out of play) or unlock it, recorded with who and why."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from accounts import locks
from kernel.api_errors import ApiError


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
        model = get_user_model()
        user = model.objects.filter(username=options["username"]).first()
        if user is None:
            raise CommandError(f"no user {options['username']!r}")
        by = None
        if options["by"] is not None:
            by = model.objects.filter(username=options["by"]).first()
            if by is None:
                raise CommandError(f"no user {options['by']!r}")
        act = locks.account_unlock if options["unlock"] else locks.account_lock
        try:
            done = act(user=user, reason=options["reason"], by=by)
        except ApiError as error:
            raise CommandError(error.message) from error
        for line in done.notes:
            self.stdout.write(line)
        for line in done.problems:
            self.stderr.write(line)
        verb = "unlocked" if options["unlock"] else "locked"
        assert done.record is not None
        self.stdout.write(f"{user.username} {verb} by {done.record.by_label}")
