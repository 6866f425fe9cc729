"""One shape for every API error: ``{"code": ..., "message": ..., ...}``.

``code`` is a stable, machine-readable slug that clients branch on; ``message``
is for people. Services refuse a request by raising a subclass of
:class:`ApiError`; DRF's and Django's own exceptions are mapped below; a
database or Redis out of reach is a 503 ``unavailable`` (``kernel.outage``).
Anything else is a bug and stays a 500.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.core.exceptions import RequestDataTooBig
from django.http import Http404
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _
from rest_framework import exceptions
from rest_framework.response import Response
from rest_framework.settings import api_settings
from rest_framework.views import set_rollback

from kernel import outage
from kernel.parsers import TooLarge


class ApiError(Exception):
    """A request the service refuses, with a 4xx status, a code and a message.

    Subclass it per kind of refusal and set the class attributes; pass
    ``extra`` for fields a client needs besides code and message.
    """

    status: int = 400
    code: str = "bad_request"
    message: str | Promise = _("The request could not be processed.")
    """For people: a string, or a lazy translation (rendered in the
    request's language when the error is sent)."""

    def __init__(
        self,
        message: str | Promise | None = None,
        *,
        code: str | None = None,
        status: int | None = None,
        extra: Mapping[str, Any] | None = None,
    ) -> None:
        self.message = message if message is not None else type(self).message
        self.code = code if code is not None else type(self).code
        self.status = status if status is not None else type(self).status
        if not 400 <= self.status <= 499:
            raise ValueError(f"ApiError status must be 4xx, not {self.status}")
        self.extra = dict(extra or {})
        super().__init__(self.message)

    def as_dict(self) -> dict[str, Any]:
        return {**self.extra, "code": self.code, "message": str(self.message)}


# Checked in order: the first class the exception is an instance of gives the code.
_CODES: tuple[tuple[type[exceptions.APIException], str], ...] = (
    (exceptions.ValidationError, "invalid"),
    (exceptions.ParseError, "malformed"),
    (exceptions.NotAuthenticated, "not_authenticated"),
    (exceptions.AuthenticationFailed, "authentication_failed"),
    (exceptions.PermissionDenied, "forbidden"),
    (exceptions.NotFound, "not_found"),
    (exceptions.MethodNotAllowed, "method_not_allowed"),
    (exceptions.NotAcceptable, "not_acceptable"),
    (exceptions.UnsupportedMediaType, "unsupported_media_type"),
    (exceptions.Throttled, "throttled"),
    (TooLarge, "too_large"),
)


def exception_handler(exc: Exception, context: Mapping[str, Any]) -> Response | None:
    """DRF's EXCEPTION_HANDLER: render ``exc`` as an error body, or return None (500)."""
    if isinstance(exc, ApiError):
        set_rollback()
        return Response(exc.as_dict(), status=exc.status)
    if isinstance(exc, outage.OUTAGE_ERRORS):
        set_rollback()
        retry = {"Retry-After": str(outage.RETRY_AFTER_S)}
        return Response(outage.body(), status=outage.STATUS, headers=retry)

    if isinstance(exc, Http404):
        exc = exceptions.NotFound()
    elif isinstance(exc, DjangoPermissionDenied):
        exc = exceptions.PermissionDenied()
    elif isinstance(exc, RequestDataTooBig):  # Django's own check (a form body)
        exc = TooLarge()

    if not isinstance(exc, exceptions.APIException):
        return None

    headers: dict[str, str] = {}
    auth_header = getattr(exc, "auth_header", None)
    if auth_header:
        headers["WWW-Authenticate"] = auth_header
    wait = getattr(exc, "wait", None)
    if wait:
        headers["Retry-After"] = str(math.ceil(wait))

    set_rollback()
    return Response(api_exception_body(exc), status=exc.status_code, headers=headers or None)


def api_exception_body(exc: exceptions.APIException) -> dict[str, Any]:
    code = next((c for cls, c in _CODES if isinstance(exc, cls)), None)
    if code is None:
        code = str(getattr(exc, "default_code", "error"))

    if isinstance(exc, exceptions.ValidationError):
        fields = exc.detail
        if not isinstance(fields, dict):
            fields = {api_settings.NON_FIELD_ERRORS_KEY: fields}
        return {"code": code, "message": str(_("Invalid input.")), "fields": _plain(fields)}

    body: dict[str, Any] = {"code": code}
    if isinstance(exc.detail, list | dict):
        body["message"] = str(exc.default_detail)
        body["details"] = _plain(exc.detail)
    else:
        body["message"] = str(exc.detail)
    # Throttled's ``wait`` (seconds or None), which DRF's stubs leave out.
    wait: float | None = getattr(exc, "wait", None)
    if isinstance(exc, exceptions.Throttled) and wait is not None:
        body["retry_after"] = math.ceil(wait)
    return body


def error_body(code: str, message: str) -> dict[str, str]:
    """The body of an error raised outside DRF (e.g. a URL that matches no route)."""
    return {"code": code, "message": message}


def _plain(detail: Any) -> Any:
    """ErrorDetail strings and nested containers as plain JSON-able values."""
    if isinstance(detail, dict):
        return {str(key): _plain(value) for key, value in detail.items()}
    if isinstance(detail, list | tuple):
        return [_plain(item) for item in detail]
    return str(detail)
