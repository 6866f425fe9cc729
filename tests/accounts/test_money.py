"""The money operations other apps call: deposits and withdrawals at the
cashier, tournament registration, refunds, rebuys, add-ons and prizes,
tickets won and spent.  Each is one transfer; each is refused whole."""

from __future__ import annotations

import uuid

import pytest

from accounts import ledger, money
from accounts.errors import BadAmount, InsufficientFunds, NotPermitted
from accounts.models import Transfer
from tests.accounts.conftest import assert_sound, balance
from tests.funds import cash_of

POOL, HOUSE = ledger.pool("spring"), ledger.house()


def tid() -> uuid.UUID:
    return uuid.uuid4()


@pytest.fixture
def ann(make_user):
    return make_user("ann", cash=1000)


# --------------------------------------------------------------------------
# The cashier


def test_a_deposit_comes_from_outside_the_room(make_user, cashier):
    bob = make_user("bob")
    transfer = money.wallet_deposit(transfer_id=tid(), user_id=bob.pk, amount=300, by=cashier)
    assert (transfer.kind, transfer.by_id) == ("deposit", cashier.pk)
    assert (cash_of(bob), balance(ledger.external())) == (300, -300)
    assert_sound()


def test_a_withdrawal_goes_out_and_never_beyond_the_cash(ann, cashier):
    money.wallet_withdraw(transfer_id=tid(), user_id=ann.pk, amount=400, by=cashier)
    with pytest.raises(InsufficientFunds):
        money.wallet_withdraw(transfer_id=tid(), user_id=ann.pk, amount=601, by=cashier)
    assert cash_of(ann) == 600
    assert_sound()


@pytest.mark.parametrize("operation", [money.wallet_deposit, money.wallet_withdraw])
def test_only_a_cashier_moves_cash(ann, make_user, director, operation):
    for somebody in (ann, make_user("bob", staff=True), director):
        with pytest.raises(NotPermitted):
            operation(transfer_id=tid(), user_id=ann.pk, amount=1, by=somebody)
    assert cash_of(ann) == 1000


@pytest.mark.parametrize("amount", [0, -5])
def test_a_deposit_or_withdrawal_of_nothing_is_refused(ann, amount):
    for operation in (money.wallet_deposit, money.wallet_withdraw):
        with pytest.raises(BadAmount):
            operation(transfer_id=tid(), user_id=ann.pk, amount=amount)


# --------------------------------------------------------------------------
# Tournaments


def test_registration_puts_the_buy_in_in_the_pool_and_the_fee_with_the_house(ann):
    money.tournament_register(
        transfer_id=tid(), user_id=ann.pk, tournament="spring", buy_in=100, fee=10
    )
    assert (cash_of(ann), balance(POOL), balance(HOUSE)) == (890, 100, 10)
    assert_sound()


def test_registration_without_the_money_moves_nothing(make_user):
    bob = make_user("bob", cash=105)
    with pytest.raises(InsufficientFunds):
        money.tournament_register(
            transfer_id=tid(), user_id=bob.pk, tournament="spring", buy_in=100, fee=10
        )
    assert (cash_of(bob), balance(POOL), balance(HOUSE)) == (105, 0, 0)


def test_unregistration_refunds_buy_in_and_fee(ann):
    money.tournament_register(
        transfer_id=tid(), user_id=ann.pk, tournament="spring", buy_in=100, fee=10
    )
    money.tournament_unregister(
        transfer_id=tid(), user_id=ann.pk, tournament="spring", buy_in=100, fee=10
    )
    assert (cash_of(ann), balance(POOL), balance(HOUSE)) == (1000, 0, 0)
    assert_sound()


def test_rebuys_and_add_ons_feed_the_pool(ann):
    args = {"user_id": ann.pk, "tournament": "spring"}
    money.tournament_register(transfer_id=tid(), buy_in=100, fee=10, **args)
    money.tournament_chips_in(
        kind=Transfer.Kind.REBUY, transfer_id=tid(), amount=100, fee=5, **args
    )
    money.tournament_chips_in(kind=Transfer.Kind.ADD_ON, transfer_id=tid(), amount=50, **args)
    assert (cash_of(ann), balance(POOL), balance(HOUSE)) == (735, 250, 15)
    kinds = Transfer.objects.order_by("created_at").values_list("kind", flat=True)
    assert list(kinds)[-3:] == ["registration", "rebuy", "add_on"]


def test_prizes_come_out_of_the_pool_and_never_beyond_it(ann, make_user):
    bob = make_user("bob", cash=1000)
    for player in (ann, bob):
        money.tournament_register(
            transfer_id=tid(), user_id=player.pk, tournament="spring", buy_in=100
        )
    money.tournament_prize(transfer_id=tid(), user_id=bob.pk, tournament="spring", amount=150)
    with pytest.raises(InsufficientFunds):
        money.tournament_prize(transfer_id=tid(), user_id=ann.pk, tournament="spring", amount=51)
    money.tournament_prize(transfer_id=tid(), user_id=ann.pk, tournament="spring", amount=50)
    assert (cash_of(ann), cash_of(bob), balance(POOL)) == (950, 1050, 0)
    assert_sound()


