"""Root URLs: the browser client, admin, OpenAPI schema and docs, health check, the apps' APIs."""

from django.contrib import admin
from django.urls import include, path, re_path
from drf_spectacular.views import SpectacularSwaggerView

from client.views import favicon, index
from config import views

urlpatterns = [
    path("", index, name="client"),
    path("favicon.ico", favicon, name="favicon"),
    path("admin/", admin.site.urls),
    path("api/schema/", views.SchemaView.as_view(), name="schema"),
    path("api/docs/", SpectacularSwaggerView.as_view(url_name="schema"), name="docs"),
    path("api/health/", views.health, name="health"),
    path("api/", include("poker.api.urls")),
    path("api/", include("casino.api.urls")),
    path("api/", include("accounts.api.urls")),
    path("api/", include("tournaments.api.urls")),
    path("api/", include("reports.api.urls")),
    # Keep last: any other /api/ path is a JSON 404, not an HTML page.
    re_path(r"^api/", views.api_not_found),
]

handler404 = "config.views.not_found"
