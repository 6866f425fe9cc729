"""The rake in the reports, from real raked hands played through the API
(RULES.md 8): the income report's ``rake`` rows are the rake account's
entries, the tables report's ``house`` the rake taken at the table, and
each player's ``rake_paid`` his "contributed" part of it (``reports.rake``),
the parts adding up to the rake."""

from __future__ import annotations

import csv
import io
import random
from collections import defaultdict
from dataclasses import replace
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from accounts.models import Account, Transfer
from kernel.eventstore import load
from kernel.models import Event
from poker import services as tables
from poker.engine.pots import build_pots
from poker.engine.script import _play
from poker.engine.showdown import pots
from poker.models import Hand
from reports.rake import hand_rake, pot_contributions, share_out
from tests.config.contract_support import served_schema
from tests.poker.api_support import Room, action_body, ok, post
from tests.reports.support import around_today, entries, report

pytestmark = [pytest.mark.django_db, pytest.mark.postgres]

RAKE = {"rake_basis_points": 2500, "rake_cap": 10, "rake_min_pot": 4}
"""25 %, at most 10 chips a hand, from pots of 4."""
CALL_DOWN = ("check", "call", "stand", "show")
"""How a hand is played to its showdown after the draw."""


@pytest.fixture
def room(make_user, client_for, db) -> Room:
    """A raked five-card-draw table (blinds 1/2) where ann, bob and cat sit
    down: the hands before all three are dealt in on their blinds alone
    end before the draw (not raked); the last is such a hand, running."""
    boss = make_user("boss", cash=0, staff=True)
    table = tables.table_create(
        by=boss, name="Raked", game="five-card-draw", betting="no-limit",
        small_blind=1, big_blind=2, **RAKE,
    ).pk  # fmt: skip
    room = Room(table)
    room.users["boss"] = boss
    room.clients[boss.pk] = client_for(boss)
    for seat, name in enumerate(("ann", "bob", "cat"), start=1):
        room.users[name] = user = make_user(name)
        room.clients[user.pk] = client_for(user)
        tables.seat_sit(by=user, table_id=table, seat=seat, buy_in=200)
    for _ in range(6):
        events = Event.objects.filter(stream=f"hand-{room.view()['hand']['id']}")
        posts = sorted(e.data["amount"] for e in events.filter(type="hand.blind_posted"))
        if len(events.get(version=1).data["players"]) == 3 and posts == [1, 2]:
            break
        fold_out(room)
    else:
        raise AssertionError("cat was never dealt in on the blinds alone")
    assert not rake_entries()  # no draw, no drop
    return room


def fold_out(room: Room) -> None:
    """The running hand ended before the draw: everyone folds who may."""
    start = room.view()["hand"]
    while True:
        hand = room.view()["hand"]
        if hand is None or hand["id"] != start["id"] or hand["phase"] == "complete":
            assert not raked_in(start["id"])
            return
        _, client, mine = room.to_act()
        legal = mine["hand"]["legal"]["actions"]
        action = next(a for a in ("fold", "check", "stand", "show") if a in legal)
        ok(post(client, f"/api/tables/{room.table}/actions/", action_body(mine, action)))


def play(room: Room, script: list[tuple[str, dict[str, Any]]]) -> dict[str, Any]:
    """The running hand played to its end: the first turns as ``script``
    says, then called down to the showdown; the hand's view, each of its
    actions' players' names under ``"by"``."""
    start = room.view()["hand"]
    turns = list(script)
    by: list[str] = []
    while True:
        hand = room.view()["hand"]
        if hand is None or hand["id"] != start["id"] or hand["phase"] == "complete":
            return {**start, "by": by}
        name, client, mine = room.to_act()
        if turns:
            action, more = turns.pop(0)
        else:
            action = next(a for a in CALL_DOWN if a in mine["hand"]["legal"]["actions"])
            more = {}
        by.append(name)
        ok(post(client, f"/api/tables/{room.table}/actions/", action_body(mine, action, **more)))


def raked_in(hand_id: str) -> int:
    """The chips ``hand.raked`` took from the hand (0: none)."""
    raked = Event.objects.filter(stream=f"hand-{hand_id}", type="hand.raked")
    return sum(e.data["amount"] for e in raked)


def rake_entries() -> list[Any]:
    return entries(account__kind=Account.Kind.RAKE, transfer__kind=Transfer.Kind.RAKE)


