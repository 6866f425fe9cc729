"""The ledger's rules: transfers of entries summing to zero, written once;
balances that are their entries; no balance below zero; one transfer per
id.  Storage rules run on SQLite and on PostgreSQL."""

from __future__ import annotations

import uuid

import pytest
from django.db import IntegrityError, connections, transaction
from django.test.utils import CaptureQueriesContext

from accounts import ledger
from accounts.errors import (
    BadAmount,
    DuplicateTransfer,
    InsufficientFunds,
    ReservedTransferId,
    UnknownAccount,
)
from accounts.ledger import Move
from accounts.models import Account, AppendOnly, Entry, Transfer
from tests.accounts.conftest import assert_sound, balance
from tests.funds import cash_of

DEPOSIT = Transfer.Kind.DEPOSIT


def pay(source, target, amount, *, transfer_id=None, kind=DEPOSIT, using="default"):
    return ledger.transfer_post(
        transfer_id=transfer_id or uuid.uuid4(),
        kind=kind,
        moves=[Move(source, target, amount)],
        using=using,
    )


@pytest.fixture
def ann(make_user):
    return make_user("ann")


@pytest.fixture
def bob(make_user):
    return make_user("bob")


# --------------------------------------------------------------------------
# Transfers


def test_a_transfer_is_entries_summing_to_zero_and_balances_follow(ann):
    transfer = pay(ledger.external(), ledger.cash(ann.pk), 500)
    entries = {e.account.key: (e.amount, e.balance_after) for e in transfer.entries.all()}
    assert entries == {"external": (-500, -500), f"cash:{ann.pk}": (500, 500)}
    assert cash_of(ann) == 500 and balance(ledger.external()) == -500
    assert_sound()


def test_one_transfer_may_move_to_several_accounts(ann):
    pay(ledger.external(), ledger.cash(ann.pk), 500)
    transfer = ledger.transfer_post(
        transfer_id=uuid.uuid4(),
        kind=Transfer.Kind.REGISTRATION,
        moves=[
            Move(ledger.cash(ann.pk), ledger.pool("spring"), 100),
            Move(ledger.cash(ann.pk), ledger.house(), 10),
        ],
    )
    amounts = sorted(transfer.entries.values_list("amount", flat=True))
    assert amounts == [-110, 10, 100] and sum(amounts) == 0
    assert (cash_of(ann), balance(ledger.pool("spring")), balance(ledger.house())) == (390, 100, 10)
    assert_sound()


def test_moves_through_one_account_net_to_one_entry(ann, bob):
    pay(ledger.external(), ledger.cash(ann.pk), 50)
    transfer = ledger.transfer_post(
        transfer_id=uuid.uuid4(),
        kind=DEPOSIT,
        moves=[
            Move(ledger.cash(ann.pk), ledger.cash(bob.pk), 50),
            Move(ledger.cash(bob.pk), ledger.house(), 20),
        ],
    )
    assert transfer.entries.count() == 3
    assert (cash_of(ann), cash_of(bob), balance(ledger.house())) == (0, 30, 20)


def test_a_transfer_that_moves_nothing_is_not_written(ann):
    assert pay(ledger.external(), ledger.cash(ann.pk), 0) is None
    assert not Transfer.objects.exists()


@pytest.mark.parametrize("amount", [-1, 1.5, "10", True])
def test_amounts_are_whole_numbers_of_at_least_zero(ann, amount):
    with pytest.raises(BadAmount):
        pay(ledger.external(), ledger.cash(ann.pk), amount)
    assert not Transfer.objects.exists()


def test_money_and_tickets_never_mix_in_one_move(ann):
    with pytest.raises(ValueError):
        pay(ledger.cash(ann.pk), ledger.ticket(ann.pk, "spring"), 1)


# --------------------------------------------------------------------------
# No balance below zero


def test_spending_more_than_the_balance_is_refused_and_writes_nothing(ann, bob):
    pay(ledger.external(), ledger.cash(ann.pk), 100)
    with pytest.raises(InsufficientFunds) as refused:
        pay(ledger.cash(ann.pk), ledger.cash(bob.pk), 101)
    assert (refused.value.status, refused.value.code) == (409, "insufficient_funds")
    assert refused.value.extra == {
        "account": f"cash:{ann.pk}",
        "balance": 100,
        "needed": 101,
        "short": 1,
        "wallet": f"/api/wallets/{ann.pk}/",
        "deposit": f"/api/wallets/{ann.pk}/deposit/",
    }
    assert (cash_of(ann), cash_of(bob), Transfer.objects.count()) == (100, 0, 1)
    pay(ledger.cash(ann.pk), ledger.cash(bob.pk), 100)
    assert (cash_of(ann), cash_of(bob)) == (0, 100)
    assert_sound()


