"""The rake at a cash table through the API (RULES.md 8): set per table,
taken by the hand that reaches the draw, posted to the house's rake
account in the transaction of the action that ends the hand; the audit
covers it and chips are conserved: table chips + rake = buy-ins."""

from __future__ import annotations

import uuid
from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from accounts import ledger, postings
from accounts.audit import ledger_audit
from accounts.models import Transfer
from accounts.selectors import account_balance
from poker import services
from tests.poker.api_support import Room, action_body, command, ok, post, seat_players
from tests.poker.concurrency import RACE_TIMEOUT_S, Hold, race, wait_for_lock_waiters
from tests.poker.test_session import chips_on_table, money_flows
from tests.poker.test_statement_budget import BUDGET

pytestmark = pytest.mark.django_db(transaction=True)

RAKE = {"rake_basis_points": 2500, "rake_cap": 3, "rake_min_pot": 0}
"""25 %, at most 3 chips a hand: a checked-down heads-up pot of 4 gives 1."""


def play(room: Room, prefer: tuple[str, ...]) -> dict[str, Any]:
    """Play the running hand to its end, each player taking the first of
    ``prefer`` he may; the finished hand's history (``GET /api/hands/ID/``)."""
    start = room.view()["hand"]
    while True:
        hand = room.view()["hand"]
        if hand["id"] != start["id"] or hand["phase"] == "complete":
            client = next(iter(room.clients.values()))
            return ok(client.get(f"/api/hands/{start['id']}/"))  # type: ignore[no-any-return]
        _, client, mine = room.to_act()
        legal = mine["hand"]["legal"]["actions"]
        action = next(a for a in prefer if a in legal)
        ok(post(client, f"/api/tables/{room.table}/actions/", action_body(mine, action)))


def raked(hand: dict[str, Any]) -> int:
    """The rake of a finished hand as its history gives it, checked against
    its ``hand.raked`` events."""
    events = [e for e in hand["events"] if e["type"] == "hand.raked"]
    assert hand["result"]["rake"] == sum(e["amount"] for e in events)
    assert len(events) <= 1
    return int(hand["result"]["rake"])


def conserved(room: Room) -> int:
    """Checks chips on the table + rake = brought - taken; the rake."""
    brought, taken = money_flows(room.table)
    rake = account_balance(ledger.rake())
    assert chips_on_table(room.table) + rake == brought - taken
    assert ledger_audit() == []
    return rake


def test_the_table_shows_its_rake_settings(open_table) -> None:
    table = open_table(game="five-card-draw", **RAKE)["table"]
    assert {k: table[k] for k in RAKE} == RAKE


def test_a_hand_that_reaches_the_draw_is_raked_into_the_house_account(
    open_table, make_user, client_for
) -> None:
    room = seat_players(open_table, make_user, client_for, game="five-card-draw", **RAKE)
    assert room.view()["hand"]["rake"] == {"basis_points": 2500, "cap": 3, "min_pot": 0}
    hand = play(room, ("call", "check", "stand", "show", "muck"))
    assert raked(hand) == 1  # 25 % of the pot of 4 (both players' 2)
    assert conserved(room) == 1
    (transfer,) = Transfer.objects.filter(kind=Transfer.Kind.RAKE)
    assert transfer.ref.startswith(f"table-{room.table}@") and transfer.ref.endswith("/rake")


def test_no_draw_no_drop(open_table, make_user, client_for) -> None:
    room = seat_players(open_table, make_user, client_for, game="five-card-draw", **RAKE)
    hand = play(room, ("fold",))
    assert raked(hand) == 0
    assert conserved(room) == 0
    assert not Transfer.objects.filter(kind=Transfer.Kind.RAKE).exists()


def test_a_table_without_rake_takes_none(open_table, make_user, client_for) -> None:
    room = seat_players(open_table, make_user, client_for, game="five-card-draw")
    assert room.view()["hand"]["rake"] is None
    hand = play(room, ("call", "check", "stand", "show", "muck"))
    assert raked(hand) == 0
    assert conserved(room) == 0


