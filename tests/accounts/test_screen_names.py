"""Screen names (``accounts.names``): normalized, free of what a reader
cannot see, never confusable with another player's nor with the room's own
names, and every user has one, however he was made."""

from __future__ import annotations

import importlib
from types import SimpleNamespace

import pytest
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.core.management import call_command
from django.db import IntegrityError, connection, transaction
from rest_framework.test import APIClient

from accounts import names, services
from tests.poker.api_support import ok, post, refused

STRONG = "correct horse battery"

pytestmark = pytest.mark.django_db


def register(**body: object) -> object:
    return post(APIClient(), "/api/auth/register/", {"password": STRONG, **body})


def rename(user: object, screen_name: str) -> object:
    client = APIClient()
    client.force_authenticate(user)
    return client.patch("/api/me/", {"screen_name": screen_name}, format="json")


def user(username: str, screen_name: str = "") -> object:
    return get_user_model().objects.create_user(username, screen_name=screen_name)


def test_a_name_is_stored_nfkc_normalized_with_its_spaces_collapsed():
    full_width = "  \uff21\uff4e\uff4e   \uff2c\uff45\uff45 "
    body = ok(register(username="ann", screen_name=full_width), 201)
    assert body["user"]["screen_name"] == "Ann Lee"
    assert get_user_model().objects.get(username="ann").screen_name == "Ann Lee"


@pytest.mark.parametrize(
    "name",
    [
        "tab\there",
        "bell\x07",
        "evil\u202eman",  # right-to-left override
        "is\u2066olate",  # left-to-right isolate
        "mark\u200fed",  # right-to-left mark
        "zero\u200bwidth",  # zero-width space
        "jo\u200diner",  # zero-width joiner
        "soft\u00adhyphen",
        "word\u2060joiner",
        "bom\ufeff",
        "filler\u3164",  # Hangul filler: looks like a space, is a letter
        "select\ufe0for",  # variation selector
        "line\u2028break",
        "private\ue000",
        "z\u0301\u0301\u0301\u0301algo",  # NFKC makes z and one accent a letter
        "- . -",
        "\ufb03" * 11,  # 11 ligatures, 33 letters once normalized
    ],
)
def test_invisible_reordering_or_empty_names_are_refused(name):
    body = refused(register(username="ann", screen_name=name), 400, "bad_screen_name")
    assert body["fields"]["screen_name"] == [body["message"]]
    assert not get_user_model().objects.exists()
    bob = user("bob")
    refused(rename(bob, name), 400, "bad_screen_name")
    bob.refresh_from_db()
    assert bob.screen_name == "bob"


def test_a_name_longer_than_the_schema_declares_is_refused_as_invalid():
    body = refused(register(username="ann", screen_name="x" * 31), 400, "invalid")
    assert body["fields"]["screen_name"]
    refused(rename(user("bob"), "x" * 31), 400, "invalid")


@pytest.mark.parametrize(
    "look_alike",
    [
        "ACE",
        "\u0410ce",  # Cyrillic capital A
        "\uff21\uff43\uff45",  # full-width
        "\U0001d41a\U0001d41c\U0001d41e",  # mathematical bold
        "A\u0441e",  # Cyrillic small es
    ],
)
def test_a_name_confusable_with_another_players_is_409(look_alike):
    ok(register(username="ann", screen_name="Ace"), 201)
    refused(register(username="bob", screen_name=look_alike), 409, "screen_name_taken")
    cy = user("cy")
    refused(rename(cy, look_alike), 409, "screen_name_taken")
    cy.refresh_from_db()
    assert cy.screen_name == "cy"


def test_a_player_may_keep_his_own_name_in_another_case():
    ann = user("ann", "Ace")
    assert ok(rename(ann, "ACE"))["screen_name"] == "ACE"


@pytest.mark.parametrize(
    "name",
    [
        "admin",
        "Admin",
        "ADMIN",
        "\u0430dmin",  # Cyrillic a
        "ad-min",
        "Staff",
        "dealer",
        "D e a l e r",
        "\U0001d421\U0001d428\U0001d42e\U0001d42c\U0001d41e",  # mathematical bold "house"
        "system",
        "\u0455\u0443\u0455tem",  # Cyrillic dze, u, dze
    ],
)
def test_the_rooms_names_and_their_look_alikes_are_reserved(name):
    refused(register(username="ann", screen_name=name), 400, "screen_name_reserved")
    refused(rename(user("bob"), name), 400, "screen_name_reserved")


def test_a_name_that_only_contains_a_reserved_word_is_allowed():
    assert ok(register(username="ann", screen_name="Housewarmer"), 201)


def test_the_skeleton_index_refuses_a_confusable_name_written_past_the_checks():
    """Two players asking at once both pass the checks; the unique index on
    the skeleton lets one of them in."""
    user("ann", "Ace")
    with pytest.raises(IntegrityError), transaction.atomic():
        user("bob", "\u0410CE")
    assert get_user_model().objects.filter(screen_name_key=names.skeleton("ace")).count() == 1


def test_every_user_gets_a_name_however_he_was_made():
    assert user("ann").screen_name == "ann"
    # Taken, or confusable with a taken one: a number makes it free.
    user("bob", "ANNE")
    user("cat", "\u0430nne-2")
    assert user("anne").screen_name == "anne-3"
    call_command("createsuperuser", interactive=False, username="admin", email="a@example.com")
    root = get_user_model().objects.get(username="admin")
    assert root.screen_name == "player" and not names.is_reserved(root.screen_name)
    assert ok(register(username="house"), 201)["user"]["screen_name"] == "player-2"
    model = get_user_model()
    assert not model.objects.filter(screen_name="").exists()
    keys = list(model.objects.values_list("screen_name_key", flat=True))
    assert len(set(keys)) == len(keys)


def test_the_admin_form_refuses_a_bad_or_taken_name():
    user("ann", "Ace")
    for name, why in (("\u0410ce", "taken"), ("admin", "reserved"), ("a\u200bb", "invisible")):
        candidate = get_user_model()(username="bob", screen_name=name)
        with pytest.raises(ValidationError) as refused_name:
            candidate.full_clean(exclude=["password"])
        assert "screen_name" in refused_name.value.message_dict, why


def test_the_migration_names_everyone_and_keeps_the_first_of_confusable_names():
    """Users from before the skeleton column: blank names, and names that
    are now refused or confusable with an earlier user's."""
    model = get_user_model()
    rows = [user(n) for n in ("ann", "bob", "cy", "dee", "eve")]
    old = ["", "Ace", "\u0410CE", "admin", "tab\tbed"]
    for row, name in zip(rows, old, strict=True):
        model.objects.filter(pk=row.pk).update(screen_name=name, screen_name_key=f"old-{row.pk}")
    migration = importlib.import_module("accounts.migrations.0005_screen_name_key")
    from django.apps import apps

    migration.name_everyone(apps, SimpleNamespace(connection=connection))
    got = {u.username: u.screen_name for u in model.objects.all()}
    assert got == {"ann": "ann", "bob": "Ace", "cy": "cy", "dee": "dee", "eve": "eve"}
    for row in model.objects.all():
        assert row.screen_name_key == names.skeleton(row.screen_name)


def test_the_register_service_refuses_a_reserved_name_too():
    with pytest.raises(Exception) as error:
        services.user_register(username="ann", password=STRONG, screen_name="Dealer")
    assert getattr(error.value, "code", None) == "screen_name_reserved"
