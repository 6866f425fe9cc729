"""The API's JSON parser: DRF's, with limits on what a body may be.

A body nested deeper than ``MAX_DEPTH`` is refused as ``malformed`` (no
request needs more than a few levels, and Python's parser would blow the
stack at about a thousand, a 500 served as Django's debug page); a body
over ``DATA_UPLOAD_MAX_MEMORY_SIZE`` is refused as ``too_large`` before
it is read whole (DRF reads the stream itself, past Django's check).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import IO, Any

from django.conf import settings
from rest_framework import parsers, status
from rest_framework.exceptions import APIException, ParseError
from rest_framework.utils import json

MAX_DEPTH = 32
"""The deepest nesting of arrays and objects a request body may have."""


class TooLarge(APIException):
    """A body over the upload limit (an ``APIException``, not an ``ApiError``:
    DRF loads the parser while ``kernel.api_errors`` is still importing)."""

    status_code = status.HTTP_413_REQUEST_ENTITY_TOO_LARGE
    default_code = "too_large"
    default_detail = "The request body is larger than the server accepts."


class JSONParser(parsers.JSONParser):
    """JSON bodies, refused when too large or nested too deep."""

    def parse(
        self,
        stream: IO[bytes],
        media_type: str | None = None,
        parser_context: Mapping[str, Any] | None = None,
    ) -> Any:
        raw = read_limited(stream)
        encoding = (parser_context or {}).get("encoding", settings.DEFAULT_CHARSET)
        try:
            constant = json.strict_constant if self.strict else None
            data = json.loads(raw.decode(encoding), parse_constant=constant)
        except RecursionError:
            raise too_deep() from None
        except ValueError as error:
            raise ParseError(f"JSON parse error - {error}") from None
        if depth_over(data, MAX_DEPTH):
            raise too_deep()
        return data


def read_limited(stream: IO[bytes]) -> bytes:
    """The whole body, or ``TooLarge`` once it passes the upload limit."""
    limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
    raw = stream.read() if limit is None else stream.read(limit + 1)
    if limit is not None and len(raw) > limit:
        raise TooLarge()
    return raw


def too_deep() -> ParseError:
    return ParseError(f"JSON nested deeper than {MAX_DEPTH} levels.")


def depth_over(data: Any, limit: int) -> bool:
    """Whether ``data`` nests arrays and objects deeper than ``limit``
    (iteratively: the check must not recurse either)."""
    pending = [(data, 1)]
    while pending:
        value, depth = pending.pop()
        if isinstance(value, dict):
            value = list(value.values())
        if isinstance(value, list):
            if depth > limit:
                return True
            pending.extend((child, depth + 1) for child in value)
    return False
