"""Tournament API routes, mounted under /api/."""

from django.urls import URLPattern, URLResolver, path

from tournaments.api import views

urlpatterns: list[URLPattern | URLResolver] = [
    path("tournaments/", views.TournamentsView.as_view(), name="tournaments"),
    path("tournaments/coming/", views.ComingUpView.as_view(), name="tournaments-coming"),
    path("schedules/", views.SchedulesView.as_view(), name="schedules"),
    path("schedules/<int:schedule_id>/", views.ScheduleView.as_view(), name="schedule"),
    *[
        path(f"schedules/<int:schedule_id>/{name}/", view.as_view(), name=f"schedule-{name}")
        for name, view in views.SCHEDULE_VIEWS.items()
    ],
    path("tournaments/<int:tournament_id>/", views.TournamentView.as_view(), name="tournament"),
    path("step-chains/", views.StepChainsView.as_view(), name="step-chains"),
    path("step-chains/<int:chain_id>/", views.StepChainView.as_view(), name="step-chain"),
    path(
        "step-chains/<int:chain_id>/close/",
        views.StepChainCloseView.as_view(),
        name="step-chain-close",
    ),
    path("tickets/", views.TicketsView.as_view(), name="tickets"),
    *[
        path(f"tournaments/<int:tournament_id>/{name}/", view.as_view(), name=f"tournament-{name}")
        for name, view in {**views.READ_VIEWS, **views.COMMAND_VIEWS}.items()
    ],
]
