"""What the accounts' commands share: the user a command names, and a
service's refusal as the command's error."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from django.contrib.auth import get_user_model
from django.core.management.base import CommandError

from accounts.models import User
from kernel.api_errors import ApiError


def user_named(username: str, hint: str = "") -> User:
    """The user of exactly this username, else the command's error
    (``hint``: what the operator may do about it)."""
    user: User | None = get_user_model().objects.filter(username=username).first()
    if user is None:
        raise CommandError(f"no user {username!r}{hint}")
    return user


@contextmanager
def refusals() -> Iterator[None]:
    """A refusal of the services (the API's) as the command's error: its
    code and message."""
    try:
        yield
    except ApiError as refused:
        raise CommandError(f"{refused.code}: {refused.message}") from None
