"""``manage.py grant_role USERNAME ROLE [--revoke]``: operators make staff,
cashiers and tournament directors by username, and take it back."""

from __future__ import annotations

from io import StringIO

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import CommandError

from accounts.roles import user_roles


def grant(*args: str) -> str:
    out = StringIO()
    call_command("grant_role", *args, stdout=out)
    return out.getvalue()


def fresh(user):
    return get_user_model().objects.get(pk=user.pk)  # no cached permissions


def test_staff_is_granted_and_revoked(make_user):
    ann = make_user("ann")
    assert grant("ann", "staff") == "staff granted to ann\n"
    assert fresh(ann).is_staff
    grant("ann", "staff", "--revoke")
    assert not fresh(ann).is_staff


@pytest.mark.parametrize(
    ("role", "permission"),
    [
        ("cashier", "accounts.move_cash"),
        ("tournament_director", "accounts.direct_tournaments"),
        ("floor", "accounts.lock_accounts"),
    ],
)
def test_a_staff_role_gives_its_permissions_and_makes_the_user_staff(make_user, role, permission):
    ann = make_user("ann")
    assert grant("ann", role) == f"{role} granted to ann\n"
    ann = fresh(ann)
    assert ann.is_staff and ann.has_perm(permission) and role in user_roles(ann)


@pytest.mark.parametrize(
    ("role", "permission"),
    [
        ("cashier", "accounts.move_cash"),
        ("tournament_director", "accounts.direct_tournaments"),
        ("floor", "accounts.lock_accounts"),
    ],
)
def test_revoking_a_staff_role_takes_its_permissions(make_user, role, permission):
    ann = make_user("ann", role=role)
    assert grant("ann", role, "--revoke") == f"{role} revoked from ann\n"
    ann = fresh(ann)
    assert not ann.has_perm(permission) and role not in user_roles(ann)


def test_granting_twice_changes_nothing(make_user):
    ann = make_user("ann")
    grant("ann", "cashier")
    grant("ann", "cashier")
    assert list(fresh(ann).groups.values_list("name", flat=True)) == ["cashier"]


def test_an_unknown_user_is_refused_by_name(db):
    with pytest.raises(CommandError, match="no user 'ghost'"):
        grant("ghost", "cashier")


def test_an_unknown_role_is_refused_naming_the_roles(make_user):
    make_user("ann")
    refused = r"invalid choice: 'dealer'.*cashier.*tournament_director"
    with pytest.raises(CommandError, match=refused):
        grant("ann", "dealer")
