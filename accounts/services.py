"""The write side of accounts: players and their roles.

Money moves through ``accounts.money`` (wallets, tournaments, tickets) and
``accounts.tables`` (cash tables).
"""

from __future__ import annotations

from django.contrib.auth import get_user_model, password_validation
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from rest_framework.authtoken.models import Token

from accounts.errors import ScreenNameTaken, UsernameTaken, WrongPassword
from accounts.models import User
from accounts.roles import role_group
from config.api_errors import ApiError


def _invalid(field: str, error: ValidationError) -> ApiError:
    return ApiError("Invalid input.", code="invalid", extra={"fields": {field: error.messages}})


def user_register(*, username: str, password: str, email: str = "", screen_name: str = "") -> User:
    """A new player (no roles), with a password that passes the validators."""
    model = get_user_model()
    candidate = model(username=username, email=email, screen_name=screen_name or username)
    try:
        password_validation.validate_password(password, candidate)
    except ValidationError as error:
        raise _invalid("password", error) from error
    if model.objects.filter(username__iexact=username).exists():
        raise UsernameTaken()
    candidate.set_password(password)
    try:
        with transaction.atomic():
            candidate.save(force_insert=True)
    except IntegrityError as error:
        taken = model.objects.filter(username__iexact=username).exists()
        raise (UsernameTaken() if taken else ScreenNameTaken()) from error
    user: User = candidate
    return user


def user_password_change(*, user: User, old_password: str, new_password: str) -> str:
    """Change the password; every API token of the user is replaced (other
    devices must log in again).  The new token's key."""
    if not user.check_password(old_password):
        raise WrongPassword()
    try:
        password_validation.validate_password(new_password, user)
    except ValidationError as error:
        raise _invalid("new_password", error) from error
    with transaction.atomic():
        user.set_password(new_password)
        user.save(update_fields=["password"])
        Token.objects.filter(user=user).delete()
        return str(Token.objects.create(user=user).key)


def profile_update(*, user: User, screen_name: str) -> User:
    """Change the name shown at tables (unique, case aside: the database's
    constraint refuses a name taken)."""
    user.screen_name = screen_name
    try:
        with transaction.atomic():
            user.save(update_fields=["screen_name"])
    except IntegrityError as error:
        raise ScreenNameTaken() from error
    return user


def role_grant(*, user: User, role: str) -> None:
    """Make the user staff in ``role`` (``cashier`` or ``tournament_director``)."""
    user.groups.add(role_group(role))
    if not user.is_staff:
        user.is_staff = True
        user.save(update_fields=["is_staff"])


def role_revoke(*, user: User, role: str) -> None:
    """Take ``role`` away (the user stays staff)."""
    user.groups.remove(role_group(role))
