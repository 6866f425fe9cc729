"""The rules' refusals reach a person in his language: every engine and
tournament rules code has a message (``config.refusals``) translated in
``locale/de``, and a German client's REST refusal comes in German with the
same code (the socket's error frames: ``tests/poker/test_ws_languages.py``)."""

from __future__ import annotations

import uuid
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.utils import translation
from rest_framework.test import APIClient

from config import refusals
from poker import services
from poker.engine.errors import ErrorCode
from tests.config.test_i18n import _po_entries
from tests.people import user_maker
from tournaments.rules.errors import TournamentErrorCode

PO = Path(settings.BASE_DIR) / "locale" / "de" / "LC_MESSAGES" / "django.po"


def _german(message: Any) -> str:
    entries = _po_entries(PO)
    msgid = str(message)  # the lazy message read with no language active: the msgid
    assert entries.get(msgid), f"no German for {msgid!r}: make messages, then translate it"
    return entries[msgid]


@pytest.mark.parametrize("code", list(ErrorCode))
def test_every_engine_code_has_a_message_translated_in_german(code: ErrorCode) -> None:
    with translation.override("en"):
        assert code.value in refusals.ENGINE, f"{code} has no message in config.refusals.ENGINE"
        _german(refusals.ENGINE[code.value])


@pytest.mark.parametrize("code", list(TournamentErrorCode))
def test_every_tournament_rules_code_has_a_message_translated_in_german(
    code: TournamentErrorCode,
) -> None:
    with translation.override("en"):
        assert code.value in refusals.TOURNAMENT, f"{code} has no message in refusals.TOURNAMENT"
        _german(refusals.TOURNAMENT[code.value])


@pytest.mark.parametrize("code", list(refusals.NAMING))
def test_a_message_naming_a_player_keeps_his_name_in_german(code: str) -> None:
    assert code in {c.value for c in ErrorCode}
    with translation.override("en"):
        german = _german(refusals.NAMING[code])
    assert "%(player)s" in german


def _post(user: Any, language: str, path: str, body: dict[str, Any]) -> dict[str, Any]:
    client = APIClient(HTTP_ACCEPT_LANGUAGE=language)
    client.force_authenticate(user)
    response = client.post(path, body, format="json")
    assert response.status_code == 409, response.content
    answer: dict[str, Any] = response.json()
    return answer


@pytest.mark.django_db
def test_a_german_players_engine_refusal_comes_in_german_with_the_same_code() -> None:
    make = user_maker(1000)
    ann, bob = make("ann_refusal"), make("bob_refusal")
    boss = make("boss_table", staff=True)
    settings = {"game": "32-card-draw", "betting": "no-limit", "small_blind": 1, "big_blind": 2}
    table = services.table_create(by=boss, name="Main", **settings).pk
    path = f"/api/tables/{table}/sit/"
    ok = APIClient()
    ok.force_authenticate(ann)
    sat = ok.post(path, {"seat": 1, "buy_in": 100, "command_id": str(uuid.uuid4())}, format="json")
    assert sat.status_code in (200, 201), sat.content
    again = {"seat": 1, "buy_in": 100}
    english = _post(bob, "en", path, {**again, "command_id": str(uuid.uuid4())})
    german = _post(bob, "de", path, {**again, "command_id": str(uuid.uuid4())})
    assert english["code"] == german["code"] == "seat_taken"
    assert german["message"] == "Dieser Platz ist besetzt, oder Sie sitzen schon an diesem Tisch."
    assert english["message"] == "That seat is taken, or you sit at this table already."
    assert german["detail"] == english["detail"] == "seat 1 is taken"  # the engine's own words


@pytest.mark.django_db
def test_a_german_players_tournament_refusal_comes_in_german_with_the_same_code() -> None:
    from tests.tournaments.service_support import create

    make = user_maker(1000)
    boss = make("boss_refusal", staff=True)
    boss.is_superuser = True
    boss.save()
    ann = make("ann_tourney")
    t = create(boss)
    path = f"/api/tournaments/{t.pk}/unregister/"
    english = _post(ann, "en", path, {"command_id": str(uuid.uuid4())})
    german = _post(ann, "de", path, {"command_id": str(uuid.uuid4())})
    assert english["code"] == german["code"] == "not_registered"
    assert german["message"] == "Sie spielen in diesem Turnier nicht (mehr) mit."
    assert english["message"] == "You are not (or no longer) in this tournament."
