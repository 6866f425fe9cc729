"""Usernames (``accounts.names``): NFKC-normalized and trimmed at sign-up
and at login, and never confusable with another account's (case,
full-width forms, look-alike letters), as screen names are."""

from __future__ import annotations

import importlib

import pytest
from django.contrib.auth import get_user_model
from django.db import IntegrityError, connection, transaction
from rest_framework.test import APIClient

from accounts import names
from tests.poker.api_support import ok, post, refused

STRONG = "correct horse battery"

pytestmark = pytest.mark.django_db


def register(username: str) -> object:
    return post(APIClient(), "/api/auth/register/", username=username, password=STRONG)


def login(username: str, password: str = STRONG) -> object:
    return post(APIClient(), "/api/auth/login/", username=username, password=password)


def test_a_full_width_username_is_stored_as_its_plain_letters():
    body = ok(register("\uff50\uff11"), 201)  # p1 in full-width letters
    assert body["user"]["username"] == "p1"
    assert get_user_model().objects.get(pk=body["user"]["id"]).username == "p1"


@pytest.mark.parametrize(
    "twin",
    ["\uff50\uff11", "P1", " p1 ", "pl", "p1", "\U0001d429\U0001d7cf"],
    ids=["full-width", "case", "spaces", "look-alike", "same", "mathematical"],
)
def test_a_username_confusable_with_another_is_taken(twin):
    ok(register("p1"), 201)
    refused(register(twin), 409, "username_taken")
    assert get_user_model().objects.count() == 1


def test_a_username_that_is_invalid_once_normalized_is_refused():
    body = refused(register("a\u2474b"), 400, "bad_username")  # a letter-like digit: "(1)"
    assert body["fields"]["username"]
    assert not get_user_model().objects.exists()


def test_login_reads_the_username_as_sign_up_stored_it():
    ok(register("\uff50\uff11"), 201)
    for spelling in ("p1", "\uff50\uff11", "  p1 "):
        assert ok(login(spelling))["user"]["username"] == "p1"
    refused(login("\uff50\uff11", "wrong"), 400, "bad_credentials")


def test_the_index_refuses_a_confusable_username_even_past_the_check():
    model = get_user_model()
    model.objects.create_user("p1")
    with pytest.raises(IntegrityError), transaction.atomic():
        model.objects.create_user("pl")


def test_the_migration_keys_every_username_and_leaves_an_earlier_twin_alone():
    model = get_user_model()
    first, twin = model.objects.create_user("p1"), model.objects.create_user("x")
    model.objects.filter(pk__in=[first.pk, twin.pk]).update(username_key=None)
    model.objects.filter(pk=twin.pk).update(username="pl")
    migration = importlib.import_module("accounts.migrations.0010_username_key")

    class Apps:
        @staticmethod
        def get_model(app: str, name: str) -> object:
            return model

    migration.key_everyone(Apps, type("Editor", (), {"connection": connection})())
    first.refresh_from_db()
    twin.refresh_from_db()
    assert first.username_key == names.skeleton("p1")
    assert twin.username_key is None
    twin.save()  # a twin kept from before still saves
    twin.refresh_from_db()
    assert twin.username_key is None
