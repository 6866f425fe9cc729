"""The admin's casino pages: tables, boxes, rounds and each configuration's
house-edge figures shown read-only; staff open a table from the add page
(and read its figures there) and close tables with an action, both
through the services (the table's stream says so)."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from kernel.eventstore import load
from poker.casino.models import CasinoBox, CasinoMath, CasinoRound, CasinoTable
from tests.casino.support import command, ok, play_out, store_figures

pytestmark = pytest.mark.django_db

PAGES = {
    "poker/casinotable": CasinoTable,
    "poker/casinobox": CasinoBox,
    "poker/casinoround": CasinoRound,
    "poker/casinomath": CasinoMath,
}


@pytest.fixture
def operator(client, db):
    user = get_user_model().objects.create_superuser("root", password="pw")
    client.force_login(user)
    return client


@pytest.fixture
def played(make_user, client_for, open_casino, bankroll):
    bankroll()
    table = open_casino(name="Floor")["table"]["id"]
    ann = make_user("ann")
    clients = {ann.pk: client_for(ann)}
    ok(command(clients[ann.pk], table, "sit", box=2))
    ok(command(clients[ann.pk], table, "bet", amount=10))
    play_out(clients, table)
    return table


@pytest.mark.parametrize("page", PAGES)
def test_every_casino_page_renders_and_nothing_is_changed_or_deleted_there(operator, played, page):
    model = PAGES[page]
    row = model.objects.first()
    assert operator.get(f"/admin/{page}/").status_code == 200
    assert operator.get(f"/admin/{page}/{row.pk}/change/").status_code == 200
    assert operator.get(f"/admin/{page}/{row.pk}/delete/").status_code == 403
    before = list(model.objects.values())
    operator.post(f"/admin/{page}/{row.pk}/change/", {})
    assert list(model.objects.values()) == before
    if model is not CasinoTable:
        assert operator.get(f"/admin/{page}/add/").status_code == 403


def test_staff_open_a_table_from_the_add_page_through_the_service(operator):
    store_figures(jokers=1, model_edge=0.031, low=0.012)
    assert operator.get("/admin/poker/casinotable/add/").status_code == 200
    form = {
        "name": "Admin's",
        "jokers": 1,
        "min_bet": 5,
        "max_bet": 50,
        "boxes": 3,
        "bet_seconds": 30,
        "decision_seconds": 15,
    }
    response = operator.post("/admin/poker/casinotable/add/", form, follow=True)
    assert b"House edge: model 3.10%" in response.content
    table = CasinoTable.objects.get(name="Admin's")
    assert (table.jokers, table.min_bet, table.max_bet, table.boxes) == (1, 5, 50, 3)
    [opened] = load(table.stream)
    assert opened.type == "casino_table.opened" and table.version == 1 and table.position == 1
    page = operator.get(f"/admin/poker/casinotable/{table.pk}/change/")
    assert b"simulated 2.20% (95% CI 1.20% to 3.20%" in page.content


def test_a_configuration_without_figures_is_not_opened_and_says_what_to_run(operator):
    form = {
        "name": "Four jokers",
        "jokers": 4,
        "min_bet": 5,
        "max_bet": 50,
        "boxes": 3,
        "bet_seconds": 30,
        "decision_seconds": 15,
    }
    response = operator.post("/admin/poker/casinotable/add/", form, follow=True)
    assert not CasinoTable.objects.filter(name="Four jokers").exists()
    assert b"manage.py casino_math --store --jokers 4" in response.content


def test_a_table_the_engine_refuses_is_not_opened(operator):
    form = {
        "name": "Upside down",
        "jokers": 2,
        "min_bet": 50,
        "max_bet": 5,
        "boxes": 4,
        "bet_seconds": 30,
        "decision_seconds": 15,
    }
    response = operator.post("/admin/poker/casinotable/add/", form, follow=True)
    assert response.status_code == 200
    assert not CasinoTable.objects.filter(name="Upside down").exists()
    assert b"Not opened" in response.content


def test_the_close_action_closes_a_table_through_its_command(operator, played):
    answer = operator.post(
        "/admin/poker/casinotable/",
        {"action": "close_tables", "_selected_action": [played]},
    )
    assert answer.status_code == 302
    table = CasinoTable.objects.get(pk=played)
    assert table.status == CasinoTable.Status.CLOSED
    assert load(table.stream)[-1].type == "casino_table.closed"
    assert not CasinoBox.objects.filter(table=table).exists()


def test_the_admin_names_the_boxes_in_plain_english(operator):
    page = operator.get("/admin/").content.decode()
    assert "Casino boxes" in page and "Casino boxs" not in page


def test_the_casino_pages_speak_german_to_a_german_browser(operator, played):
    page = operator.get("/admin/poker/casinotable/", HTTP_ACCEPT_LANGUAGE="de").content.decode()
    for words in ("Casino-Tische", "Hausvorteil gegen die beste Antwort"):
        assert words in page, words
    assert "Die ausgewählten Casino-Tische schließen" in page  # the close action
    boxes = operator.get("/admin/poker/casinobox/", HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert "Casino-Boxen" in boxes
