"""Thin HTTP views of the accounts API: validate, call one service or
selector, answer with an output serializer.

A player sees his own wallet and history only; the staff wallet endpoints
need ``accounts.view_wallets`` to read and ``accounts.move_cash`` to move
money (checked before the wallet is looked up, so a refusal tells nothing
about who exists).
"""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.contrib.auth import authenticate, login, logout, update_session_auth_hash
from django.utils.translation import gettext as _
from django_otp import login as otp_login
from django_otp.models import Device
from drf_spectacular.utils import extend_schema
from knox.models import AuthToken
from rest_framework import permissions, serializers
from rest_framework.authentication import BaseAuthentication
from rest_framework.exceptions import NotAuthenticated
from rest_framework.pagination import PageNumberPagination
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts import limits, money, names, notes, references, second_factor, selectors, services
from accounts.api import serializers as s
from accounts.errors import NotPermitted
from accounts.models import Transfer, User
from accounts.throttles import (
    LoginAccountThrottle,
    LoginAddressThrottle,
    PasswordAccountThrottle,
    PasswordAddressThrottle,
    RegisterAddressThrottle,
)
from kernel.api import validated
from kernel.api_errors import ApiError

LOGIN_THROTTLES = [LoginAddressThrottle, LoginAccountThrottle]
"""Login and token share their counts: both are password guesses."""


def _player(request: Request) -> User:
    """The logged-in player (every view but ``Open``'s lets only one in)."""
    user = request.user
    if not isinstance(user, User):
        raise NotAuthenticated()
    return user


def _session(request: Request, user: User, device: Device | None = None) -> Response:
    """Log ``user`` in on this session too (verified by ``device``, his
    second factor, if he gave one) and answer with a new token for this
    device."""
    login(request._request, user, backend="django.contrib.auth.backends.ModelBackend")
    if device is not None:
        otp_login(request._request, device)
    token, expiry = services.token_create(user=user, second_factor=device is not None)
    body = {"user": selectors.me_view(user), "token": token, "expiry": expiry}
    return Response(s.SessionOut(body).data)


def _credentials(request: Request) -> tuple[User, Device | None]:
    """The user whose username and password the request gives, and the
    device his ``otp`` code is of when he must give one
    (``accounts.second_factor``); or 400."""
    data = validated(s.LoginIn, request.data)
    code = data.pop("otp", None)
    data["username"] = names.username_normal(str(data["username"]))
    user = authenticate(request._request, **data)
    if not isinstance(user, User):  # None: no such user, or a wrong password
        raise ApiError(_("Wrong username or password."), code="bad_credentials")
    return user, second_factor.checked(user, code)


class Open(APIView):
    """Anyone, and no session: a stale session cookie must not make a
    login or registration fail its CSRF check."""

    authentication_classes: list[type[BaseAuthentication]] = []
    permission_classes = [permissions.AllowAny]


class RegisterView(Open):
    """Register a player; he is logged in (session and token).  Throttled
    per address: there is no account yet to count against."""

    throttle_classes = [RegisterAddressThrottle]

    @extend_schema(request=s.RegisterIn, responses={201: s.SessionOut}, operation_id="register")
    def post(self, request: Request) -> Response:
        user = services.user_register(**validated(s.RegisterIn, request.data))
        response = _session(request, user)
        response.status_code = 201
        return response


class LoginView(Open):
    """Log in: a session cookie and an API token."""

    throttle_classes = LOGIN_THROTTLES

    @extend_schema(request=s.LoginIn, responses={200: s.SessionOut}, operation_id="login")
    def post(self, request: Request) -> Response:
        return _session(request, *_credentials(request))


class LogoutView(APIView):
    """Log this device out: the token the request came with is revoked (the
    player's other devices stay logged in) and this session ends."""

    @extend_schema(request=None, responses={204: None}, operation_id="logout")
    def post(self, request: Request) -> Response:
        user = _player(request)
        if isinstance(request.auth, AuthToken):
            services.token_revoke(token=request.auth)
        logout(request._request)
        services.session_ended(user=user)
        return Response(status=204)


class LogoutAllView(APIView):
    """Log out everywhere: every API token of the player is revoked and this
    session ends."""

    @extend_schema(request=None, responses={204: None}, operation_id="logout_all")
    def post(self, request: Request) -> Response:
        user = _player(request)
        services.tokens_revoke_all(user=user)
        logout(request._request)
        services.session_ended(user=user)
        return Response(status=204)


