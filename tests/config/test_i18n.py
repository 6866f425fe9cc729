"""The API's messages in the request's language (``Accept-Language``),
its codes never translated; the German catalogue compiled and current."""

from __future__ import annotations

import gettext
import re
from pathlib import Path

import pytest
from django.conf import settings
from rest_framework.test import APIClient

from accounts.services import user_register

pytestmark = pytest.mark.django_db

PO = Path(settings.BASE_DIR) / "locale" / "de" / "LC_MESSAGES" / "django.po"


@pytest.fixture(autouse=True)
def no_throttles(settings) -> None:
    """The refusals asked for here, not a throttle's (the counts live in
    Redis when it is configured, across tests and runs)."""
    settings.THROTTLE_RATES = dict.fromkeys(settings.THROTTLE_RATES)


@pytest.fixture
def ann() -> None:
    user_register(username="ann", password="a long enough secret 1")


def refusal(language: str, method: str, path: str, body: dict[str, object] | None = None):
    client = APIClient(HTTP_ACCEPT_LANGUAGE=language)
    response = getattr(client, method)(path, body or {}, format="json")
    assert 400 <= response.status_code < 500, response.content
    return response.status_code, response.json()


@pytest.mark.parametrize(
    ("method", "path", "body", "german"),
    [
        # raised with a message of its own (gettext at the raise)
        (
            "post",
            "/api/auth/login/",
            {"username": "nobody", "password": "x"},
            "Benutzername oder Passwort falsch.",
        ),
        # a typed error's class message (gettext_lazy)
        (
            "post",
            "/api/auth/register/",
            {"username": "ann", "password": "a long enough secret 1"},
            "Dieser Benutzername ist vergeben.",
        ),
        # DRF's own refusal, and the JSON 404 of a path no route matches
        ("get", "/api/tables/999999/", None, "Nicht gefunden."),
        ("get", "/api/no-such-thing/", None, "Keine API unter /api/no-such-thing/."),
        # an input check: the envelope's message and DRF's field message
        (
            "post",
            "/api/auth/register/",
            {"password": "a long enough secret 1"},
            "Ungültige Eingabe.",
        ),
    ],
)
def test_an_error_comes_back_in_german_with_the_same_code(ann, method, path, body, german) -> None:
    en_status, english = refusal("en", method, path, body)
    de_status, deutsch = refusal("de", method, path, body)
    assert (de_status, deutsch["code"]) == (en_status, english["code"])
    assert deutsch["message"] == german
    assert english["message"] != german
    assert deutsch.get("fields", {}).keys() == english.get("fields", {}).keys()
    if "fields" in deutsch:
        assert deutsch["fields"] != english["fields"]  # DRF's own messages in German too


def test_a_language_the_service_does_not_speak_gets_english() -> None:
    _, body = refusal("fr", "post", "/api/auth/login/", {"username": "nobody", "password": "x"})
    assert body == {"code": "bad_credentials", "message": "Wrong username or password."}


def _po_entries(path: Path) -> dict[str, str]:
    """msgid -> msgstr of a .po file without plurals or contexts."""
    entries: dict[str, str] = {}
    for block in path.read_text(encoding="utf-8").split("\n\n"):
        assert "#, fuzzy" not in block, block
        match = re.search(r'^msgid ((?:".*"\n)+)msgstr ((?:".*"\n?)+)', block + "\n", re.M)
        if match:
            msgid, msgstr = ("".join(re.findall(r'"(.*)"', part)) for part in match.groups())
            entries[msgid.replace('\\"', '"')] = msgstr.replace('\\"', '"').replace("\\n", "\n")
    return entries


def test_the_compiled_german_catalogue_is_the_po_file_translated_in_full() -> None:
    entries = _po_entries(PO)
    untranslated = [msgid for msgid, msgstr in entries.items() if msgid and not msgstr]
    assert not untranslated
    formats = re.compile(r"%\(\w+\)s")
    for msgid, msgstr in entries.items():
        assert sorted(formats.findall(msgstr)) == sorted(formats.findall(msgid)), msgid
    with PO.with_suffix(".mo").open("rb") as mo:
        compiled = gettext.GNUTranslations(mo)
    stale = [m for m, s in entries.items() if m and compiled.gettext(m) != s]
    assert not stale, "run manage.py compilemessages and commit the .mo"


def test_the_account_keeps_the_language_he_chose_for_the_client(ann) -> None:
    login = {"username": "ann", "password": "a long enough secret 1"}
    token = APIClient().post("/api/auth/login/", login, format="json").json()["token"]
    client = APIClient(HTTP_AUTHORIZATION=f"Token {token}")
    assert client.get("/api/me/").json()["language"] is None
    chosen = client.put("/api/me/language/", {"language": "de"}, format="json")
    assert chosen.json()["language"] == "de"
    assert client.get("/api/me/").json()["language"] == "de"
    refused = client.put("/api/me/language/", {"language": "fr"}, format="json").json()
    assert (refused["code"], list(refused["fields"])) == ("invalid", ["language"])
    cleared = client.put("/api/me/language/", {"language": None}, format="json")
    assert cleared.json()["language"] is None
