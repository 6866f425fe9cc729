"""Players, their roles, and the wallet ledger.

The ledger is double-entry and append-only: every movement of money or
tickets is one ``Transfer`` of two or more ``Entry`` rows that sum to zero
(per unit), written once and never changed.  ``Account.balance`` is a
projection of an account's entries, written in the same transaction as
them and checked against them by ``manage.py audit_ledger``.  Only
``accounts.ledger`` writes these rows.
"""

from __future__ import annotations

from functools import partial
from typing import Any

from django.conf import settings
from django.contrib.auth.models import AbstractUser
from django.core.exceptions import ValidationError
from django.db import models, router
from django.db.models import Q
from django.utils import timezone

from accounts import names
from accounts.errors import ScreenNameTaken
from kernel.api_errors import ApiError


class User(AbstractUser):
    """A player or member of staff (``is_staff``: may open and close tables;
    the cashier and tournament director roles are groups of permissions,
    see ``accounts.roles``)."""

    screen_name = models.CharField(max_length=names.MAX_LENGTH)
    """The only name other players see (``accounts.names``): every user has
    one, derived from his username when he chose none (``save``)."""
    screen_name_key = models.CharField(max_length=200, unique=True, editable=False)
    """The screen name's TR39 skeleton: its unique index refuses a name
    confusable with another player's, even under a race."""
    language = models.CharField(max_length=8, blank=True, default="")
    """The language he chose for the client, one of ``LANGUAGES`` ("": his
    browser's); every browser he logs in from follows it."""

    username_key = models.CharField(max_length=600, unique=True, null=True, editable=False)
    """The username's TR39 skeleton (``accounts.names``): its unique index
    refuses a username confusable with another's.  Null only for an
    account whose username is confusable with an earlier account's and
    which keeps it (migration 0010 filled the column and left those)."""

    class Meta:
        db_table = "accounts_user"

    def save(self, *args: Any, **kwargs: Any) -> None:
        """Every path that makes or changes a user (registration,
        ``createsuperuser``, the admin) gets a name and the skeletons here."""
        if not self.screen_name:
            using = kwargs.get("using") or router.db_for_write(type(self), instance=self)
            taken = partial(self._name_taken, using=using)
            self.screen_name = names.screen_name_free(self.username, taken=taken)
        self.screen_name_key = names.skeleton(self.screen_name)
        fields = kwargs.get("update_fields")
        if self._state.adding or self.username_key is not None:
            self.username_key = names.skeleton(self.username)
        if fields is not None and "screen_name" in fields:
            fields = kwargs["update_fields"] = {*fields, "screen_name_key"}
        if fields is not None and "username" in fields:
            kwargs["update_fields"] = {*fields, "username_key"}
        super().save(*args, **kwargs)

    def clean(self) -> None:
        """The admin's form checks: a valid, unreserved, untaken name."""
        super().clean()
        if not self.screen_name:
            return  # save() derives one
        try:
            self.screen_name, key = names.screen_name_check(self.screen_name)
        except ApiError as error:
            raise ValidationError({"screen_name": error.message}) from error
        if self._name_taken(key):
            raise ValidationError({"screen_name": ScreenNameTaken.message})

    def _name_taken(self, key: str, using: str | None = None) -> bool:
        others = type(self)._default_manager.db_manager(using).filter(screen_name_key=key)
        return others.exclude(pk=self.pk).exists() if self.pk else others.exists()


class VerifiedToken(models.Model):
    """An API token issued after its staff owner proved a code of his TOTP
    device (``accounts.second_factor``); deleted with the token."""

    token = models.OneToOneField(
        "knox.AuthToken", primary_key=True, on_delete=models.CASCADE, related_name="+"
    )


class AppendOnly(Exception):
    """An attempt to change or remove a recorded transfer or entry."""


class AppendOnlyQuerySet(models.QuerySet[Any]):
    """Ledger rows cannot be changed or removed in bulk either."""

    def update(self, **kwargs: Any) -> int:
        raise AppendOnly("the ledger is never updated")

    def delete(self) -> tuple[int, dict[str, int]]:
        raise AppendOnly("the ledger is never deleted from")