def name_of(room: Room, pk: int) -> str:
    return next(n for n, u in room.users.items() if u.pk == pk)


def paid(room: Room) -> dict[str, int]:
    rows = report(room.clients[room.users["boss"].pk], "players")
    return {r["username"]: r["rake_paid"] for r in rows}


def test_a_pots_rake_is_shared_by_the_chips_each_player_put_in(room):
    """Three-handed: the first to act raises to 10, the next calls, the big
    blind folds his 2; after the draw both check it down.  The pot of 22
    is raked 25 %: 5 chips.  In proportion, 5 x 10/22 = 2.27 each for the
    two who put in 10 and 5 x 2/22 = 0.45 for the big blind: 2, 2 and 0
    rounded down, and the chip left over to the largest remainder (0.45),
    the big blind's."""
    hand = play(room, [("raise", {"amount": 10}), ("call", {}), ("fold", {})])
    raiser, caller, folder = hand["by"][:3]
    assert len({raiser, caller, folder}) == 3
    assert raked_in(hand["id"]) == 5
    events = Event.objects.filter(stream=f"hand-{hand['id']}")
    names = [p["name"] for p in events.get(version=1).data["players"]]
    position = names.index(str(room.users[folder].pk))
    [blind] = events.filter(type="hand.blind_posted", data__player=position)
    assert blind.data["amount"] == 2  # the big blind folded
    assert paid(room) == {"ann": 0, "bob": 0, "cat": 0} | {raiser: 2, caller: 2, folder: 1}
    assert sum(e.amount for e in rake_entries()) == 5


def test_the_reports_rake_is_the_ledgers(room):
    """Hands called down, raised and folded, some raked, one not: the
    income report's ``rake`` rows are the rake account's entries by day and
    table, the tables report's ``house`` the rake taken at the table, and
    the players' ``rake_paid`` add up to it."""
    rng = random.Random(15)
    for _ in range(6):
        if rng.random() < 0.5:
            play(room, [("raise", {"amount": rng.randint(4, 20)}), ("call", {})])
        else:
            play(room, [])
    fold_out(room)  # to the big blind before the draw: not raked
    boss = room.clients[room.users["boss"].pk]
    ledger = rake_entries()
    taken = sum(e.amount for e in ledger)
    hands = Hand.objects.filter(table_id=room.table)
    assert taken == sum(raked_in(h.pk) for h in hands) > 0
    assert len(ledger) == sum(1 for h in hands if raked_in(h.pk)) < hands.count()

    by_day: dict[tuple[str, int], int] = defaultdict(int)
    for e in ledger:
        assert e.transfer.ref.startswith(f"table-{room.table}@")
        by_day[(str(e.transfer.created_at.date()), room.table)] += e.amount
    income = [r for r in report(boss, "income") if r["source"] == "rake"]
    assert {(r["day"], r["subject_id"]): r["amount"] for r in income} == dict(by_day)
    assert {(r["subject"], r["name"], r["game"]) for r in income} == {
        ("table", "Raked", "five-card-draw")
    }
    assert sum(r["transfers"] for r in income) == len(ledger)

    [row] = report(boss, "tables")
    assert (row["game"], row["kind"], row["house"]) == ("five-card-draw", "cash", taken)

    assert sum(paid(room).values()) == taken


def test_the_players_rake_paid_is_the_same_in_csv(room):
    play(room, [("raise", {"amount": 10}), ("call", {}), ("fold", {})])
    play(room, [])
    boss = room.clients[room.users["boss"].pk]
    rows = report(boss, "players")
    got = boss.get("/api/reports/players/", {**around_today(), "format": "csv"})
    assert got.status_code == 200
    header, *lines = list(csv.reader(io.StringIO(got.content.decode())))
    assert "rake_paid" in header
    column = header.index("rake_paid")
    assert [int(line[column]) for line in lines] == [r["rake_paid"] for r in rows]
    assert sum(r["rake_paid"] for r in rows) == sum(e.amount for e in rake_entries()) > 5


def test_rake_paid_costs_the_same_queries_however_many_raked_hands(room):
    boss = room.clients[room.users["boss"].pk]

    def queries() -> int:
        with CaptureQueriesContext(connection) as captured:
            report(boss, "players")
        return len(captured)

    play(room, [])
    before = queries()
    for _ in range(3):
        play(room, [("raise", {"amount": 6}), ("call", {})])
    assert queries() == before
    assert len(rake_entries()) == 4


