"""A whole cash-table session through the API: players sit, play dozens of
hands of 32 Card Draw, top up, sit out, come back and leave; chips are
conserved across the whole session."""

from __future__ import annotations

import random
import uuid
from typing import Any

from django.db.models import Sum

from accounts import ledger
from accounts.audit import ledger_audit
from accounts.selectors import account_balance
from kernel.models import Event
from poker.models import Seat
from tests.funds import FUNDS
from tests.poker.api_support import random_action
from tests.poker.conftest import act


def command(client: Any, path: str, **body: Any) -> Any:
    body.setdefault("command_id", str(uuid.uuid4()))
    return client.post(path, body, format="json")


def money_flows(table: int) -> tuple[int, int]:
    """Chips brought to the table and taken away, from its own events."""
    brought = taken = 0
    for event in Event.objects.filter(stream=f"table-{table}"):
        if event.type == "table.player_seated":
            brought += event.data["buy_in"]
        elif event.type == "table.topped_up":
            brought += event.data["amount"]
        elif event.type == "table.player_left":
            taken += event.data["cash_out"]
    return brought, taken


def chips_on_table(table: int) -> int:
    totals = Seat.objects.filter(table_id=table).aggregate(s=Sum("stack"))
    return totals["s"] or 0


def wallets_and_table(table: int, users: list[Any]) -> tuple[int, int]:
    """The players' cash plus the table's escrow (constant: chips only move
    between them), and the escrow less the chips on the table and queued
    (zero: the table holds what its escrow says)."""
    cash = sum(account_balance(ledger.cash(u.pk)) for u in users)
    escrow = account_balance(ledger.table(table))
    queued = Seat.objects.filter(table_id=table).aggregate(s=Sum("top_up_queued"))["s"] or 0
    return cash + escrow, escrow - chips_on_table(table) - queued


def between_hands_moves(rng: random.Random, tid: int, clients: dict[int, Any], view: Any) -> None:
    """Somebody tops up, sits out, sits in, leaves or sits down."""
    seated = {s["player"]: s for s in view["seats"]}
    move = rng.choice(["top-up", "sit-out", "sit-in", "leave", "sit", "none", "none"])
    if move == "sit":
        free = [n for n in range(1, 6) if n not in {s["seat"] for s in view["seats"]}]
        idle = [p for p in clients if p not in seated]
        if free and idle:
            who = rng.choice(idle)
            command(
                clients[who],
                f"/api/tables/{tid}/sit/",
                seat=rng.choice(free),
                buy_in=80,
                wait_for_big_blind=rng.random() < 0.5,
            )
        return
    if not seated or move == "none":
        return
    who = rng.choice(list(seated))
    body = {"amount": 20} if move == "top-up" else {}
    command(clients[who], f"/api/tables/{tid}/{move}/", **body)


def test_dozens_of_hands_conserve_chips(open_table, make_user, client_for):
    rng = random.Random(7)
    tid = open_table()["table"]["id"]
    users = [make_user(n) for n in ("ann", "bob", "cy", "dee", "eve", "fay")]
    clients = {u.pk: client_for(u) for u in users}
    for seat, user in enumerate(users[:4], start=1):
        r = command(clients[user.pk], f"/api/tables/{tid}/sit/", seat=seat, buy_in=100)
        assert r.status_code == 200, r.json()
    hands_played: set[str] = set()
    moves = 0
    for _ in range(3000):
        view = client_for(None).get(f"/api/tables/{tid}/").json()
        hand = view["hand"]
        if hand is None or hand["phase"] == "complete" or rng.random() < 0.08:
            between_hands_moves(rng, tid, clients, view)
            moves += 1
            if hand is None or hand["phase"] == "complete":
                continue
        hands_played.add(hand["id"])
        owner = next(s["player"] for s in view["seats"] if s["seat"] == hand["to_act_seat"])
        mine = clients[owner].get(f"/api/tables/{tid}/").json()
        if mine["hand"]["version"] != hand["version"]:
            continue  # a move above changed the hand (a leaving player folded)
        r = act(clients[owner], tid, mine, **random_action(rng, mine["hand"]))
        assert r.status_code == 200, r.json()
        brought, taken = money_flows(tid)
        assert chips_on_table(tid) == brought - taken
        assert wallets_and_table(tid, users) == (len(users) * FUNDS, 0)
        if len(hands_played) >= 40 and moves > 20:
            break
    assert len(hands_played) >= 40
    assert moves > 20
    brought, taken = money_flows(tid)
    assert taken > 0  # somebody left with chips
    assert chips_on_table(tid) == brought - taken
    assert wallets_and_table(tid, users) == (len(users) * FUNDS, 0)
    assert ledger_audit() == []