class AppendOnlyModel(models.Model):
    """A row written once: saving it again or deleting it is refused (and on
    PostgreSQL a trigger refuses UPDATE and DELETE, migration 0003)."""

    objects = AppendOnlyQuerySet.as_manager()

    class Meta:
        abstract = True

    def save(self, *args: Any, **kwargs: Any) -> None:
        if not self._state.adding:
            raise AppendOnly("the ledger is never updated")
        super().save(*args, **kwargs)

    def delete(self, *args: Any, **kwargs: Any) -> tuple[int, dict[str, int]]:
        raise AppendOnly("the ledger is never deleted from")


class Account(models.Model):
    """Where money (or tickets) is held.  ``key`` names it uniquely (see
    ``accounts.ledger.AccountRef``); ``balance`` is the sum of its entries."""

    class Kind(models.TextChoices):
        CASH = "cash", "a player's cash"
        TABLE = "table", "the chips on a cash table (escrow)"
        POOL = "pool", "a tournament's prize pool"
        HOUSE = "house", "house fees"
        BANKROLL = "bankroll", "the house's casino bankroll (pays the casino tables' wins)"
        CASINO = "casino", "the chips a casino table's round holds"
        RAKE = "rake", "the house's rake from the cash tables"
        TICKET = "ticket", "a player's entries into a tournament"
        TICKETS_ISSUED = "tickets_issued", "entries into a tournament handed out"
        TICKET_RESERVE = "ticket_reserve", "money backing a tournament's tickets"
        EXTERNAL = "external", "money outside the room (deposits, withdrawals)"

    key = models.CharField(max_length=100, unique=True)
    kind = models.CharField(max_length=16, choices=Kind.choices)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="ledger_accounts",
    )
    ref = models.CharField(max_length=64, blank=True, default="")
    """The table id or tournament reference the account belongs to."""
    unit = models.CharField(max_length=80)
    """``chips`` for money, ``ticket:<tournament>`` for tickets: entries of
    one transfer sum to zero in each unit."""
    balance = models.BigIntegerField(default=0)
    may_go_negative = models.BooleanField(default=False)
    """Only the accounts that stand for the outside world: ``external`` and
    ``tickets_issued``."""
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["id"]
        constraints = [
            models.CheckConstraint(
                condition=Q(balance__gte=0) | Q(may_go_negative=True),
                name="account_balance_not_negative",
            )
        ]
        permissions = [
            ("view_wallets", "Can see any player's wallet and ledger"),
            ("move_cash", "Can deposit to and withdraw from any wallet"),
            ("direct_tournaments", "Can move tournament money: prizes, tickets, refunds"),
            ("lock_accounts", "Can lock and unlock players' accounts"),
            ("note_players", "Can read and write staff notes on players"),
        ]

    def __str__(self) -> str:
        return f"{self.key} ({self.balance})"


class Transfer(AppendOnlyModel):
    """One movement: entries summing to zero, under a caller-chosen id (a
    retry with the same id and content gets this transfer back)."""

    class Kind(models.TextChoices):
        DEPOSIT = "deposit"
        WITHDRAWAL = "withdrawal"
        BUY_IN = "buy_in", "buy-in at a cash table"
        TOP_UP = "top_up", "top-up at a cash table"
        TOP_UP_REFUND = "top_up_refund", "queued top-up not applied"
        CASH_OUT = "cash_out", "cash-out from a cash table"
        RAKE = "rake", "rake from a cash-table hand"
        REGISTRATION = "registration", "tournament buy-in and fee"
        UNREGISTRATION = "unregistration", "tournament refund"
        REBUY = "rebuy"
        ADD_ON = "add_on", "add-on"
        PRIZE = "prize"
        TICKET_AWARD = "ticket_award", "ticket won"
        TICKET_SPEND = "ticket_spend", "registration with a ticket"
        TICKET_REFUND = "ticket_refund", "ticket cashed out (its tournament called off)"
        CASINO_BET = "casino_bet", "bet at a casino table (the round holds its stakes)"
        CASINO_REFUND = "casino_refund", "casino bet withdrawn before the deal"
        CASINO_SETTLE = "casino_settle", "casino box settled against the bankroll"
        BANKROLL_FUND = "bankroll_fund", "money put into the casino bankroll"
        OVERLAY = "overlay", "a tournament's guarantee held from the house, or its rest given back"
        HOUSE_FUND = "house_fund", "money put into the house's account (guarantees, tickets)"
        FLIGHT_CARRY = "flight_carry", "a starting flight's prize pool moved into its Day 2's"

    id = models.UUIDField(primary_key=True)
    kind = models.CharField(max_length=16, choices=Kind.choices)
    ref = models.CharField(max_length=100, blank=True, default="")
    """What caused it: ``table-7@12`` (a table event), ``tournament:spring``."""
    memo = models.CharField(max_length=200, blank=True, default="")
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["created_at"]
        indexes = [
            # The reports (``reports``): movements by day, and by the table
            # or tournament that made them.
            models.Index(fields=["created_at"], name="transfer_created"),
            models.Index(fields=["ref"], name="transfer_ref"),
        ]

    def __str__(self) -> str:
        return f"{self.kind} {self.id}"


