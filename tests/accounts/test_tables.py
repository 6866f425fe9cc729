"""Cash tables on the ledger: a table's chips always equal its escrow.

First the plan, rule by rule, from table events alone (players "1", "2" are
user ids); then through the table services, where a seat is refused whole
when the wallet cannot pay for it."""

from __future__ import annotations

import uuid

import pytest

from accounts import ledger
from accounts.errors import InsufficientFunds
from accounts.models import Transfer
from accounts.tables import table_money_plan
from kernel.api_errors import ApiError
from kernel.models import Event
from poker import selectors, services
from poker.engine.table import FinishHand, Leave, Sit, TopUp, play_table
from poker.models import Hand, Table
from tests.accounts.conftest import assert_sound
from tests.engine.table_support import FIVE, deal, table
from tests.funds import cash_of, escrow
from tests.poker.api_support import passive

ESCROW = ledger.table(9)


def plan(before, command):
    """What ``command`` moves: [(version, kind, {account key: net})]."""
    after, events = play_table(before, command)
    out = []
    for p in table_money_plan(table_id=9, before=before, events=events):
        out.append((p.version, p.kind, {r.key: n for r, n in ledger.net_of(p.moves).items()}))
    return after, out


def finish_with(state, **stacks):
    final = {n: state.seats[n].stack for n in state.hand_seats}
    final.update({int(k[1:]): v for k, v in stacks.items()})
    return plan(state, FinishHand(final))


# --------------------------------------------------------------------------
# The plan


def test_a_buy_in_moves_from_cash_to_the_table():
    before = table(FIVE, {})
    _, moved = plan(before, Sit(1, "1", 150))
    assert moved == [(before.version + 1, "buy_in", {"cash:1": -150, "table:9": 150})]


def test_a_top_up_between_hands_moves_at_once():
    state = table(FIVE, {1: "1"})
    _, moved = plan(state, TopUp(1, 50))
    assert moved == [(state.version + 1, "top_up", {"cash:1": -50, "table:9": 50})]


def test_a_queued_top_up_is_reserved_when_asked_for_and_its_application_moves_nothing():
    state, _ = deal(table(FIVE, {1: "1", 2: "2"}))
    state, moved = plan(state, TopUp(1, 50))
    assert moved == [(state.version, "top_up", {"cash:1": -50, "table:9": 50})]
    state, moved = finish_with(state)  # 100 + 50 is within the maximum of 200
    assert moved == []
    assert state.seats[1].stack == 150


def test_a_queued_top_up_cut_by_the_maximum_gives_back_the_rest():
    state, _ = deal(table(FIVE, {1: "1", 2: "2"}))
    state, _ = plan(state, TopUp(1, 100))
    state, moved = finish_with(state, s1=180, s2=20)  # room for 20 of the 100
    ((version, kind, net),) = moved
    assert (kind, net) == ("top_up_refund", {"cash:1": 80, "table:9": -80})
    assert version == state.version  # the ToppedUp's, the last event
    assert state.seats[1].stack == 200


def test_a_queued_top_up_with_no_room_at_all_goes_back_with_the_hand_finished():
    state, _ = deal(table(FIVE, {1: "1", 2: "2"}))
    before, _ = plan(state, TopUp(1, 100))
    state, moved = finish_with(before, s1=200, s2=0)
    assert moved == [
        (before.version + 1, "top_up_refund", {"cash:1": 100, "table:9": -100})
    ]  # at the version of the HandFinished: no ToppedUp follows
    assert state.seats[1].stack == 200


def test_leaving_takes_the_stack_and_any_queued_top_up_back_to_cash():
    state, _ = deal(table(FIVE, {1: "1", 2: "2"}))
    state, _ = plan(state, TopUp(1, 30))
    state, _ = plan(state, Leave(1))  # queued: he leaves when the hand ends
    state, moved = finish_with(state, s1=70, s2=130)
    assert [(kind, net) for _, kind, net in moved] == [
        ("cash_out", {"cash:1": 100, "table:9": -100})  # 70 won back, 30 never used
    ]
    assert 1 not in state.seats


def test_leaving_with_nothing_moves_nothing():
    state, _ = deal(table(FIVE, {1: "1", 2: "2"}))
    state, _ = finish_with(state, s1=0, s2=200)
    _, moved = plan(state, Leave(1))
    assert moved == []


def test_a_player_id_that_is_no_user_id_is_an_unknown_account():
    with pytest.raises(ApiError) as refused:
        plan(table(FIVE, {}), Sit(1, "ann", 100))
    assert refused.value.code == "unknown_account"


# --------------------------------------------------------------------------
# Through the table services


@pytest.fixture
def boss(make_user):
    return make_user("boss", staff=True)


@pytest.fixture
def new_table(boss):
    def make(**settings):
        body = (
            dict(name="t", game="32-card-draw", betting="no-limit", small_blind=1, big_blind=2)
            | settings
        )
        return services.table_create(by=boss, **body).pk

    return make


def sit(user, table_id, seat, buy_in):
    return services.seat_sit(
        by=user, table_id=table_id, seat=seat, buy_in=buy_in, command_id=uuid.uuid4()
    )


def chips(view):
    return sum(s["stack"] + s["top_up_queued"] for s in view["seats"])