def test_the_rake_of_many_hands_adds_up(open_table, make_user, client_for) -> None:
    room = seat_players(open_table, make_user, client_for, game="five-card-draw", **RAKE)
    taken = [raked(play(room, ("call", "check", "stand", "show", "muck"))) for _ in range(3)]
    assert taken == [1, 1, 1]
    assert conserved(room) == 3
    assert Transfer.objects.filter(kind=Transfer.Kind.RAKE).count() == 3


def test_a_preset_sets_the_rake_at_the_tables_big_blind(open_table) -> None:
    table = open_table(game="five-card-draw", small_blind=3, big_blind=6, rake_preset="standard")
    got = {k: table["table"][k] for k in RAKE}
    assert got == {"rake_basis_points": 500, "rake_cap": 18, "rake_min_pot": 6}


def test_the_none_preset_is_no_rake(open_table) -> None:
    table = open_table(game="five-card-draw", rake_preset="none")["table"]
    assert (table["rake_basis_points"], table["rake_cap"], table["rake_min_pot"]) == (0, None, 0)


def test_a_preset_and_rake_numbers_together_are_refused(staff, client_for) -> None:
    body = {"name": "T", "game": "five-card-draw", "betting": "no-limit", "small_blind": 1,
            "big_blind": 2, "rake_preset": "standard", "rake_cap": 4}  # fmt: skip
    response = client_for(staff).post("/api/tables/", body, format="json")
    assert response.status_code == 400
    assert response.json()["code"] == "invalid"
    assert "rake_cap" in str(response.json()["fields"]["rake_preset"])


@pytest.mark.parametrize(
    "bad",
    [
        {"rake_preset": "huge"},
        {"rake_basis_points": 10_001},
        {"rake_cap": -1},
        {"rake_min_pot": 1.5},
        {"rake_basis_points": "5"},
    ],
)
def test_nonsense_rake_settings_are_refused(staff, client_for, bad: dict[str, Any]) -> None:
    body = {"name": "T", "game": "five-card-draw", "betting": "no-limit", "small_blind": 1,
            "big_blind": 2, **bad}  # fmt: skip
    response = client_for(staff).post("/api/tables/", body, format="json")
    assert response.status_code == 400
    assert set(response.json()) >= {"code", "message"}


# --------------------------------------------------------------------------
# What it costs the database


@pytest.mark.postgres
def test_an_action_at_a_raking_table_keeps_the_statement_budget(
    pg_default: None, open_table, make_user, client_for
) -> None:
    """The rake costs an action inside a hand nothing: it is worked out and
    posted only when the hand ends."""
    room = seat_players(open_table, make_user, client_for, game="five-card-draw", **RAKE)
    _, client, mine = room.to_act()
    with CaptureQueriesContext(connection) as captured:
        ok(post(client, f"/api/tables/{room.table}/actions/", action_body(mine, "call")))
    kinds = Counter(q["sql"].split()[0].upper() for q in captured.captured_queries)
    assert len(captured.captured_queries) <= BUDGET, kinds
    assert kinds["BEGIN"] + kinds["SAVEPOINT"] <= 1, kinds


@pytest.mark.postgres
def test_the_action_that_ends_a_raked_hand_posts_the_rake_in_its_own_transaction(
    pg_default: None, open_table, make_user, client_for
) -> None:
    room = seat_players(open_table, make_user, client_for, game="five-card-draw", **RAKE)
    for action in ("call", "check", "stand", "stand", "check", "check", "show"):
        ok(room.act(action))
    _, client, mine = room.to_act()  # the second hand turned up ends it
    assert mine["hand"]["phase"] == "showdown"
    with CaptureQueriesContext(connection) as captured:
        ok(post(client, f"/api/tables/{room.table}/actions/", action_body(mine, "show")))
    kinds = Counter(q["sql"].split()[0].upper() for q in captured.captured_queries)
    assert kinds["BEGIN"] == 1 and kinds["COMMIT"] == 1, kinds
    (transfer,) = Transfer.objects.filter(kind=Transfer.Kind.RAKE)
    assert transfer.entries.get(account__key=ledger.rake().key).amount == 1


