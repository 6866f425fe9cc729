"""The admin for operators: players and their roles; wallets and the
ledger, read-only (money moves only through the services, which keep the
ledger balanced)."""

from __future__ import annotations

from django.contrib import admin
from django.contrib.auth.admin import UserAdmin as BaseUserAdmin

from accounts.models import Account, Entry, Transfer, User
from config.admin import ReadOnly, ReadOnlyInline


@admin.register(User)
class UserAdmin(BaseUserAdmin):
    """Players and staff; roles are the groups ``cashier`` and
    ``tournament_director``."""

    fieldsets = (
        *(BaseUserAdmin.fieldsets or ()),
        ("Profile", {"fields": ("screen_name",)}),
    )
    list_display = ("username", "screen_name", "email", "is_staff", "is_active")
    search_fields = ("username", "screen_name", "email")


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
