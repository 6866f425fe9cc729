"""Roles: every user is a player; staff are cashiers, tournament directors
and floor staff.

A role is a Django group holding the permissions it needs, so operators
grant it in the admin (the user list's actions), with ``manage.py
grant_role`` or with ``services.role_grant``, and code checks
permissions, never role names.  ``is_staff`` stays what it was: staff may
open and close cash tables and log in to the admin.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import Group, Permission

_MONEY = ("view_wallets", "view_account", "view_transfer", "view_entry", "note_players")
"""What the roles that move money see: every wallet and the ledger."""
ROLES: dict[str, tuple[str, ...]] = {
    "cashier": (*_MONEY, "move_cash"),
    "tournament_director": (*_MONEY, "direct_tournaments"),
    "floor": ("view_wallets", "lock_accounts", "note_players", "view_account", "view_user"),
}
"""Each role's group and its permissions (all of the accounts app): the
floor sees the players in the admin (``view_user``) to lock them there."""


def role_group(role: str, *, using: str = "default") -> Group:
    """The group of ``role``, made (with its permissions) on first use."""
    if role not in ROLES:
        raise ValueError(f"no role {role!r}: one of {sorted(ROLES)}")
    group, _ = Group.objects.using(using).get_or_create(name=role)
    wanted = Permission.objects.using(using).filter(
        content_type__app_label="accounts", codename__in=ROLES[role]
    )
    group.permissions.add(*wanted)
    return group


def roles_ensure(*, using: str = "default", **_: Any) -> None:
    """Every role's group exists (after each migrate, for the admin)."""
    for role in ROLES:
        role_group(role, using=using)


def user_roles(user: Any) -> list[str]:
    """``player``, then the staff roles the user holds, for clients to show."""
    held = set(user.groups.values_list("name", flat=True))
    return ["player", *(r for r in ROLES if r in held or user.is_superuser)]