def test_pools_are_kept_per_tournament(ann):
    money.tournament_register(transfer_id=tid(), user_id=ann.pk, tournament=1, buy_in=100)
    with pytest.raises(InsufficientFunds):
        money.tournament_prize(transfer_id=tid(), user_id=ann.pk, tournament=2, amount=1)
    assert balance(ledger.pool(1)) == 100


def test_only_a_tournament_director_moves_tournament_money(ann, cashier, director):
    with pytest.raises(NotPermitted):
        money.tournament_prize(
            transfer_id=tid(), user_id=ann.pk, tournament="spring", amount=1, by=cashier
        )
    money.tournament_register(
        transfer_id=tid(), user_id=ann.pk, tournament="spring", buy_in=10, by=director
    )


# --------------------------------------------------------------------------
# Tickets


def satellite(ann, value=110):
    """ann wins a ticket to ``main`` out of the ``sat`` satellite's pool."""
    money.tournament_register(transfer_id=tid(), user_id=ann.pk, tournament="sat", buy_in=value)
    money.ticket_award(
        transfer_id=tid(), user_id=ann.pk, target="main", value=value, paid_from="sat"
    )


def test_a_ticket_won_is_an_entry_held_and_its_money_reserved(ann):
    satellite(ann)
    assert balance(ledger.ticket(ann.pk, "main")) == 1
    assert balance(ledger.tickets_issued("main")) == -1
    assert (balance(ledger.pool("sat")), balance(ledger.ticket_reserve("main"))) == (0, 110)
    assert_sound()


def test_a_ticket_spent_registers_with_the_money_it_reserved(ann):
    satellite(ann)
    money.ticket_spend(transfer_id=tid(), user_id=ann.pk, tournament="main", buy_in=100, fee=10)
    assert balance(ledger.ticket(ann.pk, "main")) == 0
    assert (balance(ledger.pool("main")), balance(HOUSE)) == (100, 10)
    assert balance(ledger.ticket_reserve("main")) == 0
    assert cash_of(ann) == 890  # paid the satellite only
    assert_sound()


def test_a_ticket_is_spent_once(ann):
    satellite(ann)
    money.ticket_spend(transfer_id=tid(), user_id=ann.pk, tournament="main", buy_in=100, fee=10)
    with pytest.raises(InsufficientFunds):
        money.ticket_spend(transfer_id=tid(), user_id=ann.pk, tournament="main", buy_in=100)


def test_a_ticket_enters_only_its_own_tournament(ann):
    satellite(ann)
    with pytest.raises(InsufficientFunds):
        money.ticket_spend(transfer_id=tid(), user_id=ann.pk, tournament="other", buy_in=100)


def test_unregistering_a_ticket_entry_gives_the_ticket_back(ann):
    satellite(ann)
    money.ticket_spend(transfer_id=tid(), user_id=ann.pk, tournament="main", buy_in=100, fee=10)
    money.tournament_unregister(
        transfer_id=tid(), user_id=ann.pk, tournament="main", buy_in=100, fee=10, ticket=True
    )
    assert balance(ledger.ticket(ann.pk, "main")) == 1
    assert balance(ledger.ticket_reserve("main")) == 110
    assert (balance(ledger.pool("main")), balance(HOUSE), cash_of(ann)) == (0, 0, 890)
    assert_sound()


def test_the_house_may_give_tickets_it_pays_for(ann, make_user):
    bob = make_user("bob", cash=100)
    money.tournament_register(transfer_id=tid(), user_id=bob.pk, tournament="x", buy_in=0, fee=100)
    money.ticket_award(transfer_id=tid(), user_id=ann.pk, target="main", value=100, count=1)
    assert (balance(HOUSE), balance(ledger.ticket_reserve("main"))) == (0, 100)
    with pytest.raises(InsufficientFunds):  # nothing left to pay a second
        money.ticket_award(transfer_id=tid(), user_id=ann.pk, target="main", value=100)


def test_a_retried_operation_moves_money_once(ann):
    transfer_id = tid()
    for _ in range(3):
        money.tournament_register(
            transfer_id=transfer_id, user_id=ann.pk, tournament="spring", buy_in=100, fee=10
        )
    assert cash_of(ann) == 890


def test_chips_are_bought_in_only_by_a_rebuy_or_an_add_on(ann):
    with pytest.raises(ValueError):
        money.tournament_chips_in(
            kind=Transfer.Kind.PRIZE, transfer_id=tid(), user_id=ann.pk, tournament="spring",
            amount=10,
        )  # fmt: skip
    assert not Transfer.objects.filter(kind=Transfer.Kind.PRIZE).exists()
