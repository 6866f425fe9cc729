"""A player's own limits: a self-exclusion that only grows and keeps him
from seats, registrations and deposits; a deposit limit for any 24 hours
that drops at once and rises only after a day.  Set through REST, held by
the services, refused with a code and a message, and a refusal changes
nothing."""

from __future__ import annotations

import uuid
from datetime import timedelta

import pytest
from django.utils import timezone

from accounts import limits, money
from accounts.errors import DepositLimitReached, ExclusionShortened, SelfExcluded
from accounts.models import PlayerLimits, Transfer
from kernel.models import Event
from poker import services
from poker.models import Seat
from tests.accounts.conftest import assert_sound
from tests.accounts.test_tables import sit
from tests.funds import cash_of
from tests.poker.api_support import ok, refused


@pytest.fixture
def ann(make_user):
    return make_user("ann")  # no money yet: every deposit of a test counts


@pytest.fixture
def clock(monkeypatch):
    """``clock.now``: the time the limits are judged at, moved by ``later``."""

    class Clock:
        now = timezone.now()

        def later(self, **delta):
            self.now += timedelta(**delta)

    c = Clock()
    monkeypatch.setattr(limits, "now", lambda: c.now)
    return c


def deposit(user, amount, cashier=None, transfer_id=None):
    return money.wallet_deposit(
        transfer_id=transfer_id or uuid.uuid4(), user_id=user.pk, amount=amount, by=cashier
    )


def row(user):
    return PlayerLimits.objects.filter(user=user).values().first()


# --------------------------------------------------------------------------
# Self-exclusion


def test_a_self_excluded_player_cannot_sit_and_nothing_changes(ann, make_user):
    boss = make_user("boss", staff=True)
    table_id = services.table_create(
        by=boss, name="t", game="32-card-draw", betting="no-limit", small_blind=1, big_blind=2
    ).pk
    limits.self_exclusion_set(user=ann, days=30)
    events = Event.objects.count()
    with pytest.raises(SelfExcluded) as refusal:
        sit(ann, table_id, 1, 100)
    assert (refusal.value.status, refusal.value.code) == (403, "self_excluded")
    assert "until" in refusal.value.extra
    assert (Event.objects.count(), cash_of(ann)) == (events, 0)


def test_excluding_himself_makes_him_leave_his_cash_tables(make_user):
    ann = make_user("ann", cash=500)
    boss = make_user("boss", staff=True)
    table_id = services.table_create(
        by=boss, name="t", game="32-card-draw", betting="no-limit", small_blind=1, big_blind=2
    ).pk
    sit(ann, table_id, 1, 150)
    limits.self_exclusion_set(user=ann, days=1)
    assert not Seat.objects.filter(table_id=table_id).exists()
    assert cash_of(ann) == 500
    assert_sound()


def test_a_self_excluded_player_gets_no_deposit_and_nothing_moves(ann, cashier):
    limits.self_exclusion_set(user=ann, days=7)
    transfers = Transfer.objects.count()
    with pytest.raises(SelfExcluded):
        deposit(ann, 100, cashier)
    assert (Transfer.objects.count(), cash_of(ann)) == (transfers, 0)
    assert_sound()


def test_a_self_exclusion_cannot_be_shortened_only_lengthened(ann, clock):
    until = limits.self_exclusion_set(user=ann, days=30).excluded_until
    before = row(ann)
    with pytest.raises(ExclusionShortened) as refusal:
        limits.self_exclusion_set(user=ann, days=29)
    assert (refusal.value.status, refusal.value.code) == (409, "exclusion_not_shortened")
    assert row(ann) == before
    longer = limits.self_exclusion_set(user=ann, days=60).excluded_until
    assert longer > until


def test_a_self_exclusion_ends_when_its_days_are_over(ann, clock, cashier):
    limits.self_exclusion_set(user=ann, days=1)
    assert limits.limits_of(user_id=ann.pk).excluded_until is not None
    clock.later(days=1, seconds=1)
    assert limits.limits_of(user_id=ann.pk).excluded_until is None
    deposit(ann, 100, cashier)
    assert cash_of(ann) == 100


@pytest.mark.parametrize("days", [0, -1, limits.MAX_EXCLUSION_DAYS + 1, True, 1.5])
def test_a_self_exclusion_is_a_whole_number_of_days(ann, days):
    with pytest.raises(Exception) as refusal:
        limits.self_exclusion_set(user=ann, days=days)
    assert refusal.value.code == "bad_amount"
    assert row(ann) is None


# --------------------------------------------------------------------------
# Deposit limits


def test_a_deposit_past_the_limit_is_refused_and_nothing_moves(ann, cashier, clock):
    limits.deposit_limit_set(user=ann, daily=300)
    deposit(ann, 200, cashier)
    with pytest.raises(DepositLimitReached) as refusal:
        deposit(ann, 101, cashier)
    assert (refusal.value.status, refusal.value.code) == (409, "deposit_limit")
    assert refusal.value.extra == {"limit": 300, "remaining": 100}
    assert cash_of(ann) == 200
    deposit(ann, 100, cashier)
    assert cash_of(ann) == 300
    assert_sound()


