"""The rules' refusals reach a person in his language: every engine and
tournament rules code has a message (``accounts.refusals``, ``tournaments.refusals``) translated in
``locale/de``, and a German client's REST refusal comes in German with the
same code (the socket's error frames: ``tests/poker/test_ws_languages.py``),
and a refused tournament definition says why under ``fields`` in it too."""

from __future__ import annotations

import ast
import uuid
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.utils import timezone, translation
from rest_framework.test import APIClient

from accounts import refusals
from poker import selectors, services
from poker.engine.errors import ErrorCode
from poker.models import Table
from tests.config.test_i18n import _po_entries
from tests.people import user_maker
from tournaments import refusals as tournament_refusals
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
        assert code.value in refusals.ENGINE, f"{code} has no message in accounts.refusals.ENGINE"
        _german(refusals.ENGINE[code.value])


@pytest.mark.parametrize("code", list(TournamentErrorCode))
def test_every_tournament_rules_code_has_a_message_translated_in_german(
    code: TournamentErrorCode,
) -> None:
    with translation.override("en"):
        assert code.value in tournament_refusals.TOURNAMENT, (
            f"{code} has no message in tournaments.refusals.TOURNAMENT"
        )
        _german(tournament_refusals.TOURNAMENT[code.value])


class _Figures(dict[str, Any]):
    """Any placeholder a message asks for, filled with ``count`` (which
    picks a plural form) and noted in ``asked``."""

    def __init__(self, count: int) -> None:
        super().__init__()
        self.count = count
        self.asked: set[str] = set()

    def __missing__(self, key: str) -> Any:
        self.asked.add(key)
        return "Ann" if key == "player" else self.count


def _worded(message: Any, language: str, count: int) -> tuple[str, set[str]]:
    figures = _Figures(count)
    with translation.override(language):
        return str(message % figures), figures.asked


SPECIFIC = [
    *((code, m) for code, ms in refusals.ENGINE_SPECIFIC.items() for m in ms),
    *((code, m) for code, ms in tournament_refusals.TOURNAMENT_SPECIFIC.items() for m in ms),
]


@pytest.mark.parametrize(("code", "message"), SPECIFIC)
@pytest.mark.parametrize("count", [1, 2])
def test_every_message_with_figures_is_translated_in_german_with_them(
    code: str, message: Any, count: int
) -> None:
    english, asked = _worded(message, "en", count)
    german, in_german = _worded(message, "de", count)
    assert asked and in_german == asked, (english, german)
    assert german != english, f"no German for {english!r}: make messages, then translate it"


def test_a_refusal_gets_the_message_its_figures_fill_else_its_codes() -> None:
    def name(player: str) -> str:
        return player.title()

    with translation.override("en"):
        assert str(refusals.engine_message("seat_taken", (), {"seat": 3}, name)) == (
            "Seat 3 is taken."
        )
        assert str(refusals.engine_message("seat_taken", ("ann",), {}, name)) == (
            "Ann already sits at this table."
        )
        assert str(refusals.engine_message("bad_cards", (), {"max_discard": 1}, name)) == (
            "Discard at most 1 card."
        )
        assert str(refusals.engine_message("bad_amount", ("ann",), {"time_bank": 5}, name)) == (
            "Ann has 5 seconds left in the time bank."
        )
        assert str(refusals.engine_message("bad_amount", (), {"min_buy_in": 40}, name)) == (
            "Buy in for at least 40 chips."
        )
        assert str(refusals.engine_message("bad_amount", (), {}, name)) == (
            "That amount is not allowed here."
        )
        assert str(
            tournament_refusals.tournament_message("tournament_full", {"max_players": 9})
        ) == ("The tournament is full: 9 entries.")
        assert str(tournament_refusals.tournament_message("already_registered", {})) == str(
            tournament_refusals.TOURNAMENT["already_registered"]
        )
    with translation.override("de"):
        assert str(
            tournament_refusals.tournament_message("already_registered", {"re_entries": 1})
        ) == ("Sie haben keinen Re-Entry mehr: das Turnier erlaubt 1 Re-Entry.")


def _post(
    user: Any, language: str, path: str, body: dict[str, Any], status: int = 409
) -> dict[str, Any]:
    client = APIClient(HTTP_ACCEPT_LANGUAGE=language)
    client.force_authenticate(user)
    response = client.post(path, body, format="json")
    assert response.status_code == status, response.content
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
    assert german["message"] == "Platz 1 ist besetzt."
    assert english["message"] == "Seat 1 is taken."
    assert german["detail"] == english["detail"] == "seat 1 is taken"  # the engine's own words
    assert german["values"] == english["values"] == {"seat": 1}  # for a client's own words


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
    assert "values" not in english  # no figure in it


