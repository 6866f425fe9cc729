"""What a player sets to limit himself, and where the room holds him to it.

- **Self-exclusion** for a number of days: while it runs he may not take a
  seat, register for a tournament or have money deposited
  (``SelfExcluded``, 403), and setting it makes him leave his cash tables
  (a tournament he is playing he may play out: his money is in it).  It
  only ever grows: asking for one that ends sooner than the one in force
  is refused (``ExclusionShortened``, 409), as rooms do (the point is that
  the player in a weak moment cannot undo it).
- **A deposit limit** for any 24 hours: lowering it (or setting a first
  one) holds at once; raising or removing it holds only after a cooling-off
  of ``COOLING_OFF`` (the request waits as ``next_daily_deposit``; a newer
  request replaces a waiting one).  ``deposit_check`` refuses a deposit
  that would take the deposits of the last 24 hours past the limit in
  force (``DepositLimitReached``, 409).

Both live in the player's ``PlayerLimits`` row.  A deposit locks that row
(when it exists) before it checks, so two deposits cannot both pass
against the same room under the limit; the lock is taken before any ledger
account's, and nothing that holds a ledger lock waits for it, so no cycle
of waits can form.  A locked account (``accounts.locks``) is refused
here too, so one check at each door covers both.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.db import transaction
from django.db.models import Sum
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts import ledger, locks
from accounts.errors import (
    AccountLocked,
    BadAmount,
    DepositLimitReached,
    ExclusionShortened,
    SelfExcluded,
)
from accounts.models import Entry, PlayerLimits, Transfer, User

COOLING_OFF = timedelta(hours=24)
"""How long a raised (or removed) deposit limit waits before it holds."""
WINDOW = timedelta(hours=24)
"""The deposit limit counts the deposits of this last stretch of time."""
MAX_EXCLUSION_DAYS = 3650
"""The longest self-exclusion one request sets (ten years)."""


def now() -> datetime:
    """The time limits are judged at (one place, so tests can move it)."""
    return timezone.now()


@dataclass(frozen=True)
class Limits:
    """A player's limits as they hold at ``at``."""

    excluded_until: datetime | None
    """The end of a self-exclusion in force (None: not excluded)."""
    daily_deposit: int | None
    """The deposit limit in force (None: no limit)."""
    next_daily_deposit: int | None
    """A raised limit waiting out the cooling-off (None: none at all)."""
    next_from: datetime | None
    """When it holds (None: nothing waiting)."""


def _in_force(row: PlayerLimits | None, at: datetime) -> Limits:
    if row is None:
        return Limits(None, None, None, None)
    excluded = row.excluded_until if row.excluded_until and row.excluded_until > at else None
    if row.next_from is not None and row.next_from <= at:
        return Limits(excluded, row.next_daily_deposit, None, None)
    return Limits(excluded, row.daily_deposit, row.next_daily_deposit, row.next_from)


def limits_of(*, user_id: int) -> Limits:
    """The player's limits as they hold now."""
    return _in_force(PlayerLimits.objects.filter(user_id=user_id).first(), now())


def _locked_row(user_id: int) -> PlayerLimits:
    """The player's row, made if missing, locked for this transaction."""
    PlayerLimits.objects.get_or_create(user_id=user_id)
    return PlayerLimits.objects.select_for_update().get(user_id=user_id)


def _save(row: PlayerLimits, limits: Limits, at: datetime) -> None:
    row.excluded_until = limits.excluded_until or row.excluded_until
    row.daily_deposit = limits.daily_deposit
    row.next_daily_deposit = limits.next_daily_deposit
    row.next_from = limits.next_from
    row.updated_at = at
    row.save()