def test_the_limit_counts_the_last_24_hours_only(ann, cashier, clock):
    limits.deposit_limit_set(user=ann, daily=300)
    deposit(ann, 300, cashier)
    clock.later(hours=23)
    with pytest.raises(DepositLimitReached):
        deposit(ann, 1, cashier)
    clock.later(hours=1, seconds=1)
    deposit(ann, 300, cashier)


def test_a_retried_deposit_is_answered_not_refused(ann, cashier, clock):
    limits.deposit_limit_set(user=ann, daily=300)
    transfer_id = uuid.uuid4()
    first = deposit(ann, 300, cashier, transfer_id)
    assert deposit(ann, 300, cashier, transfer_id).pk == first.pk
    assert cash_of(ann) == 300


def test_a_lower_limit_holds_at_once(ann, clock):
    limits.deposit_limit_set(user=ann, daily=1000)
    held = limits.deposit_limit_set(user=ann, daily=100)
    assert (held.daily_deposit, held.next_from) == (100, None)


def test_a_higher_limit_or_none_holds_only_after_a_day(ann, cashier, clock):
    limits.deposit_limit_set(user=ann, daily=100)
    held = limits.deposit_limit_set(user=ann, daily=1000)
    assert (held.daily_deposit, held.next_daily_deposit) == (100, 1000)
    assert held.next_from == clock.now + limits.COOLING_OFF
    with pytest.raises(DepositLimitReached):
        deposit(ann, 101, cashier)
    clock.later(hours=24)
    assert limits.limits_of(user_id=ann.pk).daily_deposit == 1000
    deposit(ann, 1000, cashier)
    limits.deposit_limit_set(user=ann, daily=None)
    assert limits.limits_of(user_id=ann.pk).daily_deposit == 1000
    clock.later(hours=24)
    assert limits.limits_of(user_id=ann.pk).daily_deposit is None


def test_a_lower_limit_drops_a_raise_waiting(ann, clock):
    limits.deposit_limit_set(user=ann, daily=100)
    limits.deposit_limit_set(user=ann, daily=1000)
    held = limits.deposit_limit_set(user=ann, daily=50)
    assert (held.daily_deposit, held.next_daily_deposit, held.next_from) == (50, None, None)
    clock.later(days=2)
    assert limits.limits_of(user_id=ann.pk).daily_deposit == 50


def test_a_newer_raise_replaces_one_waiting(ann, clock):
    limits.deposit_limit_set(user=ann, daily=100)
    limits.deposit_limit_set(user=ann, daily=1000)
    clock.later(hours=12)
    limits.deposit_limit_set(user=ann, daily=500)
    clock.later(hours=13)  # past the first raise's day, not the second's
    assert limits.limits_of(user_id=ann.pk).daily_deposit == 100
    clock.later(hours=12)
    assert limits.limits_of(user_id=ann.pk).daily_deposit == 500


# --------------------------------------------------------------------------
# REST


def test_a_player_reads_and_sets_his_limits_over_rest(ann, client_for, clock):
    client = client_for(ann)
    body = ok(client.get("/api/me/limits/"))
    assert body == {
        "excluded_until": None,
        "daily_deposit": None,
        "next_daily_deposit": None,
        "next_from": None,
        "deposited_24h": 0,
        "deposit_remaining": None,
    }
    body = ok(client.put("/api/me/deposit-limit/", {"daily": 200}, format="json"))
    assert (body["daily_deposit"], body["deposit_remaining"]) == (200, 200)
    body = ok(client.post("/api/me/self-exclusion/", {"days": 10}, format="json"))
    assert body["excluded_until"] is not None


def test_a_shortened_exclusion_is_refused_over_rest_and_nothing_changes(ann, client_for):
    client = client_for(ann)
    ok(client.post("/api/me/self-exclusion/", {"days": 10}, format="json"))
    before = row(ann)
    response = client.post("/api/me/self-exclusion/", {"days": 2}, format="json")
    refused(response, 409, "exclusion_not_shortened")
    assert row(ann) == before


@pytest.mark.parametrize("body", [{}, {"daily": -1}, {"daily": "100"}, {"daily": 1.5}])
def test_a_bad_deposit_limit_is_refused_over_rest(ann, client_for, body):
    refused(client_for(ann).put("/api/me/deposit-limit/", body, format="json"), 400, "invalid")
    assert row(ann) is None


def test_a_cashiers_deposit_past_the_limit_is_a_409_over_rest(ann, cashier, client_for):
    limits.deposit_limit_set(user=ann, daily=50)
    body = {"transfer_id": str(uuid.uuid4()), "amount": 51}
    response = client_for(cashier).post(f"/api/wallets/{ann.pk}/deposit/", body, format="json")
    assert refused(response, 409, "deposit_limit")["remaining"] == 50
    assert cash_of(ann) == 0


def test_limits_need_a_login(db, client_for):
    refused(client_for(None).get("/api/me/limits/"), 401, "not_authenticated")
