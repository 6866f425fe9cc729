"""Accounts API routes, mounted under /api/."""

from django.urls import URLPattern, URLResolver, path, re_path

from accounts.api import views

USER = r"(?P<user_id>[0-9]{1,18})"

urlpatterns: list[URLPattern | URLResolver] = [
    path("auth/register/", views.RegisterView.as_view(), name="register"),
    path("auth/login/", views.LoginView.as_view(), name="login"),
    path("auth/token/", views.TokenView.as_view(), name="token"),
    path("auth/logout/", views.LogoutView.as_view(), name="logout"),
    path("auth/logout-all/", views.LogoutAllView.as_view(), name="logout-all"),
    path("auth/password/", views.PasswordView.as_view(), name="password"),
    path("ws-ticket/", views.WsTicketView.as_view(), name="ws-ticket"),
    path("me/", views.MeView.as_view(), name="me"),
    path("me/wallet/", views.MyWalletView.as_view(), name="me-wallet"),
    path("me/ledger/", views.MyLedgerView.as_view(), name="me-ledger"),
    path("me/language/", views.MyLanguageView.as_view(), name="me-language"),
    path("me/limits/", views.MyLimitsView.as_view(), name="me-limits"),
    path("me/self-exclusion/", views.MySelfExclusionView.as_view(), name="me-self-exclusion"),
    path("me/deposit-limit/", views.MyDepositLimitView.as_view(), name="me-deposit-limit"),
    re_path(rf"^players/{USER}/notes/$", views.PlayerNotesView.as_view(), name="player-notes"),
    re_path(rf"^wallets/{USER}/$", views.WalletView.as_view(), name="wallet"),
    re_path(rf"^wallets/{USER}/ledger/$", views.WalletLedgerView.as_view(), name="wallet-ledger"),
    re_path(
        rf"^wallets/{USER}/deposit/$", views.WalletDepositView.as_view(), name="wallet-deposit"
    ),
    re_path(
        rf"^wallets/{USER}/withdraw/$", views.WalletWithdrawView.as_view(), name="wallet-withdraw"
    ),
]
