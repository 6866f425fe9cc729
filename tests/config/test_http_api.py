"""The HTTP surface every deployment has: health, OpenAPI schema, JSON 404s."""

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from config.views import api_schema
from tests.isolation import local_cache  # noqa: F401 - autouse
from tests.throttling import set_rates, throttle_clock, throttled  # noqa: F401 - a fixture


def cc_split(header: str) -> list[str]:
    return [part.strip() for part in header.split(",")]


def test_health_answers_ok_without_authentication(client):
    response = client.get("/api/health/")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    assert response.json() == {"status": "ok"}


def test_schema_is_an_openapi_document_listing_health(client):
    response = client.get("/api/schema/", {"format": "json"})
    assert response.status_code == 200
    document = response.json()
    assert document["openapi"].startswith("3.")
    assert document["info"]["title"] == "Poker room API"
    assert "/api/health/" in document["paths"]


def test_the_schema_is_built_once_per_process_and_served_the_same(client):
    api_schema.cache_clear()
    first = client.get("/api/schema/", {"format": "json"})
    yaml = client.get("/api/schema/")
    again = client.get("/api/schema/", {"format": "json"})
    assert first.status_code == yaml.status_code == again.status_code == 200
    assert first.content == again.content
    assert b"openapi: 3." in yaml.content
    assert api_schema.cache_info().misses == 1


def test_schema_reads_from_one_address_are_throttled(client, settings, throttle_clock):  # noqa: F811
    set_rates(settings, schema_address="2/m")
    for _ in range(2):
        assert client.get("/api/schema/", {"format": "json"}).status_code == 200
    wait = throttled(client.get("/api/schema/", {"format": "json"}))
    assert Client(REMOTE_ADDR="10.9.9.9").get("/api/schema/").status_code == 200
    throttle_clock.advance(wait)
    assert client.get("/api/schema/", {"format": "json"}).status_code == 200


def test_docs_page_is_served(client):
    response = client.get("/api/docs/")
    assert response.status_code == 200
    assert b"swagger" in response.content.lower()


@pytest.mark.parametrize("path", ["/api/no-such-thing/", "/api/tables/1/nothing", "/api/"])
def test_unknown_api_path_is_a_json_404(client, path):
    response = client.get(path)
    assert response.status_code == 404
    assert response["Content-Type"] == "application/json"
    assert response.json()["code"] == "not_found"
    assert path in response.json()["message"]


def test_unknown_api_path_is_a_json_404_in_debug_too(client, settings):
    settings.DEBUG = True
    response = client.get("/api/no-such-thing/")
    assert response.status_code == 404
    assert response.json()["code"] == "not_found"


def test_unknown_path_outside_api_is_not_json(client):
    response = client.get("/no-such-page/")
    assert response.status_code == 404
    assert not response["Content-Type"].startswith("application/json")


def test_wrong_method_is_a_json_405(client):
    response = client.post("/api/health/", {}, content_type="application/json")
    assert response.status_code == 405
    assert response.json()["code"] == "method_not_allowed"


@pytest.mark.django_db
@pytest.mark.parametrize(
    "path", ["/api/me/", "/api/me/wallet/", "/api/tables/", "/api/hands/1-1/", "/api/nothing/"]
)
def test_api_answers_are_never_stored_and_vary_with_the_credentials(path):
    """What only one player may see (his cards, his wallet) must not be kept
    by a cache on the way nor handed to the next holder of another token."""
    get_user_model().objects.create_user("ann", password="pw")
    token = (
        Client()
        .post(
            "/api/auth/token/",
            {"username": "ann", "password": "pw"},
            content_type="application/json",
        )
        .json()["token"]
    )
    for headers in ({"Authorization": f"Token {token}"}, {}):
        response = Client(headers=headers).get(path)
        assert "no-store" in response["Cache-Control"], (path, headers)
        assert "private" in response["Cache-Control"]
        assert {"Authorization", "Cookie"} <= set(cc_split(response["Vary"]))
