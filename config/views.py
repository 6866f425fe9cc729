"""The few views the project itself serves: health check, the OpenAPI
schema and JSON 404s for /api/."""

import functools
from typing import Any

from django.core.signals import setting_changed
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.urls import Resolver404, resolve
from django.utils.translation import gettext as _
from django.views import defaults
from django.views.decorators.csrf import csrf_exempt
from drf_spectacular.generators import SchemaGenerator
from drf_spectacular.utils import extend_schema, inline_serializer
from drf_spectacular.views import SpectacularAPIView
from rest_framework import serializers
from rest_framework.decorators import api_view, authentication_classes, permission_classes
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response

from accounts.throttles import SchemaAddressThrottle
from kernel.api_errors import error_body


@extend_schema(
    summary="Health check",
    responses=inline_serializer("Health", fields={"status": serializers.CharField()}),
)
@api_view(["GET"])
@authentication_classes([])
@permission_classes([AllowAny])
def health(request: Request) -> Response:
    """The process is up and serving requests."""
    return Response({"status": "ok"})


@functools.cache
def api_schema() -> dict[str, Any]:
    """The OpenAPI document, built once per process: it is the code's, the
    same for every request, and building it takes a good part of a second."""
    schema: dict[str, Any] = SchemaGenerator().get_schema(request=None, public=True)
    return schema


def _rebuild_schema(**kwargs: Any) -> None:
    """Settings changed (tests): the next request builds the schema anew."""
    api_schema.cache_clear()


setting_changed.connect(_rebuild_schema)


class SchemaView(SpectacularAPIView):
    """``/api/schema/``: the document built once (``api_schema``), open to
    anyone, throttled per address."""

    throttle_classes = [SchemaAddressThrottle]

    @extend_schema(exclude=True)
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return Response(api_schema(), headers={"Content-Disposition": "inline"})


@csrf_exempt
def api_not_found(request: HttpRequest, *args: object, **kwargs: object) -> JsonResponse:
    """Catch-all for /api/ paths that no route matched, in DEBUG as well,
    whatever the method (CSRF-exempt: it changes nothing, and a client with
    a token has no CSRF cookie).  A path that lacks only its trailing slash
    is not redirected (a redirect loses a POST's body): the answer names
    the path to use."""
    message = _("No API endpoint at %(path)s.") % {"path": request.path}
    if _routed(f"{request.path}/"):
        message += " " + _("Did you mean %(path)s/ (API paths end with a slash)?") % {
            "path": request.path
        }
    return JsonResponse(error_body("not_found", message), status=404)


def _routed(path: str) -> bool:
    """Whether ``path`` reaches an API view other than the catch-all."""
    try:
        return resolve(path).func is not api_not_found
    except Resolver404:
        return False


def not_found(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """handler404: JSON under /api/, Django's page elsewhere."""
    if request.path.startswith("/api/"):
        return api_not_found(request)
    return defaults.page_not_found(request, exception)
