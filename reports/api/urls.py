"""Reports API routes, mounted under /api/."""

from django.urls import URLPattern, path

from reports.api.views import VIEWS

urlpatterns: list[URLPattern] = [
    path(f"reports/{name}/", view.as_view(), name=f"report-{name}") for name, view in VIEWS.items()
]
