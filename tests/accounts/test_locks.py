"""Locking an account: he cannot log in, his tokens and sessions stop
working, he cannot sit, and he is taken out of play at his cash tables
through the table's own commands (events and ledger as if he had left).
Each lock and unlock is recorded with who and why; a refused one changes
nothing."""

from __future__ import annotations

from io import StringIO

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import CommandError
from knox.models import AuthToken
from rest_framework.test import APIClient

from accounts import locks
from accounts.errors import AccountLocked, NotPermitted
from accounts.models import AccountLock
from kernel.models import Event
from poker import selectors, services
from poker.models import Seat, Table
from tests.accounts.conftest import assert_sound
from tests.accounts.test_tables import sit
from tests.funds import cash_of, escrow
from tests.poker.api_support import ok, post, refused

STRONG = "correct horse battery staple"


def fresh(user):
    return get_user_model().objects.get(pk=user.pk)


@pytest.fixture
def floor(make_user):
    return make_user("flo", role="floor")


@pytest.fixture
def ann(make_user):
    user = make_user("ann", cash=500)
    user.set_password(STRONG)
    user.save()
    return user


def token_client(key):
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    return client


def log_in(client=None):
    client = client or APIClient()
    return ok(post(client, "/api/auth/login/", username="ann", password=STRONG))["token"]


@pytest.fixture
def boss(make_user):
    return make_user("boss", staff=True)


def new_table(boss):
    return services.table_create(
        by=boss, name="t", game="32-card-draw", betting="no-limit", small_blind=1, big_blind=2
    ).pk


# --------------------------------------------------------------------------
# Logging in


def test_a_locked_player_cannot_log_in_or_get_a_token(ann, floor):
    locks.account_lock(user=ann, reason="chargeback", by=floor)
    refused(
        post(APIClient(), "/api/auth/login/", username="ann", password=STRONG),
        400,
        "bad_credentials",
    )
    refused(
        post(APIClient(), "/api/auth/token/", username="ann", password=STRONG),
        400,
        "bad_credentials",
    )


def test_a_locked_players_tokens_stop_working_and_stay_dead_after_an_unlock(ann, floor):
    key = log_in()
    ok(token_client(key).get("/api/me/"))
    locks.account_lock(user=ann, reason="chargeback", by=floor)
    refused(token_client(key).get("/api/me/"), 401, "authentication_failed")
    assert not AuthToken.objects.filter(user=ann).exists()
    locks.account_unlock(user=ann, reason="cleared", by=floor)
    refused(token_client(key).get("/api/me/"), 401, "authentication_failed")
    assert ok(token_client(log_in()).get("/api/me/"))["id"] == ann.pk


def test_a_locked_players_session_stops_working(ann, floor):
    client = APIClient()
    log_in(client)  # the session cookie too
    ok(client.get("/api/me/"))
    locks.account_lock(user=ann, reason="collusion", by=floor)
    refused(client.get("/api/me/"), 401, "not_authenticated")


# --------------------------------------------------------------------------
# The record


def test_a_lock_and_an_unlock_are_recorded_with_who_and_why(ann, floor):
    locks.account_lock(user=ann, reason="  chargeback  ", by=floor)
    assert not fresh(ann).is_active
    locks.account_unlock(user=ann, reason="bank confirmed", by=floor)
    assert fresh(ann).is_active
    rows = list(
        AccountLock.objects.filter(user=ann).values_list("locked", "reason", "by", "by_label")
    )
    assert rows == [
        (True, "chargeback", floor.pk, "flo"),
        (False, "bank confirmed", floor.pk, "flo"),
    ]


def test_a_console_lock_is_recorded_as_the_console(ann):
    done = locks.account_lock(user=ann, reason="court order")
    assert done.record.by is None and done.record.by_label.startswith("console")


def test_only_staff_who_may_lock_accounts_lock_and_nothing_changes_otherwise(ann, cashier):
    key = log_in()
    with pytest.raises(NotPermitted):
        locks.account_lock(user=ann, reason="I dislike him", by=cashier)
    assert fresh(ann).is_active and not AccountLock.objects.exists()
    ok(token_client(key).get("/api/me/"))


@pytest.mark.parametrize("reason", ["", "   ", "x" * 501])
def test_a_lock_needs_a_reason_and_nothing_changes_without_one(ann, floor, reason):
    key = log_in()
    with pytest.raises(locks.BadReason):
        locks.account_lock(user=ann, reason=reason, by=floor)
    assert fresh(ann).is_active and not AccountLock.objects.exists()
    ok(token_client(key).get("/api/me/"))


def test_the_floor_role_locks_and_notes_but_moves_no_money(floor):
    assert floor.has_perm("accounts.lock_accounts") and floor.has_perm("accounts.note_players")
    assert not floor.has_perm("accounts.move_cash")
    assert not floor.has_perm("accounts.direct_tournaments")


# --------------------------------------------------------------------------
# At the tables


def test_a_locked_player_cannot_sit_and_nothing_changes(ann, boss, floor):
    table_id = new_table(boss)
    locks.account_lock(user=ann, reason="chargeback", by=floor)
    events = Event.objects.count()
    with pytest.raises(AccountLocked) as refusal:
        sit(fresh(ann), table_id, 1, 100)
    assert (refusal.value.status, refusal.value.code) == (403, "account_locked")
    assert (Event.objects.count(), cash_of(ann), escrow(table_id)) == (events, 500, 0)