def self_exclusion_set(*, user: User, days: int) -> Limits:
    """Exclude the player from play for ``days`` from now; refused if one
    in force ends later (it is never shortened).  Once it has committed he
    leaves his cash tables as if he had asked (``locks.out_of_play``); a
    tournament he is playing he may play out, as its money is in it."""
    if type(days) is not int or not 1 <= days <= MAX_EXCLUSION_DAYS:
        raise BadAmount(
            _("Days are a whole number from 1 to %(most)s.") % {"most": MAX_EXCLUSION_DAYS}
        )
    at = now()
    until = at + timedelta(days=days)
    with transaction.atomic():
        row = _locked_row(user.pk)
        limits = _in_force(row, at)
        if limits.excluded_until is not None and limits.excluded_until > until:
            raise ExclusionShortened(extra={"until": limits.excluded_until.isoformat()})
        limits = Limits(until, limits.daily_deposit, limits.next_daily_deposit, limits.next_from)
        _save(row, limits, at)
    locks.out_of_play(user_id=user.pk, tournaments=False)
    return limits


def deposit_limit_set(*, user: User, daily: int | None) -> Limits:
    """Set the most the player may deposit in 24 hours (None: no limit).
    Lower than the limit in force (or a first limit): at once, and any
    raise waiting is dropped; higher, or none: after ``COOLING_OFF``."""
    if daily is not None and (type(daily) is not int or daily < 0):
        raise BadAmount(_("A deposit limit is a whole number of at least 0, or null for none."))
    at = now()
    with transaction.atomic():
        row = _locked_row(user.pk)
        held = _in_force(row, at)
        current = held.daily_deposit
        if daily is not None and (current is None or daily <= current):
            limits = Limits(held.excluded_until, daily, None, None)
        else:
            limits = Limits(held.excluded_until, current, daily, at + COOLING_OFF)
        _save(row, limits, at)
    return limits


def deposited(*, user_id: int, since: datetime, using: str = "default") -> int:
    """What was deposited into the player's cash since ``since``."""
    total = (
        Entry.objects.using(using)
        .filter(
            account__key=ledger.cash(user_id).key,
            transfer__kind=Transfer.Kind.DEPOSIT,
            transfer__created_at__gte=since,
        )
        .aggregate(total=Sum("amount"))["total"]
    )
    return int(total or 0)


def play_check(user: Any) -> None:
    """Refuse a player who may not play now: his account is locked, or he
    excluded himself.  Called by every door to play: a seat at a cash
    table (``poker.services.seat_sit``) and a tournament registration."""
    if not user.is_active:
        raise AccountLocked()
    _excluded_check(limits_of(user_id=user.pk))


def _excluded_check(limits: Limits) -> None:
    if limits.excluded_until is not None:
        until = limits.excluded_until.isoformat()
        raise SelfExcluded(
            _("You have excluded yourself until %(until)s.") % {"until": until},
            extra={"until": until},
        )


def deposit_check(*, user_id: int, amount: int, using: str = "default") -> None:
    """Refuse a deposit to a self-excluded player or one past his limit,
    in the deposit's transaction (the player's limits row stays locked to
    its end, so a second deposit waits and then counts this one)."""
    if not PlayerLimits.objects.using(using).filter(user_id=user_id).exists():
        return
    at = now()
    row = PlayerLimits.objects.using(using).select_for_update().get(user_id=user_id)
    limits = _in_force(row, at)
    _excluded_check(limits)
    if limits.daily_deposit is None:
        return
    total = deposited(user_id=user_id, since=at - WINDOW, using=using)
    remaining = max(0, limits.daily_deposit - total)
    if amount > remaining:
        raise DepositLimitReached(
            _("At most %(remaining)s more may be deposited in these 24 hours (limit %(limit)s).")
            % {"remaining": remaining, "limit": limits.daily_deposit},
            extra={"limit": limits.daily_deposit, "remaining": remaining},
        )


def limits_view(*, user_id: int) -> dict[str, Any]:
    """The player's limits as he sees them (``LimitsOut``)."""
    at = now()
    held = _in_force(PlayerLimits.objects.filter(user_id=user_id).first(), at)
    total = deposited(user_id=user_id, since=at - WINDOW)
    remaining = None if held.daily_deposit is None else max(0, held.daily_deposit - total)
    return {
        "excluded_until": held.excluded_until,
        "daily_deposit": held.daily_deposit,
        "next_daily_deposit": held.next_daily_deposit,
        "next_from": held.next_from,
        "deposited_24h": total,
        "deposit_remaining": remaining,
    }
