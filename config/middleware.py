"""Middleware of the project's own: limits that hold for every /api/ path."""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse

from config.api_errors import error_body
from config.parsers import TooLarge


def api_body_limit(
    get_response: Callable[[HttpRequest], HttpResponse],
) -> Callable[..., HttpResponse]:
    """Refuse an /api/ request whose declared body is over the upload limit
    with 413 ``too_large``, before any view, whatever its media type or
    path (the JSON parser checks bodies sent without a length)."""

    def middleware(request: HttpRequest) -> HttpResponse:
        if request.path.startswith("/api/") and _declared_too_large(request):
            body = error_body("too_large", str(TooLarge.default_detail))
            return JsonResponse(body, status=TooLarge.status_code)
        return get_response(request)

    return middleware


def _declared_too_large(request: HttpRequest) -> bool:
    limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
    length = request.META.get("CONTENT_LENGTH") or "0"
    return limit is not None and length.isdigit() and int(length) > limit