class WsTicketView(APIView):
    """A ticket to open one WebSocket with (``?ticket=``): good once, for
    ``WS_TICKET_SECONDS``; a socket it opens closes when the token or
    session this request came with is revoked."""

    @extend_schema(request=None, responses={201: s.WsTicketOut}, operation_id="ws_ticket")
    def post(self, request: Request) -> Response:
        ticket = services.ws_ticket_issue(
            user=_player(request),
            token=request.auth if isinstance(request.auth, AuthToken) else None,
            session_key=request.session.session_key,
        )
        body = {"ticket": ticket, "expires_in": settings.WS_TICKET_SECONDS}
        return Response(s.WsTicketOut(body).data, status=201)


class PasswordView(APIView):
    """Change the password; other devices' tokens stop working.  Throttled
    per address and per player: it checks the old password, so a stolen
    session must not guess at it freely."""

    throttle_classes = [PasswordAddressThrottle, PasswordAccountThrottle]

    @extend_schema(request=s.PasswordIn, responses={200: s.TokenOut}, operation_id="password")
    def post(self, request: Request) -> Response:
        data = validated(s.PasswordIn, request.data)
        token, expiry = services.user_password_change(user=_player(request), **data)
        update_session_auth_hash(request._request, _player(request))
        return Response(s.TokenOut({"token": token, "expiry": expiry}).data)


class TokenView(Open):
    """``username`` and ``password`` -> a new API token for this device (no
    session), counted with the logins."""

    throttle_classes = LOGIN_THROTTLES

    @extend_schema(request=s.LoginIn, responses={200: s.TokenOut}, operation_id="token")
    def post(self, request: Request) -> Response:
        user, device = _credentials(request)
        token, expiry = services.token_create(user=user, second_factor=device is not None)
        return Response(s.TokenOut({"token": token, "expiry": expiry}).data)


class MeView(APIView):
    """The logged-in player: read, or change the screen name."""

    @extend_schema(responses={200: s.MeOut}, operation_id="me")
    def get(self, request: Request) -> Response:
        return Response(s.MeOut(selectors.me_view(_player(request))).data)

    @extend_schema(request=s.ProfileIn, responses={200: s.MeOut}, operation_id="me_update")
    def patch(self, request: Request) -> Response:
        data = validated(s.ProfileIn, request.data)
        user = services.profile_update(user=_player(request), **data)
        return Response(s.MeOut(selectors.me_view(user)).data)


class MyLanguageView(APIView):
    """Choose the client's language for every browser you log in from
    (null: each browser's own)."""

    @extend_schema(request=s.LanguageIn, responses={200: s.MeOut}, operation_id="me_language")
    def put(self, request: Request) -> Response:
        user = services.language_set(user=_player(request), **validated(s.LanguageIn, request.data))
        return Response(s.MeOut(selectors.me_view(user)).data)


class MyLimitsView(APIView):
    """The player's own limits: self-exclusion and deposit limit."""

    @extend_schema(responses={200: s.LimitsOut}, operation_id="me_limits")
    def get(self, request: Request) -> Response:
        return Response(s.LimitsOut(limits.limits_view(user_id=_player(request).pk)).data)


class MySelfExclusionView(APIView):
    """Exclude yourself from play (no seat, no registration, no deposit)
    for a number of days; it can be made longer, never shorter."""

    @extend_schema(
        request=s.SelfExclusionIn, responses={200: s.LimitsOut}, operation_id="me_self_exclusion"
    )
    def post(self, request: Request) -> Response:
        data = validated(s.SelfExclusionIn, request.data)
        limits.self_exclusion_set(user=_player(request), **data)
        return Response(s.LimitsOut(limits.limits_view(user_id=_player(request).pk)).data)


class MyDepositLimitView(APIView):
    """Set your deposit limit for any 24 hours: a lower one holds at once, a
    higher one (or none) after 24 hours."""

    @extend_schema(
        request=s.DepositLimitIn, responses={200: s.LimitsOut}, operation_id="me_deposit_limit"
    )
    def put(self, request: Request) -> Response:
        limits.deposit_limit_set(user=_player(request), **validated(s.DepositLimitIn, request.data))
        return Response(s.LimitsOut(limits.limits_view(user_id=_player(request).pk)).data)


