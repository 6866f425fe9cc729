"""Casino-table API routes, mounted under /api/."""

from django.urls import URLPattern, URLResolver, path

from casino.api import views

urlpatterns: list[URLPattern | URLResolver] = [
    path("casino/tables/", views.CasinoTablesView.as_view(), name="casino-tables"),
    path("casino/tables/<int:table_id>/", views.CasinoTableView.as_view(), name="casino-table"),
    path(
        "casino/tables/<int:table_id>/strategy/",
        views.CasinoStrategyView.as_view(),
        name="casino-strategy",
    ),
    *[
        path(f"casino/tables/<int:table_id>/{name}/", view.as_view(), name=f"casino-{name}")
        for name, view in views.COMMAND_VIEWS.items()
    ],
    path("casino/math/", views.CasinoMathView.as_view(), name="casino-math"),
    path("casino/bankroll/", views.BankrollView.as_view(), name="casino-bankroll"),
    path("casino/rounds/", views.CasinoRoundsView.as_view(), name="casino-rounds"),
    path("casino/rounds/<str:round_id>/", views.CasinoRoundView.as_view(), name="casino-round"),
]
