"""The few views the project itself serves: health check and JSON 404s for /api/."""

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.views import defaults
from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.decorators import api_view, authentication_classes, permission_classes
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response

from config.api_errors import error_body


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


def api_not_found(request: HttpRequest, *args: object, **kwargs: object) -> JsonResponse:
    """Catch-all for /api/ paths that no route matched, in DEBUG as well."""
    return JsonResponse(error_body("not_found", f"No API endpoint at {request.path}."), status=404)


def not_found(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """handler404: JSON under /api/, Django's page elsewhere."""
    if request.path.startswith("/api/"):
        return api_not_found(request)
    return defaults.page_not_found(request, exception)
