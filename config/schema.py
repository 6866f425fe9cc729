"""The OpenAPI schema as a contract: every operation's errors, declared once.

Views declare their success responses with ``extend_schema``; ``ApiSchema``
(DRF's ``DEFAULT_SCHEMA_CLASS``) adds the error responses any operation can
give, each with the one error shape (``kernel.api_errors``), from what the
view is: a body can be malformed (400), too large (413) or of another media
type (415); a view with authenticators refuses a bad token (401); one that
needs a login refuses an anonymous or unpermitted request (403); a path or
query parameter can name nothing (404); a command can conflict with the
state or reuse a command id (409); a throttled one is refused for a while
(429, with ``Retry-After``).  A view's own ``extend_schema`` responses win.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.openapi import AutoSchema
from rest_framework import permissions, serializers


class ErrorOut(serializers.Serializer[dict[str, object]]):
    """Every 4xx body: a stable ``code`` to branch on, a ``message`` for
    people, and what some refusals add."""

    code = serializers.CharField(help_text="Stable, machine-readable: invalid, not_found, ...")
    message = serializers.CharField()
    # A declared field, which DRF's metaclass takes out of the class: it
    # does not replace the serializer's own ``fields`` (as the stubs think).
    fields = serializers.DictField(  # type: ignore[assignment]
        required=False, help_text="invalid: what is wrong with each field (by field name)."
    )
    details = serializers.JSONField(required=False, help_text="More about the refusal.")
    detail = serializers.CharField(
        required=False,
        help_text="A rule's refusal: the engine's or the rules' own words, in English.",
    )
    values = serializers.DictField(
        child=serializers.IntegerField(),
        required=False,
        help_text="A rule's refusal: the figures its message names (a bound, a seat, ...).",
    )
    retry_after = serializers.IntegerField(
        required=False, help_text="throttled: whole seconds before asking again."
    )
    current = serializers.DictField(
        required=False, help_text="stale_version: the table as it now is, for the asker."
    )


ERRORS: dict[str, str] = {
    "400": "Invalid or malformed input (`invalid`, `malformed`, or a rule's refusal).",
    "401": "Not logged in, or a bad token (`not_authenticated`, `authentication_failed`).",
    "403": "Not allowed (`forbidden`), or a session without its CSRF token.",
    "404": "No such resource (`not_found`).",
    "409": "Refused by the state (`stale_version`, `command_id_reused`, `command_id_taken`, ...).",
    "413": "The body is larger than the server accepts (`too_large`).",
    "415": "The body is not JSON (`unsupported_media_type`).",
    "429": "Too many requests (`throttled`): ask again after `Retry-After` seconds.",
}

RETRY_AFTER = {
    "Retry-After": {
        "description": "Whole seconds before the request may be made again.",
        "schema": {"type": "integer", "minimum": 0},
        "required": True,
    }
}


class ApiSchema(AutoSchema):
    """drf-spectacular's schema, with each operation's error responses."""

    def _get_response_bodies(self, direction: Any = "response") -> dict[str, Any]:
        responses: dict[str, Any] = super()._get_response_bodies(direction)
        if direction != "response":
            return responses
        error = self.resolve_serializer(ErrorOut, "response").ref
        for code in self.error_codes():
            if code not in responses:
                body: dict[str, Any] = {
                    "description": ERRORS[code],
                    "content": {"application/json": {"schema": error}},
                }
                if code == "429":
                    body["headers"] = RETRY_AFTER
                responses[code] = body
        return dict(sorted(responses.items()))

    def error_codes(self) -> list[str]:
        """The 4xx statuses this operation can answer with."""
        unsafe = self.method not in permissions.SAFE_METHODS
        body = unsafe and self.get_request_serializer() is not None
        parameters = [p for p in self._get_parameters() if p["in"] in ("path", "query")]
        authenticated = bool(self.view.get_authenticators())
        codes = {
            "400": body or any(p["in"] == "query" for p in parameters),
            "401": authenticated,
            "403": authenticated and not self.is_public(),
            "404": bool(parameters),
            "409": body,
            "413": body,
            "415": body,
            "429": unsafe and bool(self.view.get_throttles()),
        }
        return [code for code, applies in codes.items() if applies]

    def is_public(self) -> bool:
        """Whether anyone may make this request, logged in or not."""
        return {} in self.get_auth() or not self.get_auth()