def test_a_locked_player_between_hands_leaves_with_his_chips(ann, boss, floor):
    table_id = new_table(boss)
    sit(ann, table_id, 1, 150)
    done = locks.account_lock(user=ann, reason="chargeback", by=floor)
    assert done.notes == [f"table {table_id}: out of play"] and done.problems == []
    assert not Seat.objects.filter(table_id=table_id).exists()
    assert (cash_of(ann), escrow(table_id)) == (500, 0)
    left = Event.objects.get(stream=f"table-{table_id}", type="table.player_left")
    assert left.command.by_id == floor.pk
    assert_sound()


def test_a_locked_player_in_a_hand_is_folded_and_leaves_when_it_ends(ann, make_user, boss, floor):
    bob = make_user("bob", cash=500)
    table_id = new_table(boss)
    sit(ann, table_id, 1, 100)
    sit(bob, table_id, 2, 100)
    table = Table.objects.get(pk=table_id)
    assert selectors.table_view(table, None)["hand"] is not None  # dealt
    locks.account_lock(user=ann, reason="bot", by=floor)
    seats = {s.player_id: s.stack for s in Seat.objects.filter(table_id=table_id)}
    assert ann.pk not in seats  # the forfeit ended the hand: he left with it
    assert cash_of(ann) + cash_of(bob) + escrow(table_id) == 1000  # nothing made or lost
    assert 500 - cash_of(ann) in (1, 2)  # he lost the blind he had posted, no more
    assert_sound()


def test_a_lock_takes_him_from_every_table_and_leaves_the_others_seated(
    ann, make_user, boss, floor
):
    bob = make_user("bob", cash=500)
    first, second = new_table(boss), new_table(boss)
    sit(ann, first, 1, 100)
    sit(ann, second, 1, 100)
    sit(bob, second, 3, 100)
    done = locks.account_lock(user=ann, reason="bot", by=floor)
    assert len(done.notes) == 2
    assert not Seat.objects.filter(player=ann).exists()
    assert Seat.objects.filter(player=bob).exists()
    assert_sound()


# --------------------------------------------------------------------------
# The command


def lock_command(*args):
    out, err = StringIO(), StringIO()
    call_command("lock_account", *args, stdout=out, stderr=err)
    return out.getvalue(), err.getvalue()


def test_the_command_locks_and_unlocks_with_a_reason(ann, floor):
    out, _ = lock_command("ann", "--reason", "chargeback", "--by", "flo")
    assert out.endswith("ann locked by flo\n") and not fresh(ann).is_active
    out, _ = lock_command("ann", "--reason", "cleared", "--unlock")
    assert out.startswith("ann unlocked by console") and fresh(ann).is_active
    assert AccountLock.objects.filter(user=ann).count() == 2


def test_the_command_refuses_staff_without_the_permission_and_changes_nothing(ann, cashier):
    with pytest.raises(CommandError, match="floor staff"):
        lock_command("ann", "--reason", "x", "--by", "cashier")
    assert fresh(ann).is_active


def test_the_command_refuses_an_unknown_user(db):
    with pytest.raises(CommandError, match="no user 'ghost'"):
        lock_command("ghost", "--reason", "x")


# --------------------------------------------------------------------------
# The admin


@pytest.fixture
def operator(client, db):
    user = get_user_model().objects.create_superuser("root", password="pw")
    client.force_login(user)
    return client


def test_the_admin_locks_with_the_reason_given(operator, ann):
    page = operator.post(
        "/admin/accounts/user/",
        {"action": "lock_accounts", "_selected_action": [ann.pk], "reason": "chargeback"},
        follow=True,
    )
    assert page.status_code == 200
    record = AccountLock.objects.get(user=ann)
    assert (record.locked, record.reason, record.by_label) == (True, "chargeback", "root")
    assert not fresh(ann).is_active


def test_the_admin_refuses_a_lock_without_a_reason(operator, ann):
    operator.post(
        "/admin/accounts/user/",
        {"action": "lock_accounts", "_selected_action": [ann.pk], "reason": ""},
        follow=True,
    )
    assert fresh(ann).is_active and not AccountLock.objects.exists()


def test_the_admin_shows_the_lock_but_does_not_edit_it(operator, ann):
    page = operator.get(f"/admin/accounts/user/{ann.pk}/change/")
    assert page.status_code == 200
    assert b'name="is_active"' not in page.content


@pytest.mark.parametrize("role", ["cashier", "tournament_director", "floor"])
def test_the_admin_grants_and_revokes_each_role(operator, ann, role):
    operator.post(
        "/admin/accounts/user/", {"action": f"grant_{role}", "_selected_action": [ann.pk]}
    )
    assert role in fresh(ann).groups.values_list("name", flat=True) and fresh(ann).is_staff
    operator.post(
        "/admin/accounts/user/", {"action": f"revoke_{role}", "_selected_action": [ann.pk]}
    )
    assert role not in fresh(ann).groups.values_list("name", flat=True)


def test_floor_staff_lock_from_the_admin_without_being_superusers(client, ann, floor):
    client.force_login(floor)
    assert client.get("/admin/accounts/user/").status_code == 200
    client.post(
        "/admin/accounts/user/",
        {"action": "lock_accounts", "_selected_action": [ann.pk], "reason": "abuse in chat"},
    )
    assert AccountLock.objects.get(user=ann).by_id == floor.pk
    assert not fresh(ann).is_active


def test_a_cashier_in_the_admin_cannot_lock(client, ann, cashier):
    get_user_model().objects.filter(pk=cashier.pk).update(is_staff=True)
    client.force_login(cashier)
    client.post(
        "/admin/accounts/user/",
        {"action": "lock_accounts", "_selected_action": [ann.pk], "reason": "x"},
    )
    assert fresh(ann).is_active and not AccountLock.objects.exists()
