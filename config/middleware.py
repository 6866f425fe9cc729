"""Middleware of the project's own: limits and headers that hold for every
/api/ path, and static files."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils.cache import patch_cache_control, patch_vary_headers
from whitenoise.middleware import WhiteNoiseMiddleware

from kernel.api_errors import error_body
from kernel.parsers import TooLarge


def api_paths(
    get_response: Callable[[HttpRequest], HttpResponse],
) -> Callable[..., HttpResponse]:
    """For every /api/ path: a request whose declared body is over the
    upload limit is refused with 413 ``too_large``, before any view,
    whatever its media type or path (the JSON parser checks bodies sent
    without a length); every other answer is ``Cache-Control: private,
    no-store`` and varies with ``Authorization`` and ``Cookie``: many carry
    what only one player may see (his hole cards, his wallet), and no cache
    between him and the server, nor his browser's disk, may keep them or
    hand them to another."""

    def middleware(request: HttpRequest) -> HttpResponse:
        if not request.path.startswith("/api/"):
            return get_response(request)
        if _declared_too_large(request):
            body = error_body("too_large", str(TooLarge.default_detail))
            return JsonResponse(body, status=TooLarge.status_code)
        response = get_response(request)
        patch_cache_control(response, private=True, no_store=True)
        patch_vary_headers(response, ("Authorization", "Cookie"))
        return response

    return middleware


def _declared_too_large(request: HttpRequest) -> bool:
    limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
    length = request.META.get("CONTENT_LENGTH") or "0"
    return limit is not None and length.isdigit() and int(length) > limit


class StaticFiles(WhiteNoiseMiddleware):  # type: ignore[misc]  # untyped base (whitenoise)
    """WhiteNoise, with its index of the static files made once a process.

    Django builds a middleware chain for every request handler, and every
    test client is one: each would walk the files of every app again (tens
    of milliseconds).  With autorefresh off the files cannot change while
    the process runs, so the index of each directory and of the finders is
    made once and shared."""

    _indexes: ClassVar[dict[tuple[str, ...], dict[str, Any]]] = {}

    def add_files(self, root: Any, prefix: str | None = None) -> None:
        self._shared(
            ("root", str(root), str(prefix)),
            lambda: super(StaticFiles, self).add_files(root, prefix),
        )

    def add_files_from_finders(self) -> None:
        self._shared(("finders", self.static_prefix), super().add_files_from_finders)

    def _shared(self, key: tuple[str, ...], add: Callable[[], None]) -> None:
        if self.autorefresh:
            add()
            return
        index = self._indexes.get(key)
        if index is None:
            before = dict(self.files)
            add()
            index = {path: f for path, f in self.files.items() if before.get(path) is not f}
            self._indexes[key] = index
        self.files.update(index)
