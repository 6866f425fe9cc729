"""Every API error is rendered as {"code", "message", ...} with its 4xx status."""

import pytest
from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.core.exceptions import RequestDataTooBig
from django.http import Http404
from rest_framework import exceptions, serializers
from rest_framework.permissions import IsAuthenticated
from rest_framework.test import APIRequestFactory
from rest_framework.views import APIView

from kernel.api_errors import ApiError, exception_handler


def render(exc):
    response = exception_handler(exc, {})
    assert response is not None
    return response.status_code, response.data


@pytest.mark.parametrize(
    ("exc", "status", "code"),
    [
        (exceptions.ParseError(), 400, "malformed"),
        (exceptions.NotAuthenticated(), 401, "not_authenticated"),
        (exceptions.AuthenticationFailed(), 401, "authentication_failed"),
        (exceptions.PermissionDenied(), 403, "forbidden"),
        (DjangoPermissionDenied(), 403, "forbidden"),
        (exceptions.NotFound(), 404, "not_found"),
        (Http404(), 404, "not_found"),
        (exceptions.MethodNotAllowed("DELETE"), 405, "method_not_allowed"),
        (exceptions.NotAcceptable(), 406, "not_acceptable"),
        (exceptions.UnsupportedMediaType("text/plain"), 415, "unsupported_media_type"),
        (exceptions.Throttled(wait=3), 429, "throttled"),
        (RequestDataTooBig(), 413, "too_large"),
    ],
)
def test_drf_and_django_exceptions_map_to_status_and_code(exc, status, code):
    got_status, body = render(exc)
    assert (got_status, body["code"]) == (status, code)
    assert isinstance(body["message"], str)
    assert body["message"]


def test_validation_error_is_400_invalid_with_fields():
    status, body = render(exceptions.ValidationError({"amount": ["Must be positive."]}))
    assert status == 400
    assert body == {
        "code": "invalid",
        "message": "Invalid input.",
        "fields": {"amount": ["Must be positive."]},
    }


def test_validation_error_without_field_goes_under_non_field_errors():
    status, body = render(exceptions.ValidationError("Seat is taken."))
    assert status == 400
    assert body["fields"] == {"non_field_errors": ["Seat is taken."]}


def test_throttled_says_when_to_retry():
    response = exception_handler(exceptions.Throttled(wait=2.2), {})
    assert response.data["retry_after"] == 3
    assert response["Retry-After"] == "3"


def test_api_error_subclass_renders_its_status_code_message_and_extra():
    class StaleVersion(ApiError):
        status = 409
        code = "stale_version"
        message = "The table has moved on."

    status, body = render(StaleVersion(extra={"current_version": 7}))
    assert status == 409
    assert body == {
        "code": "stale_version",
        "message": "The table has moved on.",
        "current_version": 7,
    }


def test_api_error_message_and_code_can_be_given_per_instance():
    status, body = render(ApiError("Not your turn.", code="not_your_turn"))
    assert (status, body) == (400, {"code": "not_your_turn", "message": "Not your turn."})


def test_api_error_extra_cannot_override_code_or_message():
    _, body = render(ApiError("m", code="c", extra={"code": "x", "message": "y"}))
    assert (body["code"], body["message"]) == ("c", "m")


def test_api_error_refuses_a_non_4xx_status():
    with pytest.raises(ValueError, match="4xx"):
        ApiError(status=500)


def test_unexpected_exception_is_left_to_django_as_a_500():
    assert exception_handler(RuntimeError("bug"), {}) is None


class _Bet(serializers.Serializer):
    amount = serializers.IntegerField(min_value=1)


class _BetView(APIView):
    permission_classes = [IsAuthenticated]

    def post(self, request):
        _Bet(data=request.data).is_valid(raise_exception=True)
        return None  # pragma: no cover


def test_anonymous_request_to_protected_view_is_401_not_authenticated():
    request = APIRequestFactory().post("/x", {"amount": 5}, format="json")
    response = _BetView.as_view()(request)
    assert response.status_code == 401
    assert response.data["code"] == "not_authenticated"
    assert response["WWW-Authenticate"].startswith("Token")


def test_invalid_body_through_a_view_is_400_with_fields():
    class OpenBetView(_BetView):
        permission_classes = []

    request = APIRequestFactory().post("/x", {"amount": 0}, format="json")
    response = OpenBetView.as_view()(request)
    assert response.status_code == 400
    assert response.data["code"] == "invalid"
    assert list(response.data["fields"]) == ["amount"]


def test_malformed_json_through_a_view_is_400_malformed():
    class OpenBetView(_BetView):
        permission_classes = []

    request = APIRequestFactory().post("/x", b"{not json", content_type="application/json")
    response = OpenBetView.as_view()(request)
    assert response.status_code == 400
    assert response.data["code"] == "malformed"
