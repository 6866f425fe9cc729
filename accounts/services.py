"""The write side of accounts: players and their roles.

Money moves through ``accounts.money`` (wallets, tournaments, tickets) and
``accounts.tables`` (cash tables).
"""

from __future__ import annotations

from datetime import datetime

from django.contrib.auth import get_user_model, password_validation
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _
from knox.models import AuthToken

from accounts import names
from accounts.errors import ScreenNameTaken, UsernameTaken, WrongPassword
from accounts.models import User
from accounts.roles import role_group
from config.api_errors import ApiError


def _invalid(field: str, error: ValidationError) -> ApiError:
    return ApiError(_("Invalid input."), code="invalid", extra={"fields": {field: error.messages}})


def user_register(*, username: str, password: str, email: str = "", screen_name: str = "") -> User:
    """A new player (no roles), with a password that passes the validators
    and the screen name he chose (``accounts.names``), else one derived
    from his username."""
    model = get_user_model()
    if screen_name:
        screen_name, _ = names.screen_name_check(screen_name)
    candidate = model(username=username, email=email, screen_name=screen_name)
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


def token_create(*, user: User) -> tuple[str, datetime | None]:
    """A new API token for one device (each login makes its own, so one
    logout leaves the others logged in): its key, which only this answer
    ever shows (the store keeps a hash), and when it expires
    (``TOKEN_TTL_HOURS``)."""
    row, key = AuthToken.objects.create(user=user)
    return key, row.expiry


def token_revoke(*, token: AuthToken) -> None:
    """Log one device out: its token stops working, the others do not."""
    token.delete()


def tokens_revoke_all(*, user: User) -> None:
    """Log every device out: all the user's API tokens stop working."""
    AuthToken.objects.filter(user=user).delete()


def user_password_change(
    *, user: User, old_password: str, new_password: str
) -> tuple[str, datetime | None]:
    """Change the password; every API token of the user is revoked (other
    devices must log in again), and this device gets a new one (its key
    and expiry)."""
    if not user.check_password(old_password):
        raise WrongPassword()
    try:
        password_validation.validate_password(new_password, user)
    except ValidationError as error:
        raise _invalid("new_password", error) from error
    with transaction.atomic():
        user.set_password(new_password)
        user.save(update_fields=["password"])
        tokens_revoke_all(user=user)
        return token_create(user=user)


def profile_update(*, user: User, screen_name: str) -> User:
    """Change the name shown at tables: normalized and checked
    (``accounts.names``); the unique index on its skeleton refuses a name
    confusable with another player's."""
    before = user.screen_name
    user.screen_name, _ = names.screen_name_check(screen_name)
    try:
        with transaction.atomic():
            user.save(update_fields=["screen_name"])
    except IntegrityError as error:
        user.screen_name = before
        raise ScreenNameTaken() from error
    return user


def language_set(*, user: User, language: str | None) -> User:
    """Keep the language he chose for the client (None: his browser's)."""
    user.language = language or ""
    user.save(update_fields=["language"])
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
