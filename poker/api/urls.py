"""Cash-table API routes, mounted under /api/."""

from django.urls import URLPattern, URLResolver, path
from rest_framework.authtoken.views import obtain_auth_token

from poker.api import views

urlpatterns: list[URLPattern | URLResolver] = [
    path("auth/token/", obtain_auth_token, name="token"),
    path("tables/", views.TablesView.as_view(), name="tables"),
    path("tables/<int:table_id>/", views.TableView.as_view(), name="table"),
    path("tables/<int:table_id>/close/", views.TableCloseView.as_view(), name="table-close"),
    path("tables/<int:table_id>/actions/", views.ActionsView.as_view(), name="actions"),
    *[
        path(f"tables/<int:table_id>/{command}/", view.as_view(), name=f"seat-{command}")
        for command, view in views.SEAT_VIEWS.items()
    ],
    path("hands/", views.HandsView.as_view(), name="hands"),
    path("hands/<str:hand_id>/", views.HandView.as_view(), name="hand"),
    path("hands/<str:hand_id>/phh/", views.HandPhhView.as_view(), name="hand-phh"),
]
