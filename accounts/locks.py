"""Locking a player's account, and what follows from it.

A locked account is ``User.is_active = False``, which Django and knox
already refuse everywhere a user proves who he is: a login or a token
request (bad credentials), a session (anonymous from then on), a knox
token (``authentication_failed``; all his tokens are deleted as well) and
a WebSocket's token; a socket he already has open is closed
(``accounts.frames.announce_locked``).  ``accounts.limits.play_check`` refuses him a seat or
a registration whatever a caller holds.

Each lock and unlock is an ``AccountLock`` row with who and why, written
in the flag's transaction.  Once it has committed, the receivers that
higher apps connect to ``out_of_play_requested`` take him out of play: the
cash tables make him leave as if he had asked (a hand he is in is folded
and he leaves when it ends), the tournament tables sit him out.  They run
after the commit, one table command each, so a table that is busy cannot
hold up or undo the lock; what they did (or could not do) is returned
for the operator to read.
"""

from __future__ import annotations

import getpass
import logging
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.dispatch import Signal
from django.utils.translation import gettext as _
from knox.models import AuthToken

from accounts.errors import NotPermitted
from accounts.frames import announce_locked
from accounts.models import AccountLock, User
from kernel.api_errors import ApiError

log = logging.getLogger(__name__)

LOCK_PERMISSION = "accounts.lock_accounts"
MAX_REASON = 500

out_of_play_requested = Signal()
"""Sent, after a lock (or a self-exclusion) committed, with ``user_id``,
``by`` (who acts) and ``tournaments`` (at tournament tables too): each
receiver, connected by a higher app in its ``ready`` (accounts never
imports it), takes the player out of play at its tables and answers a
line for each table."""


def out_of_play(*, user_id: int, by: Any = None, tournaments: bool = True) -> LockDone:
    """Tell every receiver to take the player out of play (after the commit
    that says why); what they did and what failed, each a line.  A
    receiver's failure is logged and said, and hides nothing the others did."""
    notes: list[str] = []
    problems: list[str] = []
    answers = out_of_play_requested.send_robust(
        sender=None, user_id=user_id, by=by, tournaments=tournaments
    )
    for receiver, answer in answers:
        if isinstance(answer, Exception):
            log.error("out-of-play receiver %r failed for %s", receiver, user_id, exc_info=answer)
            where = f"{getattr(receiver, '__module__', '')}.{getattr(receiver, '__name__', '')}"
            problems.append(f"{where}: {answer}")
        else:
            notes += answer
    return LockDone(None, notes, problems)


@dataclass(frozen=True)
class LockDone:
    """A lock or unlock carried out: its record and, for a lock, what the
    listeners did (``notes``) and could not do (``problems``)."""

    record: AccountLock | None
    """None: no lock (a self-exclusion took him out of play)."""
    notes: list[str]
    problems: list[str]


class BadReason(ApiError):
    """A lock or unlock without a reason, or with one too long."""

    status = 400
    code = "invalid"

    def __init__(self) -> None:
        super().__init__(_("Say why, in 1 to {most} characters.").format(most=MAX_REASON))


def _who(by: Any) -> tuple[Any, str]:
    """The member of staff acting (checked), or the console's login."""
    if by is None:
        try:
            return None, f"console:{getpass.getuser()}"
        except (KeyError, OSError):
            return None, "console"
    if not by.has_perm(LOCK_PERMISSION):
        raise NotPermitted(_("Only floor staff lock and unlock accounts."))
    return by, str(by.get_username())


def _record(user: User, *, locked: bool, by: Any, reason: str) -> AccountLock:
    reason = reason.strip()
    if not 0 < len(reason) <= MAX_REASON:
        raise BadReason()
    staff, label = _who(by)
    with transaction.atomic():
        row = User.objects.select_for_update().get(pk=user.pk)
        row.is_active = not locked
        row.save(update_fields=["is_active"])
        if locked:
            AuthToken.objects.filter(user=row).delete()
            announce_locked(row.pk)
        record = AccountLock.objects.create(
            user=row, locked=locked, reason=reason, by=staff, by_label=label
        )
    user.is_active = not locked
    return record


def account_lock(*, user: User, reason: str, by: Any = None) -> LockDone:
    """Lock the account (``by``: staff with ``accounts.lock_accounts``, or
    None for an operator at the console): he cannot log in, his tokens and
    sessions stop working, and he is taken out of play at every table."""
    record = _record(user, locked=True, by=by, reason=reason)
    done = out_of_play(user_id=user.pk, by=by)
    return LockDone(record, done.notes, done.problems)


def account_unlock(*, user: User, reason: str, by: Any = None) -> LockDone:
    """Unlock the account: he may log in (with new tokens) and play again."""
    return LockDone(_record(user, locked=False, by=by, reason=reason), [], [])
