"""Everything under /api/ answers in the JSON error shape, for a client
with a token and for one with a session (CSRF checks on, as in a browser):
unknown paths, wrong methods, a missing trailing slash, bodies too large
or nested too deep."""

from __future__ import annotations

import io
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from knox.models import AuthToken
from rest_framework.test import APIClient

from kernel.parsers import JSONParser, TooLarge

CSRF = "a" * 32
"""A CSRF secret the session client holds as its cookie and sends back."""


@pytest.fixture(params=["token", "session"])
def client(request: Any, db: None) -> APIClient:
    """A logged-in client: by token, or by session with its CSRF token."""
    user = get_user_model().objects.create_user("ann", password="pw")
    client = APIClient(enforce_csrf_checks=True)
    if request.param == "token":
        _, key = AuthToken.objects.create(user=user)
        client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    else:
        client.force_login(user)
        client.cookies["csrftoken"] = CSRF
        client.credentials(HTTP_X_CSRFTOKEN=CSRF)
    return client


def error(response: Any, status: int, code: str) -> dict[str, Any]:
    """The JSON error body of ``response``, which must have ``status`` and ``code``."""
    assert response.status_code == status, (response.status_code, response.content[:300])
    assert response["Content-Type"].startswith("application/json"), response["Content-Type"]
    body = response.json()
    assert body["code"] == code, body
    assert isinstance(body["message"], str) and body["message"], body
    return body


def nested(depth: int) -> str:
    return "[" * depth + "]" * depth


@pytest.mark.parametrize("method", ["get", "post", "put", "delete"])
def test_an_unknown_path_is_a_json_404_whatever_the_method(client, method):
    response = getattr(client, method)("/api/no-such-thing/", {}, format="json")
    assert "/api/no-such-thing/" in error(response, 404, "not_found")["message"]


@pytest.mark.parametrize(
    ("method", "path"),
    [("get", "/api/tables/1/sit/"), ("put", "/api/health/"), ("delete", "/api/me/wallet/")],
)
def test_a_wrong_method_is_a_json_405(client, method, path):
    error(getattr(client, method)(path, {}, format="json"), 405, "method_not_allowed")


@pytest.mark.parametrize(
    ("method", "path"),
    [("get", "/api/tables"), ("post", "/api/tables/1/sit"), ("get", "/api/me")],
)
def test_a_path_without_its_trailing_slash_is_a_json_404_naming_the_right_one(client, method, path):
    response = getattr(client, method)(path, {"seat": 1}, format="json")
    assert f"{path}/" in error(response, 404, "not_found")["message"]


def test_a_body_over_the_upload_limit_is_a_json_413(client, settings):
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 1000
    body = {"seat": 1, "buy_in": 40, "padding": "x" * 2000}
    error(client.post("/api/tables/1/sit/", body, format="json"), 413, "too_large")


def test_a_body_at_the_upload_limit_is_read(client, settings):
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 1000
    body = {"seat": 1, "buy_in": 40, "padding": "x" * 900}
    error(client.post("/api/tables/1/sit/", body, format="json"), 404, "not_found")


@pytest.mark.parametrize("path", ["/api/tables/1/sit/", "/api/auth/login/", "/api/tables/"])
def test_json_nested_a_thousand_deep_is_malformed(client, path):
    response = client.post(path, nested(1000), content_type="application/json")
    error(response, 400, "malformed")


def test_json_nested_past_the_depth_limit_is_malformed(client):
    body = '{"seat": 1, "buy_in": ' + nested(40) + "}"
    response = client.post("/api/tables/1/sit/", body, content_type="application/json")
    assert "nested" in error(response, 400, "malformed")["message"]


def test_a_form_body_over_the_upload_limit_is_a_json_413_too(client, settings):
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 1000
    body = "seat=1&padding=" + "x" * 2000
    response = client.post(
        "/api/tables/1/sit/", body, content_type="application/x-www-form-urlencoded"
    )
    error(response, 413, "too_large")


def test_the_parser_refuses_a_body_over_the_limit_sent_without_a_length(settings):
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 1000
    with pytest.raises(TooLarge):
        JSONParser().parse(io.BytesIO(b'{"padding": "' + b"x" * 2000 + b'"}'))
    assert JSONParser().parse(io.BytesIO(b'{"seat": 1}')) == {"seat": 1}