class Entry(AppendOnlyModel):
    """One account's side of a transfer: ``amount`` in (positive) or out
    (negative), and the account's balance right after it."""

    transfer = models.ForeignKey(Transfer, on_delete=models.PROTECT, related_name="entries")
    account = models.ForeignKey(Account, on_delete=models.PROTECT, related_name="entries")
    amount = models.BigIntegerField()
    balance_after = models.BigIntegerField()

    class Meta:
        ordering = ["id"]
        verbose_name_plural = "entries"
        constraints = [
            models.UniqueConstraint(fields=["transfer", "account"], name="entry_transfer_account"),
            models.CheckConstraint(condition=~Q(amount=0), name="entry_amount_not_zero"),
        ]
        indexes = [models.Index(fields=["account", "id"], name="entry_account_id")]

    def __str__(self) -> str:
        return f"{self.amount:+d} {self.account_id} in {self.transfer_id}"


class AccountLock(AppendOnlyModel):
    """One lock or unlock of a player's account, with who did it and why.

    The lock itself is ``User.is_active`` (Django refuses an inactive user
    at login, on a session and on a knox token); these rows are its
    history, written only by ``accounts.locks`` in the same transaction as
    the flag, so the last row of a player says why he is as he is."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="lock_history"
    )
    locked = models.BooleanField()
    """True: locked; False: unlocked."""
    reason = models.CharField(max_length=500)
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    """The member of staff; None: an operator at the console (``by_label``)."""
    by_label = models.CharField(max_length=150)
    """Who, as a name that outlives the user row: the staff username or
    ``console:<login>``."""
    at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["id"]

    def __str__(self) -> str:
        return f"{'locked' if self.locked else 'unlocked'} {self.user_id} by {self.by_label}"


class PlayerLimits(models.Model):
    """What a player has set to limit himself (``accounts.limits``): one
    row per player who ever set one, locked by every deposit of his so a
    limit is checked against deposits that cannot race it."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="limits"
    )
    excluded_until = models.DateTimeField(null=True, blank=True)
    """Self-excluded (no seat, no registration, no deposit) until then;
    only ever moved later by the player."""
    daily_deposit = models.BigIntegerField(null=True, blank=True)
    """The most he may deposit in any 24 hours (None: no limit)."""
    next_daily_deposit = models.BigIntegerField(null=True, blank=True)
    """A higher limit (None: none at all) that takes over at ``next_from``."""
    next_from = models.DateTimeField(null=True, blank=True)
    """When ``next_daily_deposit`` takes over (None: nothing pending)."""
    updated_at = models.DateTimeField(default=timezone.now)

    class Meta:
        verbose_name_plural = "player limits"
        constraints = [
            models.CheckConstraint(
                condition=Q(daily_deposit__isnull=True) | Q(daily_deposit__gte=0),
                name="limits_daily_deposit_not_negative",
            ),
            models.CheckConstraint(
                condition=Q(next_daily_deposit__isnull=True) | Q(next_daily_deposit__gte=0),
                name="limits_next_daily_deposit_not_negative",
            ),
        ]

    def __str__(self) -> str:
        return f"limits of {self.user_id}"


class PlayerNote(AppendOnlyModel):
    """A staff note on a player (never shown to him): written once, kept
    with who wrote it, so the notes read as a log."""

    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="staff_notes"
    )
    text = models.TextField(max_length=2000)
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-id"]
        indexes = [models.Index(fields=["player", "id"], name="note_player_id")]

    def __str__(self) -> str:
        return f"note {self.pk} on {self.player_id}"