class PlayerNotesView(APIView):
    """Staff notes on a player (``accounts.note_players``): read them,
    newest first, or add one."""

    pagination_class = None

    @extend_schema(responses={200: s.NoteOut(many=True)}, operation_id="players_notes")
    def get(self, request: Request, user_id: str) -> Response:
        found = notes.notes_of(by=request.user, player_id=int(user_id))
        rows = [notes.note_view(n) for n in found[:200]]
        return Response(serializers.ListSerializer(rows, child=s.NoteOut()).data)

    @extend_schema(request=s.NoteIn, responses={201: s.NoteOut}, operation_id="players_note_add")
    def post(self, request: Request, user_id: str) -> Response:
        data = validated(s.NoteIn, request.data)
        note = notes.note_add(by=request.user, player_id=int(user_id), **data)
        return Response(s.NoteOut(notes.note_view(note)).data, status=201)


class HistoryPages(PageNumberPagination):
    page_size = 50
    page_size_query_param = "page_size"
    max_page_size = 200


def _history(view: APIView, request: Request, user_id: int) -> Response:
    query = validated(s.HistoryQuery, request.query_params)
    entries = selectors.ledger_history(user_id=user_id, kind=query.get("kind"))
    pages = HistoryPages()
    page = pages.paginate_queryset(entries, request, view=view)
    assert page is not None
    named = references.subjects(e.transfer.ref for e in page)
    return pages.get_paginated_response(
        serializers.ListSerializer(
            [selectors.entry_view(e, named) for e in page], child=s.EntryOut()
        ).data
    )


class MyWalletView(APIView):
    """The logged-in player's cash and tickets."""

    @extend_schema(responses={200: s.WalletOut}, operation_id="me_wallet")
    def get(self, request: Request) -> Response:
        return Response(s.WalletOut(selectors.wallet_view(user_id=_player(request).pk)).data)


class MyLedgerView(APIView):
    """The logged-in player's ledger history, newest first, by pages."""

    pagination_class = HistoryPages

    @extend_schema(
        parameters=[s.HistoryQuery],
        responses={200: s.EntryOut(many=True)},
        operation_id="me_ledger",
    )
    def get(self, request: Request) -> Response:
        return _history(self, request, _player(request).pk)


def _may_see(request: Request, user_id: int) -> None:
    if user_id != request.user.pk and not request.user.has_perm("accounts.view_wallets"):
        raise NotPermitted(_("Only the cashier sees other players' wallets."))


class WalletView(APIView):
    """Any player's wallet (staff with ``accounts.view_wallets``)."""

    @extend_schema(responses={200: s.WalletOut}, operation_id="wallets_retrieve")
    def get(self, request: Request, user_id: str) -> Response:
        _may_see(request, int(user_id))
        user = selectors.user_get(user_id=int(user_id))
        return Response(s.WalletOut(selectors.wallet_view(user_id=user.pk)).data)


class WalletLedgerView(APIView):
    """Any player's ledger history (staff with ``accounts.view_wallets``)."""

    pagination_class = HistoryPages

    @extend_schema(
        parameters=[s.HistoryQuery],
        responses={200: s.EntryOut(many=True)},
        operation_id="wallets_ledger",
    )
    def get(self, request: Request, user_id: str) -> Response:
        _may_see(request, int(user_id))
        user = selectors.user_get(user_id=int(user_id))
        return _history(self, request, user.pk)


def _money_view(name: str, service: Callable[..., Transfer]) -> type[APIView]:
    """A cashier's operation on a player's wallet."""

    class MoneyView(APIView):
        @extend_schema(
            request=s.MoneyIn, responses={200: s.MoneyOut}, operation_id=f"wallets_{name}"
        )
        def post(self, request: Request, user_id: str) -> Response:
            data = validated(s.MoneyIn, request.data)
            transfer = service(by=request.user, user_id=int(user_id), **data)
            body = {
                "transfer": selectors.transfer_view(transfer),
                "wallet": selectors.wallet_view(user_id=int(user_id)),
            }
            return Response(s.MoneyOut(body).data)

    MoneyView.__doc__ = service.__doc__
    MoneyView.__name__ = MoneyView.__qualname__ = f"Wallet{name.title()}View"
    return MoneyView


WalletDepositView = _money_view("deposit", money.wallet_deposit)
WalletWithdrawView = _money_view("withdraw", money.wallet_withdraw)
