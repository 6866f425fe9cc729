"""The API's authenticators: knox's tokens and Django's sessions, each
refusing a staff account's credentials that no second factor was proved
for when the setting asks for one (``accounts.second_factor``): 401
``second_factor_required``."""

from __future__ import annotations

from typing import Any

from drf_spectacular import authentication as authentication_schemes
from drf_spectacular.contrib.knox_auth_token import KnoxTokenScheme
from knox import auth as knox_auth
from rest_framework import authentication
from rest_framework.request import Request


class SecondFactorChecked(authentication.BaseAuthentication):
    """An authenticator whose user (and token, None for a session) must
    have passed the second factor when one is required."""

    def authenticate(self, request: Request) -> tuple[Any, Any] | None:
        found: tuple[Any, Any] | None = super().authenticate(request)
        if found is not None:
            _refuse_unless(*found)
        return found


class TokenAuthentication(SecondFactorChecked, knox_auth.TokenAuthentication):  # type: ignore[misc]  # untyped base (knox)
    """knox's API tokens."""


class SessionAuthentication(SecondFactorChecked, authentication.SessionAuthentication):
    """Django's sessions, as DRF reads them."""


def _refuse_unless(user: Any, token: Any) -> None:
    """401 ``second_factor_required`` for a staff account's token or
    session that no code was proved for (when one is required)."""
    # Imported here: DRF's views import this module, and accounts' errors import DRF's views.
    from accounts import second_factor
    from accounts.errors import SecondFactorMissing

    passes = (
        second_factor.token_passes(user, token) if token else second_factor.session_passes(user)
    )
    if not passes:
        raise SecondFactorMissing()


class TokenScheme(KnoxTokenScheme):
    """The schema's ``knoxApiToken`` for these tokens, as for knox's own."""

    target_class = "config.auth.TokenAuthentication"


class SessionScheme(authentication_schemes.SessionScheme):
    """The schema's ``cookieAuth`` for these sessions, as for DRF's own."""

    target_class = "config.auth.SessionAuthentication"