@pytest.mark.postgres
def test_the_rake_written_with_the_events_comes_after_a_refund_written_at_once(
    pg_default: None, open_table, make_user, client_for
) -> None:
    """The hand's end gives a queued top-up that no longer fits back to its
    player's cash (written at once: his wallet frame shows its entry) and
    posts the rake with the command's events (``defer``): the rake reads
    the escrow after the refund, and the ledger stays sound."""
    buy_ins = {"buy_in": 90, "min_buy_in": 20, "max_buy_in": 100}
    room = seat_players(open_table, make_user, client_for, game="five-card-draw", **buy_ins, **RAKE)
    winner, client, _ = room.to_act()
    ok(command(client, room.table, "top-up", amount=10))  # queued: his hand runs
    ok(room.act("raise", amount=20))
    for action in ("call", "stand", "stand"):
        ok(room.act(action))
    if room.to_act()[0] != winner:
        ok(room.act("check"))
    _, _, mine = room.to_act()
    ok(room.act("bet", amount=mine["hand"]["legal"]["min_bet_to"]))
    ok(room.act("fold"))  # the winner now holds more than the maximum: no room
    (refund,) = Transfer.objects.filter(kind=Transfer.Kind.TOP_UP_REFUND)
    (rake,) = Transfer.objects.filter(kind=Transfer.Kind.RAKE)
    escrow = ledger.table(room.table).key
    after = {t.kind: t.entries.get(account__key=escrow).balance_after for t in (refund, rake)}
    assert after[Transfer.Kind.RAKE] == after[Transfer.Kind.TOP_UP_REFUND] - 3
    assert refund.entries.get(account__user=room.users[winner]).amount == 10
    assert conserved(room) == 3
    assert account_balance(ledger.table(room.table)) == chips_on_table(room.table)


@pytest.mark.postgres
def test_two_tables_raking_at_once_queue_on_the_rake_account_and_lose_no_chip(
    pg_default: None, open_table, make_user, client_for
) -> None:
    """The rake's accounts are locked and read before the command writes
    and written with its events: a second table's rake waits on the house's
    rake account until the first commits, then reads its balance after it
    (no update lost, no deadlock)."""
    with transaction.atomic():  # as any hand raked before made it
        ledger.accounts_lock([ledger.rake()])
    rooms = [
        seat_players(open_table, make_user, client_for, names, game="five-card-draw", **RAKE)
        for names in (("ann", "bob"), ("cid", "dan"))
    ]
    for room in rooms:
        for action in ("call", "check", "stand", "stand", "check", "check", "show"):
            ok(room.act(action))

    def show(room: Room) -> Callable[[], Any]:
        name, _, view = room.to_act()
        hand = view["hand"]
        return lambda: services.hand_act(
            by=room.users[name], table_id=room.table, hand=hand["id"],
            version=hand["version"], action="show", command_id=uuid.uuid4(),
        )  # fmt: skip

    def hold_then_release() -> None:
        assert held.inside.wait(RACE_TIMEOUT_S)
        wait_for_lock_waiters(1)  # the other table queues on the rake account
        held.release()

    with Hold(postings, "lock") as held:  # the first holds its accounts' locks
        outcomes = race(*(show(room) for room in rooms), meanwhile=hold_then_release)
    assert [o.code for o in outcomes] == [None, None]
    assert Transfer.objects.filter(kind=Transfer.Kind.RAKE).count() == 2
    assert account_balance(ledger.rake()) == 2
    assert ledger_audit() == []
    for room in rooms:  # each table raked 1: its chips and its escrow agree
        brought, taken = money_flows(room.table)
        assert chips_on_table(room.table) + 1 == brought - taken
        assert account_balance(ledger.table(room.table)) == chips_on_table(room.table)
