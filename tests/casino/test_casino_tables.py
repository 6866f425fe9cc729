"""Casino tables through the REST API (RULES.md 5): the round's life, the
house's money, refusals, retries, and what each viewer may see."""

from __future__ import annotations

import io
import json
import re
import uuid

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from rest_framework.test import APIClient

from accounts import ledger, locks
from accounts.audit import ledger_audit
from accounts.errors import AccountLocked
from accounts.models import Transfer
from accounts.selectors import account_balance
from casino import streams
from casino.models import CasinoBox, CasinoRound, CasinoTable
from casino.services import casino_bet, casino_sit
from poker.engine.cards import CARD_PATTERN
from tests.casino.support import (
    command,
    money_in_play,
    move,
    ok,
    play_out,
    refused,
    unchanged,
    view_of,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def two(make_user, client_for, open_casino, bankroll):
    """A funded house, a table, and two players sitting in boxes 1 and 2."""
    bankroll()
    table = open_casino()["table"]["id"]
    ann, bob = make_user("ann"), make_user("bob")
    clients = {ann.pk: client_for(ann), bob.pk: client_for(bob)}
    ok(command(clients[ann.pk], table, "sit", box=1))
    ok(command(clients[bob.pk], table, "sit", box=2))
    return table, ann, bob, clients


def test_a_full_round_with_two_players_moves_money_only_between_wallets_and_bankroll(two):
    table, ann, bob, clients = two
    total = money_in_play([ann, bob], [table])
    view = ok(command(clients[ann.pk], table, "bet", amount=10))
    assert view["round"] is None and view["clock"]["kind"] == "bet-window"
    assert account_balance(ledger.cash(ann.pk)) == 10_000 - 90  # the round holds 9 B
    view = ok(command(clients[bob.pk], table, "bet", amount=20))
    assert view["round"]["phase"] == "first-exchange" and view["round"]["to_act"] == 1
    assert view["clock"]["kind"] == "decision" and view["clock"]["box"] == 1
    assert money_in_play([ann, bob], [table]) == total
    mine = view_of(clients[ann.pk], table)
    cards = mine["round"]["boxes"][0]["cards"]
    mine = ok(move(clients[ann.pk], table, mine, "exchange", cards=cards[:2]))
    assert mine["round"]["boxes"][0]["ante"] == 20 and mine["round"]["boxes"][0]["exchanges"] == 1
    end = play_out(clients, table, policy="play")
    assert end["round"]["phase"] == "complete"
    assert all(b["result"] is not None for b in end["round"]["boxes"])
    assert end["round"]["dealer"]["cards"] is not None
    assert money_in_play([ann, bob], [table]) == total
    assert account_balance(ledger.casino(table)) == 0
    settled = Transfer.objects.filter(kind=Transfer.Kind.CASINO_SETTLE)
    assert settled.count() == 2  # one transfer per box
    for box in end["round"]["boxes"]:
        staked = box["ante"] + box["bet"]
        wallet = account_balance(ledger.cash(box["player"]))
        assert wallet == 10_000 - staked + box["won"]
    assert ledger_audit() == []


def test_the_next_round_opens_by_itself(two):
    table, ann, bob, clients = two
    ok(command(clients[ann.pk], table, "bet", amount=10))
    ok(command(clients[bob.pk], table, "bet", amount=10))
    play_out(clients, table)
    view = ok(command(clients[ann.pk], table, "bet", amount=10))
    assert view["round"]["number"] == 1 and view["boxes"][0]["bet"] == 10
    view = ok(command(clients[bob.pk], table, "bet", amount=10))
    assert view["round"]["number"] == 2 and view["round"]["phase"] == "first-exchange"


def test_the_round_waits_for_every_seated_player_who_does_not_sit_out(two):
    table, ann, bob, clients = two
    view = ok(command(clients[ann.pk], table, "bet", amount=10))
    assert view["round"] is None
    assert view["clock"]["kind"] == "bet-window"
    view = ok(command(clients[bob.pk], table, "sit-out"))  # the last one ann waited for
    assert [b["player"] for b in view["round"]["boxes"]] == [ann.pk]
    assert view["round"]["phase"] == "first-exchange"


def test_a_bet_the_bankroll_could_not_cover_is_refused_and_changes_nothing(
    make_user, client_for, open_casino, bankroll
):
    bankroll(6 * 10 * 20 + 30)  # one box of 10 at the top line (1200), not two
    first = open_casino()["table"]["id"]
    second = open_casino(name="Other")["table"]["id"]
    ann, bob = make_user("ann"), make_user("bob")
    a, b = client_for(ann), client_for(bob)
    ok(command(a, first, "sit", box=1))
    ok(command(client_for(make_user("cy")), first, "sit", box=2))  # ann's round waits for him
    ok(command(b, second, "sit", box=1))
    ok(command(a, first, "bet", amount=10))
    with unchanged(second, b):
        body = refused(command(b, second, "bet", amount=10), 409, "bankroll_short")
    assert body["most_bet"] == 0 and "cannot cover any bet" in body["message"]
    ok(command(a, first, "sit-out"))  # ann's bet withdrawn: the cover is free again
    ok(command(b, second, "bet", amount=10))
    assert ledger_audit() == []


def test_a_bet_refused_for_the_bankroll_says_the_largest_bet_it_would_cover(
    make_user, client_for, open_casino, bankroll
):
    bankroll(6 * 10 * 20 + 6 * 15 * 20 + 50)  # ann's box of 10 and one of 15 (plus change)
    table = open_casino()["table"]["id"]
    ann, bob = make_user("ann"), make_user("bob")
    a, b = client_for(ann), client_for(bob)
    ok(command(a, table, "sit", box=1))
    ok(command(b, table, "sit", box=2))
    ok(command(client_for(make_user("cy")), table, "sit", box=3))  # the round waits for him
    ok(command(a, table, "bet", amount=10))
    with unchanged(table, b):
        body = refused(command(b, table, "bet", amount=20), 409, "bankroll_short")
    assert body["most_bet"] == 15
    assert body["message"].endswith("it covers a bet of at most 15.")
    ok(command(b, table, "bet", amount=15))
    assert ledger_audit() == []


def test_staff_fund_the_bankroll_through_the_api(staff, make_user, client_for):
    body = {"amount": 5000, "transfer_id": str(uuid.uuid4())}
    assert ok(client_for(staff).post("/api/casino/bankroll/", body, format="json")) == {
        "balance": 5000,
        "exposure": 0,
    }
    player = client_for(make_user("ann"))
    body = {"amount": 5000, "transfer_id": str(uuid.uuid4())}
    refused(player.post("/api/casino/bankroll/", body, format="json"), 403, "forbidden")
    refused(player.get("/api/casino/bankroll/"), 403, "forbidden")
    assert account_balance(ledger.bankroll()) == 5000
    assert ledger_audit() == []


def test_only_staff_open_and_close_tables(two, client_for):
    table, ann, _bob, clients = two
    refused(
        clients[ann.pk].post("/api/casino/tables/", {"name": "Mine"}, format="json"),
        403,
        "forbidden",
    )
    with unchanged(table):
        refused(command(clients[ann.pk], table, "close"), 403, "forbidden")


def test_closing_between_rounds_gives_every_bet_back(two, staff, client_for):
    table, ann, _bob, clients = two
    ok(command(clients[ann.pk], table, "bet", amount=10))
    view = ok(command(client_for(staff), table, "close"))
    assert view["table"]["status"] == "closed" and view["boxes"] == []
    assert account_balance(ledger.cash(ann.pk)) == 10_000
    assert [t["id"] for t in ok(APIClient().get("/api/casino/tables/"))] == []


def test_sitting_out_between_rounds_withdraws_the_bet(two):
    table, ann, _bob, clients = two
    ok(command(clients[ann.pk], table, "bet", amount=50))
    assert account_balance(ledger.casino(table)) == 450
    view = ok(command(clients[ann.pk], table, "sit-out"))
    assert view["boxes"][0]["sitting_out"] and view["boxes"][0]["bet"] == 0
    assert account_balance(ledger.cash(ann.pk)) == 10_000
    refused(command(clients[ann.pk], table, "bet", amount=10), 409, "illegal_action")


def test_leaving_in_a_round_waits_for_its_end_and_between_rounds_is_at_once(two):
    table, ann, bob, clients = two
    ok(command(clients[ann.pk], table, "bet", amount=10))
    ok(command(clients[bob.pk], table, "bet", amount=10))
    view = ok(command(clients[ann.pk], table, "leave"))
    assert view["boxes"][0]["leaving"] and view["your_box"] == 1
    end = play_out(clients, table, policy="fold")
    assert [b["player"] for b in end["boxes"]] == [bob.pk]
    view = ok(command(clients[bob.pk], table, "leave"))
    assert view["boxes"] == [] and view["your_box"] is None
    assert account_balance(ledger.casino(table)) == 0
    assert ledger_audit() == []


def test_a_retry_with_the_same_command_id_gets_the_first_answer(two):
    table, ann, bob, clients = two
    body = {"amount": 10, "command_id": str(uuid.uuid4())}
    first = ok(clients[ann.pk].post(f"/api/casino/tables/{table}/bet/", body, format="json"))
    ok(command(clients[bob.pk], table, "bet", amount=10))  # the round is dealt meanwhile
    again = ok(clients[ann.pk].post(f"/api/casino/tables/{table}/bet/", body, format="json"))
    assert again["table"] == first["table"] and again["boxes"] == first["boxes"]
    assert again["round"] is None
    assert account_balance(ledger.cash(ann.pk)) == 10_000 - 90  # held once
    other = {**body, "amount": 20}
    refused(
        clients[ann.pk].post(f"/api/casino/tables/{table}/bet/", other, format="json"),
        409,
        "command_id_reused",
    )


def test_refused_commands_change_nothing(two, client_for, make_user):
    table, ann, bob, clients = two
    poor = client_for(make_user("poor", cash=5))
    with unchanged(table, *clients.values()):
        refused(command(clients[ann.pk], table, "bet", amount=5), 400, "bad_amount")
        refused(command(clients[ann.pk], table, "bet", amount=101), 400, "bad_amount")
        refused(command(clients[ann.pk], table, "sit", box=2), 409, "seat_taken")
        refused(command(poor, table, "sit", box=2), 409, "seat_taken")
    ok(command(clients[ann.pk], table, "bet", amount=10))
    view = ok(command(clients[bob.pk], table, "bet", amount=10))
    with unchanged(table, *clients.values()):
        refused(move(clients[bob.pk], table, view, "stand"), 409, "out_of_turn")
        stale = {**view, "round": {**view["round"], "version": view["round"]["version"] - 1}}
        refused(move(clients[ann.pk], table, stale, "stand"), 409, "stale_version")
        refused(move(clients[ann.pk], table, view, "play"), 409, "illegal_action")
        refused(move(clients[ann.pk], table, view, "exchange", cards=["X4"]), 400, "bad_cards")
        refused(move(clients[ann.pk], table, view, "exchange", cards=["Zz"]), 400, "invalid")


def test_a_player_without_the_bet_in_his_wallet_is_refused(make_user, client_for, open_casino):
    table = open_casino()["table"]["id"]
    poor = client_for(make_user("poor", cash=5))
    ok(command(poor, table, "sit", box=1))
    with unchanged(table, poor):
        refused(command(poor, table, "bet", amount=10), 409, "insufficient_funds")


def test_a_round_resumes_exactly_from_its_events_after_a_crash(two):
    table, ann, bob, clients = two
    ok(command(clients[ann.pk], table, "bet", amount=10))
    ok(command(clients[bob.pk], table, "bet", amount=10))
    mine = view_of(clients[ann.pk], table)
    ok(move(clients[ann.pk], table, mine, "exchange", cards=mine["round"]["boxes"][0]["cards"][:3]))
    before = {p: view_of(c, table) for p, c in clients.items()}
    row = CasinoRound.objects.get(table=table, number=1)
    held = streams.rounds.state(row.stream, row.version)  # deck, stub and all
    streams.forget()  # the process died: nothing folded is left
    assert streams.rounds.state(row.stream, row.version) == held
    after = {p: view_of(c, table) for p, c in clients.items()}
    assert after == before
    streams.forget()
    end = play_out(clients, table, policy="play")
    assert end["round"]["phase"] == "complete"
    assert ledger_audit() == []


def test_rebuilding_the_projections_reproduces_the_read_models(two):
    table, ann, bob, clients = two
    ok(command(clients[ann.pk], table, "bet", amount=10))
    ok(command(clients[bob.pk], table, "bet", amount=10))
    play_out(clients, table)
    ok(command(clients[ann.pk], table, "bet", amount=10))
    ok(command(clients[bob.pk], table, "leave"))
    mine = view_of(clients[ann.pk], table)

    def rows():
        return (
            list(CasinoTable.objects.values()),
            list(CasinoBox.objects.values("table", "number", "player", "bet", "held")),
            list(CasinoRound.objects.values()),
        )

    before = rows()
    call_command("rebuild_projections", stdout=io.StringIO())
    assert rows() == before
    assert view_of(clients[ann.pk], table) == mine


def _codes(view: dict) -> set[str]:
    return set(re.findall(r'"(' + CARD_PATTERN.strip("^$") + ')"', json.dumps(view)))


def test_nobody_sees_another_box_or_the_dealer_before_he_turns_them_up(two):
    table, ann, bob, clients = two
    ok(command(clients[ann.pk], table, "bet", amount=10))
    ok(command(clients[bob.pk], table, "bet", amount=10))
    views = {p: view_of(c, table) for p, c in clients.items()}
    spectator = view_of(APIClient(), table)
    anns = set(views[ann.pk]["round"]["boxes"][0]["cards"])
    bobs = set(views[bob.pk]["round"]["boxes"][1]["cards"])
    assert len(anns) == len(bobs) == 5
    assert _codes(spectator) == set()
    assert _codes(views[ann.pk]) == anns and _codes(views[bob.pk]) == bobs
    assert all(v["round"]["dealer"]["cards"] is None for v in (*views.values(), spectator))
    assert views[ann.pk]["round"]["boxes"][1]["cards"] is None
    assert views[ann.pk]["round"]["boxes"][1]["stack"] is None  # follows bob's wallet
    assert views[ann.pk]["boxes"][1]["held"] is None and views[ann.pk]["boxes"][0]["held"] == 90
    assert spectator["round"]["legal"] is None and spectator["your_box"] is None
    end = play_out(clients, table, policy="fold")
    seen = view_of(APIClient(), table)
    dealer = set(seen["round"]["dealer"]["cards"]) | set(seen["round"]["dealer"]["discarded"])
    assert _codes(seen) <= dealer  # folded hands are never shown
    assert end["round"]["dealer"]["cards"] is not None


def test_the_audit_finds_a_round_account_off_its_bets_and_an_uncovered_bankroll(two):
    table, ann, _bob, clients = two
    ok(command(clients[ann.pk], table, "bet", amount=10))
    assert ledger_audit() == []
    stray = ledger.Move(ledger.bankroll(), ledger.casino(table), 7)
    ledger.transfer_post(transfer_id=uuid.uuid4(), kind=Transfer.Kind.DEPOSIT, moves=[stray])
    problems = ledger_audit()
    assert problems == [f"casino table {table}: 90 chips in its bets, account 97"]
    everything = account_balance(ledger.bankroll())
    drain = ledger.Move(ledger.bankroll(), ledger.external(), everything)
    ledger.transfer_post(transfer_id=uuid.uuid4(), kind=Transfer.Kind.WITHDRAWAL, moves=[drain])
    assert ledger_audit()[1:] == ["bankroll 0 does not cover the open boxes' exposure 1200"]


def test_a_locked_player_cannot_sit_or_bet_and_leaves_his_box(two, make_user):
    table, ann, _bob, clients = two
    ok(command(clients[ann.pk], table, "bet", amount=10))
    floor = make_user("flo", role="floor")
    done = locks.account_lock(user=ann, reason="chargeback", by=floor)
    assert done.notes == [f"casino table {table}: leaves"] and done.problems == []
    assert not CasinoBox.objects.filter(table_id=table, player=ann).exists()
    assert account_balance(ledger.cash(ann.pk)) == 10_000  # the bet placed came back
    locked = get_user_model().objects.get(pk=ann.pk)
    for service, more in ((casino_sit, {"box": 3}), (casino_bet, {"amount": 10})):
        with unchanged(table), pytest.raises(AccountLocked):
            service(by=locked, table_id=table, **more)
    assert ledger_audit() == []