@pytest.mark.parametrize(
    "account",
    [ledger.house(), ledger.pool(7), ledger.table(3), ledger.ticket_reserve(7)],
    ids=lambda a: a.kind,
)
def test_only_the_outside_world_may_go_below_zero(ann, account):
    with pytest.raises(InsufficientFunds):
        pay(account, ledger.cash(ann.pk), 1)
    pay(ledger.external(), ledger.cash(ann.pk), 1)
    pay(ledger.tickets_issued("x"), ledger.ticket(ann.pk, "x"), 1)
    assert balance(ledger.external()) == balance(ledger.tickets_issued("x")) == -1


def test_the_database_refuses_a_balance_below_zero_too(ann):
    pay(ledger.external(), ledger.cash(ann.pk), 5)
    with pytest.raises(IntegrityError), transaction.atomic():
        Account.objects.filter(key=f"cash:{ann.pk}").update(balance=-1)


# --------------------------------------------------------------------------
# One transfer per id


def test_a_retry_with_the_same_id_returns_the_first_transfer_and_moves_nothing(ann):
    tid = uuid.uuid4()
    first = pay(ledger.external(), ledger.cash(ann.pk), 70, transfer_id=tid)
    again = pay(ledger.external(), ledger.cash(ann.pk), 70, transfer_id=tid)
    assert again.pk == first.pk and Transfer.objects.count() == 1
    assert cash_of(ann) == 70


def test_a_retry_of_a_spend_is_not_refused_for_the_money_it_spent(ann, bob):
    pay(ledger.external(), ledger.cash(ann.pk), 70)
    tid = uuid.uuid4()
    pay(ledger.cash(ann.pk), ledger.cash(bob.pk), 70, transfer_id=tid)
    assert pay(ledger.cash(ann.pk), ledger.cash(bob.pk), 70, transfer_id=tid).pk == tid
    assert (cash_of(ann), cash_of(bob)) == (0, 70)


@pytest.mark.parametrize("change", ["amount", "account", "kind"])
def test_the_same_id_for_a_different_transfer_is_refused(ann, bob, change):
    tid = uuid.uuid4()
    pay(ledger.external(), ledger.cash(ann.pk), 70, transfer_id=tid)
    target = ledger.cash(bob.pk if change == "account" else ann.pk)
    amount = 71 if change == "amount" else 70
    kind = Transfer.Kind.PRIZE if change == "kind" else DEPOSIT
    with pytest.raises(DuplicateTransfer) as refused:
        pay(ledger.external(), target, amount, transfer_id=tid, kind=kind)
    assert (refused.value.status, refused.value.code) == (409, "duplicate_transfer")
    assert (cash_of(ann), cash_of(bob), Transfer.objects.count()) == (70, 0, 1)


def test_transfer_ids_derived_from_one_name_are_one_id():
    assert ledger.transfer_id_for("table-1@2") == ledger.transfer_id_for("table-1@2")
    assert ledger.transfer_id_for("table-1@2") != ledger.transfer_id_for("table-1@3")


def test_the_room_s_transfer_ids_are_version_8_and_keyed_by_the_secret(settings):
    derived = ledger.transfer_id_for("table-1@2")
    assert (derived.version, derived.variant) == (8, uuid.RFC_4122)
    assert ledger.is_system_id(derived)
    settings.SECRET_KEY = "another secret"
    assert ledger.transfer_id_for("table-1@2") != derived
    # Not the public uuid5 of the old scheme, which anyone could compute.
    old_namespace = uuid.UUID("6f1f4d8e-8a43-4c1e-9a55-3c1d2b0e7a10")
    assert derived != uuid.uuid5(old_namespace, "table-1@2")


def test_the_room_s_transfer_ids_outlive_a_secret_key_rotation_with_the_ledger_key_pinned(
    settings,
):
    derived = ledger.transfer_id_for("table-1@2")
    settings.LEDGER_KEY, settings.SECRET_KEY = settings.SECRET_KEY, "the rotated secret"
    assert ledger.transfer_id_for("table-1@2") == derived
    settings.LEDGER_KEY = "another ledger key"
    assert ledger.transfer_id_for("table-1@2") != derived


def test_a_client_may_not_choose_an_id_of_the_room_s_kind():
    derived = ledger.transfer_id_for("table-1@2")
    with pytest.raises(ReservedTransferId) as refused:
        ledger.client_transfer_id(derived)
    assert (refused.value.status, refused.value.code) == (400, "reserved_transfer_id")
    mine = uuid.uuid4()
    assert ledger.client_transfer_id(mine) == mine and not ledger.is_system_id(mine)


# --------------------------------------------------------------------------
# Accounts


def test_an_account_of_a_player_who_does_not_exist_is_unknown(ann):
    with pytest.raises(UnknownAccount) as refused:
        pay(ledger.external(), ledger.cash(ann.pk + 1000), 5)
    assert (refused.value.status, refused.value.code) == (404, "unknown_account")
    assert not Account.objects.filter(key=f"cash:{ann.pk + 1000}").exists()


