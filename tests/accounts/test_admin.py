"""The admin for operators: players editable, wallets, the ledger and the
tables shown read-only (money and tables change only through services)."""

from __future__ import annotations

import uuid

import pytest
from django.contrib.auth import get_user_model

from accounts import money
from accounts.models import Account, Entry, Transfer
from poker import services
from poker.models import Hand, Seat, Table


@pytest.fixture
def operator(client, db):
    user = get_user_model().objects.create_superuser("root", password="pw")
    client.force_login(user)
    return client


@pytest.fixture
def played(make_user):
    boss = make_user("boss", staff=True)
    ann, bob = make_user("ann", cash=500), make_user("bob", cash=500)
    table = services.table_create(
        by=boss, name="t", game="32-card-draw", betting="no-limit", small_blind=1, big_blind=2
    )
    services.seat_sit(by=ann, table_id=table.pk, seat=1, buy_in=100)
    services.seat_sit(by=bob, table_id=table.pk, seat=2, buy_in=100)
    money.tournament_register(transfer_id=uuid.uuid4(), user_id=ann.pk, tournament="t", buy_in=5)
    return table


READ_ONLY = {
    "accounts/account": Account,
    "accounts/transfer": Transfer,
    "accounts/entry": Entry,
    "poker/table": Table,
    "poker/seat": Seat,
    "poker/hand": Hand,
}


@pytest.mark.parametrize("page", ["accounts/user", *READ_ONLY])
def test_every_list_and_detail_page_renders(operator, played, page):
    assert operator.get(f"/admin/{page}/").status_code == 200
    model = READ_ONLY.get(page, get_user_model())
    row = model.objects.first()
    assert operator.get(f"/admin/{page}/{row.pk}/change/").status_code == 200


@pytest.mark.parametrize("page", READ_ONLY)
def test_the_ledger_and_the_tables_cannot_be_added_changed_or_deleted(operator, played, page):
    assert operator.get(f"/admin/{page}/add/").status_code == 403
    model = READ_ONLY[page]
    row = model.objects.first()
    assert operator.get(f"/admin/{page}/{row.pk}/delete/").status_code == 403
    before = list(model.objects.values())
    operator.post(f"/admin/{page}/{row.pk}/change/", {})
    assert list(model.objects.values()) == before


def test_an_operator_edits_a_players_screen_name(operator, played):
    ann = get_user_model().objects.get(username="ann")
    page = operator.get(f"/admin/accounts/user/{ann.pk}/change/")
    assert b"screen_name" in page.content