def test_sitting_down_pays_the_buy_in_from_the_wallet(make_user, new_table):
    ann = make_user("ann", cash=500)
    table_id = new_table()
    view = sit(ann, table_id, 1, 150)
    assert (cash_of(ann), escrow(table_id), chips(view)) == (350, 150, 150)
    (transfer,) = Transfer.objects.filter(kind="buy_in")
    seated = Event.objects.get(stream=f"table-{table_id}", type="table.player_seated")
    assert transfer.pk == ledger.transfer_id_for(f"table-{table_id}@{seated.version}")
    assert transfer.ref == f"table-{table_id}@{seated.version}" and transfer.by_id == ann.pk
    assert_sound()


def test_a_buy_in_the_wallet_cannot_pay_is_refused_and_nothing_changes(make_user, new_table):
    ann = make_user("ann", cash=99)
    table_id = new_table()
    events = Event.objects.count()
    with pytest.raises(InsufficientFunds) as refused:
        sit(ann, table_id, 1, 100)
    assert (refused.value.status, refused.value.code) == (409, "insufficient_funds")
    assert (Event.objects.count(), cash_of(ann), escrow(table_id)) == (events, 99, 0)
    sit(ann, table_id, 1, 99)
    assert_sound()


def test_a_refused_second_buy_in_does_not_deal_a_hand(make_user, new_table):
    ann, bob = make_user("ann", cash=100), make_user("bob", cash=50)
    table_id = new_table()
    sit(ann, table_id, 1, 100)
    with pytest.raises(InsufficientFunds):
        sit(bob, table_id, 2, 100)
    assert services.seat_sit_out(by=ann, table_id=table_id)["hand"] is None
    assert_sound()


def finish_hand(table_id, users):
    """Play the running hand out passively through the services."""
    while True:
        table = Table.objects.get(pk=table_id)
        hand = selectors.table_view(table, None)["hand"]
        if hand is None or hand["phase"] == "complete":
            return
        user = users[hand["to_act_seat"]]
        mine = selectors.table_view(table, user)["hand"]
        services.hand_act(
            by=user,
            table_id=table_id,
            hand=mine["id"],
            version=mine["version"],
            action=passive(mine["legal"]["actions"]),
            command_id=uuid.uuid4(),
        )


OLD_NAMESPACE = uuid.UUID("6f1f4d8e-8a43-4c1e-9a55-3c1d2b0e7a10")
"""The public namespace the table's transfer ids once came from (uuid5)."""


def test_a_cashier_s_deposits_under_a_table_s_ids_never_block_it(
    make_user, new_table, cashier, client_for
):
    ann, bob = make_user("ann", cash=300), make_user("bob", cash=300)
    table_id = new_table()
    cash = client_for(cashier)
    url = f"/api/wallets/{ann.pk}/deposit/"
    names = [f"table-{table_id}@{version}" for version in range(1, 40)]
    for name in names:  # every id the old scheme would give the table
        body = {"transfer_id": str(uuid.uuid5(OLD_NAMESPACE, name)), "amount": 1}
        assert cash.post(url, body, format="json").status_code == 200
    for name in names[:3]:  # the ids the table will use: refused, never taken
        body = {"transfer_id": str(ledger.transfer_id_for(name)), "amount": 1}
        refused = cash.post(url, body, format="json")
        assert refused.status_code == 400
        assert refused.json()["code"] == "invalid" and "transfer_id" in refused.json()["fields"]
    assert cash_of(ann) == 300 + len(names)
    sit(ann, table_id, 1, 100)
    sit(bob, table_id, 2, 100)
    for _ in range(3):  # hands follow each other at once here (no pause)
        table = Table.objects.get(pk=table_id)
        hand = selectors.table_view(table, None)["hand"]
        user = {1: ann, 2: bob}[hand["to_act_seat"]]
        services.hand_act(
            by=user, table_id=table_id, hand=hand["id"], version=hand["version"],
            action="fold", command_id=uuid.uuid4(),
        )  # fmt: skip
    assert Hand.objects.filter(table_id=table_id, phase="complete").count() == 3
    services.seat_leave(by=ann, table_id=table_id, command_id=uuid.uuid4())  # in a hand
    services.seat_leave(by=bob, table_id=table_id, command_id=uuid.uuid4())
    assert cash_of(ann) + cash_of(bob) == 600 + len(names)
    assert Transfer.objects.filter(kind="cash_out").count() == 2
    assert_sound()


def test_a_queued_top_up_is_paid_when_asked_for(make_user, new_table):
    ann, bob = make_user("ann", cash=300), make_user("bob", cash=150)
    table_id = new_table()
    sit(ann, table_id, 1, 100)
    sit(bob, table_id, 2, 100)  # a hand is dealt
    view = services.seat_top_up(by=ann, table_id=table_id, amount=80)
    assert view["seats"][0]["top_up_queued"] == 80
    assert (cash_of(ann), escrow(table_id), chips(view)) == (120, 280, 280)
    with pytest.raises(InsufficientFunds):
        services.seat_top_up(by=bob, table_id=table_id, amount=51)
    assert cash_of(bob) == 50
    assert_sound()


def test_every_chip_goes_back_when_the_table_closes(make_user, new_table, boss):
    ann, bob = make_user("ann", cash=300), make_user("bob", cash=300)
    table_id = new_table()
    sit(ann, table_id, 1, 100)
    sit(bob, table_id, 2, 200)  # a hand is dealt
    services.seat_top_up(by=ann, table_id=table_id, amount=50)  # queued
    services.table_close(by=boss, table_id=table_id)  # when the hand ends
    finish_hand(table_id, {1: ann, 2: bob})
    assert Table.objects.get(pk=table_id).status == "closed"
    assert (cash_of(ann) + cash_of(bob), escrow(table_id)) == (600, 0)
    assert_sound()
