"""Cash-table API routes, mounted under /api/."""

from django.urls import URLPattern, URLResolver, path, re_path

from poker.api import views

urlpatterns: list[URLPattern | URLResolver] = [
    path("tables/", views.TablesView.as_view(), name="tables"),
    path("tables/<int:table_id>/", views.TableView.as_view(), name="table"),
    path("tables/<int:table_id>/close/", views.TableCloseView.as_view(), name="table-close"),
    path("tables/<int:table_id>/actions/", views.ActionsView.as_view(), name="actions"),
    *[
        path(f"tables/<int:table_id>/{command}/", view.as_view(), name=f"seat-{command}")
        for command, view in views.SEAT_VIEWS.items()
    ],
    path("hands/", views.HandsView.as_view(), name="hands"),
    re_path(r"^hands/(?P<hand_id>[0-9]{1,18}-[0-9]{1,9})/$", views.HandView.as_view(), name="hand"),
    re_path(
        r"^hands/(?P<hand_id>[0-9]{1,18}-[0-9]{1,9})/phh/$",
        views.HandPhhView.as_view(),
        name="hand-phh",
    ),
]