def test_a_period_without_the_hands_has_no_rake_paid(room):
    play(room, [])
    boss = room.clients[room.users["boss"].pk]
    rows = report(boss, "players", **{"from": "2020-01-01", "to": "2020-01-31"})
    assert rows == []
    assert sum(paid(room).values()) == sum(e.amount for e in rake_entries()) > 0


def test_the_schema_declares_rake_paid_as_the_rows_carry_it(room):
    """The players' rows as the OpenAPI schema types them (``PlayersRow``):
    ``rake_paid`` a required whole number of chips, at least 0."""
    play(room, [("raise", {"amount": 10}), ("call", {}), ("fold", {})])
    row = served_schema()["components"]["schemas"]["PlayersRow"]
    assert row["properties"]["rake_paid"]["type"] == "integer"
    assert row["properties"]["rake_paid"]["minimum"] == 0
    assert "rake_paid" in row["required"]
    rows = report(room.clients[room.users["boss"].pk], "players")
    assert all(list(r) == list(row["properties"]) for r in rows)
    assert sorted(r["rake_paid"] for r in rows) == [1, 2, 2]


# --------------------------------------------------------------------------
# The sharing itself, without a table


@pytest.mark.parametrize(
    ("amount", "weights", "order", "shares"),
    [
        (5, [10, 10, 2], [0, 1, 2], [2, 2, 1]),  # the test above's pot
        (1, [2, 2, 2], [2, 0, 1], [0, 1, 0]),  # a tie: the seat first left of the button
        (1, [2, 2, 2], [0, 1, 2], [1, 0, 0]),
        (3, [1, 0, 4], [0, 1, 2], [1, 0, 2]),  # 0.6 and 2.4: the larger remainder first
        (0, [3, 3], [0, 1], [0, 0]),
        (7, [7], [0], [7]),
    ],
)
def test_shares_are_whole_chips_that_add_up(amount, weights, order, shares):
    assert share_out(amount, weights, order) == shares
    assert sum(shares) == amount


def test_shares_add_up_whatever_the_weights():
    rng = random.Random(3)
    for _ in range(500):
        n = rng.randint(1, 9)
        weights = [rng.choice([0, rng.randint(1, 500)]) for _ in range(n)]
        weights[rng.randrange(n)] += 1
        amount = rng.randint(0, sum(weights))
        order = rng.sample(range(n), n)
        shares = share_out(amount, weights, order)
        assert sum(shares) == amount
        for share, weight in zip(shares, weights, strict=True):
            exact = amount * weight / sum(weights)
            assert exact - 1 < share < exact + 1 and (share == 0 or weight > 0)


def test_the_pots_contributions_are_the_engines_pots():
    """The layers ``reports.rake`` shares out are the pots the engine
    rakes: the same amounts, whoever folded and whatever dead money."""
    state = _a_state()
    rng = random.Random(8)
    for _ in range(300):
        n = len(state.players)
        players = tuple(
            replace(p, total=rng.choice([0, 2, 5, 5, 9, rng.randint(0, 40)]),
                    dead=rng.choice([0, 0, 1]), folded=rng.random() < 0.4)
            for p in state.players
        )  # fmt: skip
        if all(p.folded for p in players):
            players = (replace(players[0], folded=False), *players[1:])
        state = replace(state, players=players)
        got = [sum(layer) for layer in pot_contributions(state)]
        assert got == [p.amount for p in pots(state)]
        totals = [p.total for p in players]
        contesting = [i for i in range(n) if not players[i].folded]
        dead = sum(p.dead for p in players)
        assert got == [p.amount for p in build_pots(totals, contesting, dead)]


def _a_state() -> Any:
    """Four players dealt a hand (whose chips the test then sets)."""
    hand = {"game": "five-card-draw", "betting": "no-limit", "blinds": [1, 2],
            "players": [[n, 100] for n in "abcd"], "button": "a", "seed": 1}  # fmt: skip
    return _play(hand)[0]


def test_a_hand_not_raked_is_paid_by_nobody(room):
    play(room, [])
    running, called, folded = Hand.objects.filter(table_id=room.table).order_by("-number")[:3]
    assert hand_rake(load(folded.stream)) == {}  # ended before the draw
    shares = hand_rake(load(called.stream))
    assert sum(shares.values()) == raked_in(called.pk) == 1  # 25 % of 6
    assert running.ended_at is None