def test_accounts_come_into_being_on_first_use_with_their_unit(ann):
    pay(ledger.tickets_issued("main"), ledger.ticket(ann.pk, "main"), 2)
    held = Account.objects.get(key=f"ticket:{ann.pk}:main")
    assert (held.kind, held.user_id, held.ref, held.unit, held.balance) == (
        "ticket",
        ann.pk,
        "main",
        "ticket:main",
        2,
    )


# --------------------------------------------------------------------------
# Append-only, on both backends

BACKENDS = [
    pytest.param("sqlite", marks=pytest.mark.django_db(databases=["sqlite"]), id="sqlite"),
    pytest.param(
        "postgres",
        marks=[pytest.mark.postgres, pytest.mark.django_db(databases=["postgres"])],
        id="postgres",
    ),
]

CHANGES = {Transfer: {"memo": "x"}, Entry: {"amount": 1}}


@pytest.mark.parametrize("alias", BACKENDS)
def test_transfers_and_entries_refuse_to_be_changed_or_deleted(alias, django_user_model):
    user = django_user_model.objects.db_manager(alias).create_user("zed")
    transfer = pay(ledger.external(), ledger.cash(user.pk), 9, using=alias)
    entry = Entry.objects.using(alias).filter(transfer=transfer).first()
    for row in (transfer, entry):
        with pytest.raises(AppendOnly):
            row.save(using=alias)
        with pytest.raises(AppendOnly):
            row.delete()
    for model, change in CHANGES.items():
        with pytest.raises(AppendOnly):
            model.objects.using(alias).all().update(**change)
        with pytest.raises(AppendOnly):
            model.objects.using(alias).all().delete()
    assert_sound(alias)


@pytest.mark.postgres
@pytest.mark.django_db(databases=["postgres"])
@pytest.mark.parametrize(
    "sql",
    [
        "UPDATE accounts_entry SET amount = amount + 1",
        "DELETE FROM accounts_entry",
        "UPDATE accounts_transfer SET memo = 'x'",
        "DELETE FROM accounts_transfer",
    ],
)
def test_on_postgresql_a_trigger_refuses_raw_updates_and_deletes(sql, django_user_model):
    user = django_user_model.objects.db_manager("postgres").create_user("zed")
    pay(ledger.external(), ledger.cash(user.pk), 9, using="postgres")
    with (
        pytest.raises(IntegrityError, match="append-only"),
        transaction.atomic(using="postgres"),
    ):
        connections["postgres"].cursor().execute(sql)
    assert_sound("postgres")


# --------------------------------------------------------------------------
# The two ways of writing (PostgreSQL's two statements, the ORM's elsewhere)


@pytest.mark.parametrize("alias", BACKENDS)
def test_both_ways_refuse_the_short_and_the_reused_id_and_write_nothing(alias, django_user_model):
    ann, bob = (django_user_model.objects.db_manager(alias).create_user(n) for n in "ab")
    pay(ledger.external(), ledger.cash(ann.pk), 10, using=alias)
    pay(ledger.external(), ledger.cash(bob.pk), 1, using=alias)  # every account exists now
    tid = uuid.uuid4()
    with pytest.raises(InsufficientFunds) as refused:
        pay(ledger.cash(ann.pk), ledger.cash(bob.pk), 11, transfer_id=tid, using=alias)
    assert refused.value.extra["short"] == 1
    first = pay(ledger.cash(ann.pk), ledger.cash(bob.pk), 4, transfer_id=tid, using=alias)
    again = pay(ledger.cash(ann.pk), ledger.cash(bob.pk), 4, transfer_id=tid, using=alias)
    assert first.pk == again.pk == tid
    with pytest.raises(DuplicateTransfer):
        pay(ledger.cash(ann.pk), ledger.cash(bob.pk), 5, transfer_id=tid, using=alias)
    assert [cash_of(u, alias) for u in (ann, bob)] == [6, 5]
    entries = Entry.objects.using(alias).filter(transfer=tid).order_by("account_id")
    assert [(e.amount, e.balance_after) for e in entries] == [(-4, 6), (4, 5)]
    assert_sound(alias)


@pytest.mark.postgres
@pytest.mark.django_db(databases=["postgres"])
def test_on_postgresql_a_transfer_over_accounts_that_exist_is_two_statements(django_user_model):
    """Its accounts locked and read with whether its id is taken, then the
    transfer, its entries and the balances written: no savepoint."""
    ann, bob = (django_user_model.objects.db_manager("postgres").create_user(n) for n in "ab")
    pay(ledger.external(), ledger.cash(ann.pk), 10, using="postgres")
    pay(ledger.external(), ledger.cash(bob.pk), 1, using="postgres")
    connection = connections["postgres"]
    with transaction.atomic(using="postgres"), CaptureQueriesContext(connection) as captured:
        pay(ledger.cash(ann.pk), ledger.cash(bob.pk), 4, using="postgres")
    sql = [q["sql"] for q in captured.captured_queries]
    assert [s.split()[0] for s in sql] == ["SELECT", "WITH"], sql
    assert [cash_of(u, "postgres") for u in (ann, bob)] == [6, 5]
