"""The schema's bounds are the bounds the API enforces (issue 26): a
request the schema allows is not refused for its length, so a client
generated from the schema (and schemathesis's valid cases) are accepted."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from accounts import names
from tests.config.contract_support import served_schema
from tests.isolation import local_cache  # noqa: F401 - autouse

pytestmark = pytest.mark.django_db


def properties(component: str) -> dict:
    return served_schema()["components"]["schemas"][component]["properties"]


@pytest.mark.parametrize("component", ["RegisterIn", "PatchedProfileIn"])
def test_a_screen_name_is_declared_as_long_as_a_stored_one(component):
    assert properties(component)["screen_name"]["maxLength"] == names.MAX_LENGTH


def test_a_new_password_is_declared_as_long_as_the_validators_want():
    assert properties("RegisterIn")["password"]["minLength"] == 8
    assert properties("PasswordIn")["new_password"]["minLength"] == 8
    assert properties("RegisterIn")["email"]["maxLength"] == 254


def test_the_longest_declared_screen_name_is_accepted_and_one_more_refused():
    longest = "a" * properties("RegisterIn")["screen_name"]["maxLength"]
    body = {"username": "ann", "password": "correct horse battery", "screen_name": longest}
    assert (
        Client().post("/api/auth/register/", body, content_type="application/json").status_code
        == 201
    )
    ann = get_user_model().objects.get(username="ann")
    client = Client()
    client.force_login(ann)
    refused = client.patch(
        "/api/me/", {"screen_name": longest + "b"}, content_type="application/json"
    )
    assert refused.status_code == 400
