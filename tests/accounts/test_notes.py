"""Staff notes on players, and finding a player: staff with
``accounts.note_players`` read and write notes (never the player himself);
``find_player`` and the admin find a player by screen name or email."""

from __future__ import annotations

from io import StringIO

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import CommandError

from accounts import notes
from accounts.errors import NotPermitted
from accounts.models import PlayerNote
from accounts.selectors import players_find
from tests.poker.api_support import ok, refused


@pytest.fixture
def ann(make_user):
    user = make_user("ann")
    user.screen_name, user.email = "AceOfSpades", "ann@example.org"
    user.save()
    return user


@pytest.fixture
def floor(make_user):
    return make_user("flo", role="floor")


def test_staff_write_and_read_notes_newest_first(ann, floor, cashier):
    notes.note_add(by=floor, player_id=ann.pk, text="  slow rolls  ")
    notes.note_add(by=cashier, player_id=ann.pk, text="asked about limits")
    seen = [notes.note_view(n) for n in notes.notes_of(by=floor, player_id=ann.pk)]
    assert [(n["text"], n["by"]) for n in seen] == [
        ("asked about limits", "cashier"),
        ("slow rolls", "flo"),
    ]


def test_a_player_may_not_read_or_write_notes_and_nothing_is_written(ann, make_user):
    bob = make_user("bob")
    with pytest.raises(NotPermitted):
        notes.note_add(by=bob, player_id=ann.pk, text="hi")
    with pytest.raises(NotPermitted):
        notes.notes_of(by=ann, player_id=ann.pk)
    assert not PlayerNote.objects.exists()


def test_notes_over_rest(ann, floor, client_for):
    client = client_for(floor)
    note = ok(client.post(f"/api/players/{ann.pk}/notes/", {"text": "tilted"}, format="json"), 201)
    assert (note["player"], note["text"], note["by"]) == (ann.pk, "tilted", "flo")
    assert [n["id"] for n in ok(client.get(f"/api/players/{ann.pk}/notes/"))] == [note["id"]]


def test_notes_over_rest_are_staff_only_and_refusals_write_nothing(ann, client_for):
    client = client_for(ann)
    refused(client.get(f"/api/players/{ann.pk}/notes/"), 403, "forbidden")
    response = client.post(f"/api/players/{ann.pk}/notes/", {"text": "x"}, format="json")
    refused(response, 403, "forbidden")
    assert not PlayerNote.objects.exists()


def test_a_note_on_nobody_or_empty_is_refused(floor, client_for):
    client = client_for(floor)
    refused(
        client.post("/api/players/999999/notes/", {"text": "x"}, format="json"),
        404,
        "unknown_account",
    )
    refused(
        client.post(f"/api/players/{floor.pk}/notes/", {"text": "  "}, format="json"),
        400,
        "invalid",
    )
    assert not PlayerNote.objects.exists()


def test_a_note_is_never_changed(ann, floor):
    note = notes.note_add(by=floor, player_id=ann.pk, text="x")
    note.text = "y"
    with pytest.raises(Exception, match="never updated"):
        note.save()


# --------------------------------------------------------------------------
# Finding a player


def test_a_player_is_found_by_part_of_his_screen_name_or_email(ann, make_user):
    make_user("bob")
    assert [u.username for u in players_find(query="ofspa")] == ["ann"]
    assert [u.username for u in players_find(query="EXAMPLE.org")] == ["ann"]
    assert list(players_find(query="   ")) == []


def test_a_screen_name_typed_with_look_alike_letters_finds_him(ann):
    assert [u.username for u in players_find(query="AceOfSp\u0430des")] == ["ann"]  # a Cyrillic a


def find(*args):
    out = StringIO()
    call_command("find_player", *args, stdout=out)
    return out.getvalue()


def test_the_find_player_command_prints_each_match_and_his_state(ann, floor):
    from accounts import locks

    locks.account_lock(user=ann, reason="x", by=floor)
    (line,) = find("aceof").splitlines()
    assert line.split("\t") == [
        str(ann.pk),
        "ann",
        "AceOfSpades",
        "ann@example.org",
        "player",
        "LOCKED",
    ]


def test_the_find_player_command_says_when_nothing_matches(db):
    with pytest.raises(CommandError, match="no player matches 'ghost'"):
        find("ghost")


def test_the_admin_finds_a_player_by_email(client, ann):
    root = get_user_model().objects.create_superuser("root", password="pw")
    client.force_login(root)
    page = client.get("/admin/accounts/user/", {"q": "ann@example"})
    assert page.status_code == 200 and b"AceOfSpades" in page.content


def test_the_admin_adds_a_note_signed_by_whoever_adds_it(client, ann, floor):
    client.force_login(floor)
    assert client.get("/admin/accounts/playernote/add/").status_code == 200
    client.post("/admin/accounts/playernote/add/", {"player": ann.pk, "text": "asked for a break"})
    note = PlayerNote.objects.get(player=ann)
    assert (note.text, note.by_id) == ("asked for a break", floor.pk)
    assert client.get(f"/admin/accounts/playernote/{note.pk}/change/").status_code == 200


def test_the_admin_hides_notes_from_staff_without_the_permission(client, ann, make_user):
    boss = make_user("boss", staff=True)
    client.force_login(boss)
    assert client.get("/admin/accounts/playernote/").status_code == 403
