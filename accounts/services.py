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
from accounts.frames import announce_revoked
from accounts.models import User
from accounts.roles import role_group
from accounts.second_factor import required, token_verified
from accounts.tickets import SESSION, TOKEN, Credential, ticket_issue
from kernel.api_errors import ApiError


def _password_check(field: str, password: str, user: User) -> None:
    """``password`` for ``user`` as the validators judge it, refused as the
    invalid input ``field``."""
    try:
        password_validation.validate_password(password, user)
    except ValidationError as error:
        fields = {field: error.messages}
        raise ApiError(_("Invalid input."), code="invalid", extra={"fields": fields}) from error


def user_register(*, username: str, password: str, email: str = "", screen_name: str = "") -> User:
    """A new player (no roles), with a normalized username no other is
    confusable with (``accounts.names``), a password that passes the
    validators and the screen name he chose (``accounts.names``), else one derived
    from his username."""
    model = get_user_model()
    username, username_key = names.username_check(username)
    if screen_name:
        screen_name, _ = names.screen_name_check(screen_name)
    candidate = model(username=username, email=email, screen_name=screen_name)
    _password_check("password", password, candidate)
    if model.objects.filter(username_key=username_key).exists():
        raise UsernameTaken()
    candidate.set_password(password)
    try:
        with transaction.atomic():
            candidate.save(force_insert=True)
    except IntegrityError as error:
        taken = model.objects.filter(username_key=username_key).exists()
        raise (UsernameTaken() if taken else ScreenNameTaken()) from error
    user: User = candidate
    return user


def token_create(*, user: User, second_factor: bool = False) -> tuple[str, datetime | None]:
    """A new API token for one device (each login makes its own, so one
    logout leaves the others logged in): its key, which only this answer
    ever shows (the store keeps a hash), and when it expires
    (``TOKEN_TTL_HOURS``).  ``second_factor``: issued after the user
    proved one (``accounts.second_factor``)."""
    row, key = AuthToken.objects.create(user=user)
    if second_factor:
        token_verified(row)
    return key, row.expiry


def token_revoke(*, token: AuthToken) -> None:
    """Log one device out: its token stops working, the others do not, and
    the sockets it opened close."""
    token.delete()
    announce_revoked(token.user_id)


def tokens_revoke_all(*, user: User) -> None:
    """Log every device out: all the user's API tokens stop working, and
    every socket they opened closes."""
    AuthToken.objects.filter(user=user).delete()
    announce_revoked(user.pk)


def session_ended(*, user: User) -> None:
    """A session of the player was logged out: the sockets it opened close."""
    announce_revoked(user.pk)


def ws_ticket_issue(*, user: User, token: AuthToken | None, session_key: str | None) -> str:
    """A ticket to open a WebSocket with (``accounts.tickets``), standing
    for the credential this request came with: its API token, else its
    session."""
    if token is not None:
        return ticket_issue(Credential(user.pk, TOKEN, token.digest))
    if not session_key:
        raise ApiError(_("Log in with a token or a session."), code="not_authenticated", status=401)
    return ticket_issue(Credential(user.pk, SESSION, session_key))


def user_password_change(
    *, user: User, old_password: str, new_password: str
) -> tuple[str, datetime | None]:
    """Change the password; every API token of the user is revoked (other
    devices must log in again), and this device gets a new one (its key
    and expiry)."""
    if not user.check_password(old_password):
        raise WrongPassword()
    _password_check("new_password", new_password, user)
    with transaction.atomic():
        user.set_password(new_password)
        user.save(update_fields=["password"])
        tokens_revoke_all(user=user)
        # Asked with credentials that passed the second factor, if one is required.
        return token_create(user=user, second_factor=required(user))


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