@pytest.mark.django_db
@pytest.mark.parametrize("betting", ["no-limit", "pot-limit", "fixed-limit"])
def test_a_too_small_raise_is_refused_with_the_allowed_raises_in_each_language(
    betting: str,
) -> None:
    make = user_maker(1000)
    boss = make(f"boss_{betting}", staff=True)
    players = [make(f"ann_{betting}"), make(f"bob_{betting}")]
    game = {"game": "five-card-draw", "betting": betting, "small_blind": 1, "big_blind": 2}
    table = services.table_create(by=boss, name="Main", **game).pk
    for seat, user in enumerate(players, start=1):
        services.seat_sit(by=user, table_id=table, seat=seat, buy_in=100, command_id=uuid.uuid4())
    views = [(u, selectors.table_view(Table.objects.get(pk=table), u)["hand"]) for u in players]
    mover, hand = next((u, h) for u, h in views if h.get("legal"))  # the one to act
    legal = hand["legal"]
    low, high = legal["min_raise_to"], legal["max_raise_to"]
    path = f"/api/tables/{table}/actions/"
    body = {"hand": hand["id"], "version": hand["version"], "action": "raise", "amount": low - 1}
    english = _post(mover, "en", path, {**body, "command_id": str(uuid.uuid4())}, status=400)
    german = _post(mover, "de", path, {**body, "command_id": str(uuid.uuid4())}, status=400)
    assert english["code"] == german["code"] == "bad_amount"
    if low == high:
        assert english["message"] == f"The only raise allowed is to {low} chips."
        assert german["message"] == f"Erlaubt ist nur eine Erhöhung auf {low} Chips."
    else:
        assert english["message"] == f"Raise to between {low} and {high} chips."
        assert german["message"] == f"Erhöhen Sie auf {low} bis {high} Chips."
    assert german["detail"] == english["detail"]  # the engine's own words
    assert set(english["values"].values()) == {low, high}  # min and max, or the one raise_to


RULES = Path(settings.BASE_DIR) / "tournaments" / "rules"


def _reasons_in_the_rules() -> dict[str, set[str]]:
    """Every reason key the rules refuse a definition with (each ``require``
    call's literal ``key``), with the names of the ``values`` it gives."""
    keys: dict[str, set[str]] = {}
    for source in sorted(RULES.glob("*.py")):
        for node in ast.walk(ast.parse(source.read_text(encoding="utf-8"))):
            if not (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id == "require"
            ):
                continue
            given = {k.arg: k.value for k in node.keywords}
            key = given.get("key")
            where = f"{source.name}:{node.lineno}"
            assert isinstance(key, ast.Constant) and isinstance(key.value, str), where
            values = given.get("values")
            names: set[str] = set()
            if values is not None:
                assert isinstance(values, ast.Dict), where
                names = {k.value for k in values.keys if isinstance(k, ast.Constant)}
            keys.setdefault(key.value, set()).update(names)
    return keys


REASONS = _reasons_in_the_rules()


def test_the_rules_refuse_definitions_with_reason_keys() -> None:
    assert {"whole_number_range", "whole_number_at_least", "blinds_ascending"} <= set(REASONS)
    assert len(REASONS) >= 40


@pytest.mark.parametrize("key", sorted(REASONS))
def test_every_definition_reason_has_a_message_in_english_and_german(key: str) -> None:
    assert key in tournament_refusals.DEFINITION_REASONS, (
        f"{key!r} has no message in DEFINITION_REASONS"
    )
    message = tournament_refusals.DEFINITION_REASONS[key]
    english, asked = _worded(message, "en", 3)
    german, in_german = _worded(message, "de", 3)
    assert asked == in_german == REASONS[key], (key, english, german)  # the values it is given
    assert german != english, f"no German for {english!r}: make messages, then translate it"


def test_a_definition_reason_without_a_message_keeps_the_rules_words() -> None:
    with translation.override("de"):
        assert tournament_refusals.definition_reason("no_such_reason", {}, "as the rules say") == (
            "as the rules say"
        )
        worded = tournament_refusals.definition_reason(
            "whole_number_range", {"low": 1, "high": 3}, "x"
        )
        assert str(worded) == "eine ganze Zahl von 1 bis 3"


DEFINITION: dict[str, Any] = {
    "name": "Sunday 32",
    "game": "32-card-draw",
    "betting": "pot-limit",
    "structure": {
        "levels": [
            {"small_blind": 10, "big_blind": 20, "minutes": 15},
            {"small_blind": 20, "big_blind": 40, "minutes": 15},
            {"small_blind": 40, "big_blind": 80, "minutes": 15},
        ],
    },
    "starting_stack": 3000,
    "buy_in": 100,
    "fee": 10,
    "max_players": 50,
}


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("change", "field", "english", "german"),
    [
        (
            {"late_registration_level": 9},
            "late_registration_level",
            "a whole number from 1 to 3",
            "eine ganze Zahl von 1 bis 3",
        ),
        (
            {"structure": {"levels": [{"small_blind": 10, "big_blind": 30}]}},
            "structure.levels[0].big_blind",
            "the big blind is twice the small blind",
            "der Big Blind ist doppelt so hoch wie der Small Blind",
        ),
        (
            {"payouts": [{"min_entrants": 2, "shares": [6000, 3000]}]},
            "payouts.tiers[0].shares",
            "basis points adding up to 10000",
            "Basispunkte mit der Summe 10000",
        ),
    ],
)
def test_a_refused_definitions_field_says_why_in_the_readers_language(
    change: dict[str, Any], field: str, english: str, german: str
) -> None:
    boss = user_maker(0)(f"boss_def_{uuid.uuid4().hex[:8]}", staff=True)
    boss.is_superuser = True
    boss.save()
    starts = (timezone.now() + timedelta(hours=2)).isoformat()
    body = {**DEFINITION, "starts_at": starts, **change}
    answers = {
        language: _post(boss, language, "/api/tournaments/", body, status=400)
        for language in ("en", "de")
    }
    assert answers["en"]["code"] == answers["de"]["code"] == "invalid_definition"
    assert answers["en"]["fields"] == {field: [english]}
    assert answers["de"]["fields"] == {field: [german]}
    assert answers["de"]["detail"] == answers["en"]["detail"]  # the rules' own words
    assert answers["de"]["detail"].startswith(f"{field}: ")
