"""What the apps' REST views share: who is asking, validated input, and the
view of one command on the resource a URL names."""

from __future__ import annotations

import copy
import re
from enum import Enum
from typing import Any, TypeAlias, cast

from django.core.validators import RegexValidator
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from kernel.system_ids import SYSTEM_VERSION

AnyField: TypeAlias = "serializers.Field[Any, Any, Any, Any]"
"""A DRF field of any kind (its value, data, representation and instance
types not named): what a serializer's ``get_fields`` gives."""

MAX_CHIPS = 10**12
"""The most chips one amount may name (a buy-in, a blind, a bet): far above
any real game, far below what the database columns hold."""


class StrictInteger(serializers.IntegerField):
    """A JSON integer only: no strings of digits, no floats, no booleans."""

    def to_internal_value(self, data: Any) -> int:
        if type(data) is not int:
            self.fail("invalid")
        return int(super().to_internal_value(data))


class _StringsOnly(serializers.Field[Any, str, Any, Any]):
    """JSON strings only: DRF's text fields take a number and turn it into
    text, which the schema (``type: string``) says is refused."""

    def to_internal_value(self, data: Any) -> Any:
        if not isinstance(data, str):
            self.fail("invalid")
        return super().to_internal_value(data)


class Text(_StringsOnly, serializers.CharField):
    """A JSON string."""


class Pattern(_StringsOnly, serializers.RegexField):
    """A JSON string matching a regular expression."""


class Email(_StringsOnly, serializers.EmailField):
    """A JSON string holding an email address."""


class StrictUUID(_StringsOnly, serializers.UUIDField):
    """A UUID as a JSON string (not as a number)."""


HEX = "0123456789abcdef"


def uuid_pattern(*, but_version: int) -> str:
    """A UUID's hyphenated text, in either case, of any version but
    ``but_version`` with RFC 9562's variant (that version is still matched
    with another variant, as ``uuid.UUID`` tells them apart)."""
    digit = HEX[but_version]
    others = HEX.replace(digit, "")
    x = "[0-9a-fA-F]"
    other = f"[{others}{others.upper().strip('0123456789')}]"
    version = f"(?:{other}{x}{{3}}-{x}|{digit}{x}{{3}}-[0-7c-fC-F])"
    return f"^{x}{{8}}-{x}{{4}}-{version}{x}{{3}}-{x}{{12}}$"


class ClientUUID(StrictUUID):
    """A UUID a client chooses, in its hyphenated text, of any version but
    ``reserved_version`` (the kind of id the room derives for itself): the
    pattern is checked on the text sent and declared in the schema."""

    default_error_messages = {
        "reserved": "A UUID's hyphenated text, of any version but {version} (the room's own)."
    }

    def __init__(self, *, reserved_version: int, **options: Any) -> None:
        self.reserved_version = reserved_version
        self.pattern = RegexValidator(uuid_pattern(but_version=reserved_version))
        super().__init__(**options)
        self.validators.append(self.pattern)

    def to_internal_value(self, data: Any) -> Any:
        value = super().to_internal_value(data)
        # Compiled by RegexValidator's __init__ (its stubs allow a str).
        if not cast(re.Pattern[str], self.pattern.regex).search(data):
            self.fail("reserved", version=self.reserved_version)
        return value


def command_id(**options: object) -> ClientUUID:
    """A client's command id, the same field at every kind of table: any
    UUID but of the kind the room keeps for its own ids
    (``kernel.system_ids.SYSTEM_VERSION``)."""
    return ClientUUID(reserved_version=SYSTEM_VERSION, **options)


class StrictBoolean(serializers.BooleanField):
    """``true`` or ``false`` only: no ``"yes"``, ``1`` or ``"true"``."""

    def to_internal_value(self, data: Any) -> bool:
        if type(data) is not bool:
            self.fail("invalid", input=data)
        return data


class Query(serializers.Serializer[dict[str, object]]):
    """Query parameters.  One given empty (``?kind=``) is refused like any
    other bad value, where DRF's form handling would take it as left out."""

    def to_internal_value(self, data: Any) -> Any:
        # By items: DRF's stubs have a serializer's fields iterate as fields, not names.
        blank = [name for name, _ in self.fields.items() if data.get(name) == ""]
        if blank:
            raise serializers.ValidationError({name: ["May not be empty."] for name in blank})
        return super().to_internal_value(data)


class FieldsCopied(serializers.Serializer[dict[str, object]]):
    """A serializer whose instances take shallow copies of fields built
    once per class: DRF's ``get_fields`` deep-copies every declared field,
    which builds each again (validators, error messages), the bulk of
    checking a small input such as a WebSocket's ``act`` frame.  A copy
    gets its own binding (name, parent); what validation only reads (its
    validators, messages, a list's child) is shared."""

    _built: dict[type[Any], dict[str, AnyField]] = {}

    def get_fields(self) -> dict[str, AnyField]:
        built = self._built.get(type(self))
        if built is None:
            built = self._built[type(self)] = super().get_fields()
        return {name: copy.copy(field) for name, field in built.items()}


def chips(**options: Any) -> StrictInteger:
    """A chip amount field."""
    return StrictInteger(max_value=MAX_CHIPS, **options)


def choice(enum: type[Enum], **options: Any) -> serializers.ChoiceField:
    """One of ``enum``'s values, in or out (every field of one enumeration
    shares one named enum in the schema: ``ENUM_NAME_OVERRIDES``)."""
    return serializers.ChoiceField(choices=[m.value for m in enum], **options)


def viewer(request: Request) -> Any:
    """The logged-in user, or None for an anonymous request."""
    return request.user if request.user.is_authenticated else None


def validated(serializer_class: type[Any], data: Any) -> dict[str, Any]:
    """``data`` as ``serializer_class`` validates it (a 400 otherwise)."""
    serializer = serializer_class(data=data)
    serializer.is_valid(raise_exception=True)
    return dict(serializer.validated_data)


def command_view(
    service: Any, body: type[Any], answer: type[Any], *, class_name: str, operation_id: str
) -> type[APIView]:
    """A view posting ``body`` to ``service`` for the logged-in user: the
    ids the URL names (``table_id``, ``tournament_id``) go to the service
    under the same names, and its answer (shaped as ``answer`` declares)
    is the response."""

    class CommandView(APIView):
        @extend_schema(request=body, responses={200: answer}, operation_id=operation_id)
        def post(self, request: Request, **ids: int) -> Response:
            data = validated(body, request.data)
            return Response(service(by=request.user, **ids, **data))

    CommandView.__doc__ = service.__doc__
    CommandView.__name__ = CommandView.__qualname__ = class_name
    return CommandView
