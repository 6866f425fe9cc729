"""The admin for operators: players and their roles; wallets and the
ledger, read-only (money moves only through the services, which keep the
ledger balanced)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django import forms
from django.contrib import admin, messages
from django.contrib.admin.helpers import ActionForm
from django.contrib.auth.admin import UserAdmin as BaseUserAdmin
from django.db.models import QuerySet
from django.http import HttpRequest

from accounts import locks, services
from accounts.models import Account, AccountLock, Entry, PlayerNote, Transfer, User
from accounts.notes import NOTE_PERMISSION
from accounts.roles import ROLES
from kernel.admin import ReadOnly, ReadOnlyInline
from kernel.api_errors import ApiError


class ReasonForm(ActionForm):
    """The user list's action bar, with the reason a lock or unlock needs."""

    reason = forms.CharField(required=False, max_length=locks.MAX_REASON, label="Reason")


def _role_action(role: str, *, grant: bool) -> Callable[..., None]:
    """An action granting (or revoking) ``role`` to the selected users."""

    def act(modeladmin: Any, request: HttpRequest, users: QuerySet[User]) -> None:
        for user in users:
            (services.role_grant if grant else services.role_revoke)(user=user, role=role)
        done = "granted to" if grant else "revoked from"
        modeladmin.message_user(request, f"{role} {done} {len(users)} user(s).")

    act.__name__ = f"{'grant' if grant else 'revoke'}_{role}"
    verb = "Grant" if grant else "Revoke"
    return admin.action(description=f"{verb} the {role} role", permissions=["change"])(act)


class LockInline(ReadOnlyInline):
    """Every lock and unlock of the player: who, when and why."""

    model = AccountLock
    fk_name = "user"
    fields = ("locked", "reason", "by_label", "at")


class NoteInline(ReadOnlyInline):
    """Staff notes on the player, newest first (add one under Player notes)."""

    model = PlayerNote
    fk_name = "player"
    fields = ("text", "by", "at")

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return bool(request.user.has_perm(NOTE_PERMISSION))


@admin.register(User)
class UserAdmin(BaseUserAdmin):  # type: ignore[type-arg]
    """Players and staff.  Roles are granted and revoked, and accounts
    locked and unlocked (with a reason), by the list's actions, so each is
    recorded as the services do it; ``is_active`` is the lock, shown only."""

    fieldsets = (
        *(BaseUserAdmin.fieldsets or ()),
        ("Profile", {"fields": ("screen_name",)}),
    )
    readonly_fields = ("is_active",)
    list_display = ("username", "screen_name", "email", "is_staff", "is_active")
    list_filter = ("is_active", "is_staff", "groups")
    search_fields = ("username", "screen_name", "email")
    inlines = [LockInline, NoteInline]
    action_form = ReasonForm
    actions = [
        "lock_accounts",
        "unlock_accounts",
        *(_role_action(role, grant=grant) for role in ROLES for grant in (True, False)),
    ]

    def has_lock_permission(self, request: HttpRequest) -> bool:
        return bool(request.user.has_perm(locks.LOCK_PERMISSION))

    @admin.action(description="Lock the accounts (give a reason)", permissions=["lock"])
    def lock_accounts(self, request: HttpRequest, users: QuerySet[User]) -> None:
        self._lock(request, users, locks.account_lock)

    @admin.action(description="Unlock the accounts (give a reason)", permissions=["lock"])
    def unlock_accounts(self, request: HttpRequest, users: QuerySet[User]) -> None:
        self._lock(request, users, locks.account_unlock)

    def _lock(self, request: HttpRequest, users: QuerySet[User], act: Any) -> None:
        reason = request.POST.get("reason", "")
        for user in users:
            try:
                done = act(user=user, reason=reason, by=request.user)
            except ApiError as error:
                self.message_user(request, f"{user}: {error.message}", messages.ERROR)
                return
            verb = "unlocked" if act is locks.account_unlock else "locked"
            self.message_user(request, f"{user} {verb}. " + " ".join(done.notes))
            for problem in done.problems:
                self.message_user(request, f"{user}: {problem}", messages.WARNING)


@admin.register(PlayerNote)
class PlayerNoteAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    """Staff notes: added here (signed by whoever adds them), never changed."""

    list_display = ("player", "text", "by", "at")
    list_select_related = ("player", "by")
    search_fields = ("player__username", "player__screen_name", "text")
    autocomplete_fields = ("player",)
    fields = ("player", "text")

    def _may(self, request: HttpRequest) -> bool:
        return bool(request.user.has_perm(NOTE_PERMISSION))

    def has_module_permission(self, request: HttpRequest) -> bool:
        return self._may(request)

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return self._may(request)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return self._may(request)

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def save_model(self, request: HttpRequest, obj: PlayerNote, form: Any, change: bool) -> None:
        obj.by = request.user  # type: ignore[assignment]
        super().save_model(request, obj, form, change)


class EntryInline(ReadOnlyInline):
    model = Entry
    fields = ("account", "amount", "balance_after")


@admin.register(Account)
class AccountAdmin(ReadOnly):
    """Wallets, table escrows, prize pools, the house, tickets."""

    list_display = ("key", "kind", "user", "ref", "unit", "balance")
    list_select_related = ("user",)
    list_filter = ("kind",)
    search_fields = ("key", "user__username", "ref")


@admin.register(Transfer)
class TransferAdmin(ReadOnly):
    """Every movement, with its entries."""

    list_display = ("id", "kind", "ref", "memo", "by", "created_at")
    list_select_related = ("by",)
    list_filter = ("kind",)
    search_fields = ("id", "ref", "memo")
    inlines = [EntryInline]


@admin.register(Entry)
class EntryAdmin(ReadOnly):
    """Every account's side of every transfer."""

    list_display = ("id", "transfer", "account", "amount", "balance_after")
    list_filter = ("account__kind", "transfer__kind")
    search_fields = ("account__key",)
    list_select_related = ("transfer", "account")
