"""The HTTP surface every deployment has: health, OpenAPI schema, JSON 404s."""

import pytest


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
