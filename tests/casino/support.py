"""Helpers for the casino tests: commands through the API, what must not
change on a refusal, where all the money is, and a configuration's
house-edge figures stored."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from rest_framework.test import APIClient

from accounts import ledger
from accounts.models import Account, Transfer
from accounts.selectors import account_balance
from kernel.models import Command, Event
from poker.casino.edge import casino_math_store
from poker.casino.models import CasinoBox, CasinoMath, CasinoRound, CasinoTable
from poker.engine.casino import CasinoRules, PayTable
from poker.engine.casino.edge import EdgeFigures, rules_digest, settings_json
from poker.engine.casino.report import SEED, settings_of
from poker.engine.casino.solve import largest_payout


def command(client: APIClient, table: int, name: str, **body: Any) -> Any:
    """A table command (sit, bet, leave, sit-out, sit-in, close) with a fresh id."""
    body.setdefault("command_id", str(uuid.uuid4()))
    return client.post(f"/api/casino/tables/{table}/{name}/", body, format="json")


def move(client: APIClient, table: int, view: dict[str, Any], name: str, **more: Any) -> Any:
    """A move in the round (exchange, stand, play, fold) at the version ``view`` shows."""
    body = {
        "round": view["round"]["id"],
        "version": view["round"]["version"],
        "command_id": str(uuid.uuid4()),
        **more,
    }
    return client.post(f"/api/casino/tables/{table}/{name}/", body, format="json")


def view_of(client: APIClient, table: int) -> dict[str, Any]:
    response = client.get(f"/api/casino/tables/{table}/")
    assert response.status_code == 200, response.content
    return response.json()


def ok(response: Any, status: int = 200) -> Any:
    assert response.status_code == status, (response.status_code, response.content[:500])
    return response.json()


def refused(response: Any, status: int, code: str) -> dict[str, Any]:
    assert response.status_code == status, (response.status_code, response.content[:500])
    body = response.json()
    assert body["code"] == code, body
    assert isinstance(body["message"], str) and body["message"], body
    return body


def money_in_play(players: list[Any], tables: list[int]) -> int:
    """Wallets + bankroll + what the tables' rounds hold: constant while
    nobody deposits, withdraws or funds the bankroll."""
    wallets = sum(account_balance(ledger.cash(p.pk)) for p in players)
    rounds = sum(account_balance(ledger.casino(t)) for t in tables)
    return wallets + rounds + account_balance(ledger.bankroll())


def snapshot(table: int, clients: tuple[APIClient, ...] = ()) -> dict[str, Any]:
    """Everything a refused command must leave as it was."""
    return {
        "events": Event.objects.count(),
        "commands": Command.objects.count(),
        "tables": list(CasinoTable.objects.order_by("id").values()),
        "boxes": list(CasinoBox.objects.order_by("id").values()),
        "rounds": list(CasinoRound.objects.order_by("id").values()),
        "transfers": Transfer.objects.count(),
        "balances": list(Account.objects.order_by("id").values_list("key", "balance")),
        "views": [view_of(c, table) for c in (APIClient(), *clients)],
    }


@contextmanager
def unchanged(table: int, *clients: APIClient) -> Iterator[None]:
    before = snapshot(table, clients)
    yield
    assert snapshot(table, clients) == before


def play_out(clients: dict[int, APIClient], table: int, policy: str = "stand") -> dict[str, Any]:
    """Play the running round to its end: each box to act stands in the
    exchanges and plays (or folds, ``policy="fold"``) in the decision;
    the final view."""
    anyone = next(iter(clients.values()))
    for _ in range(40):
        view = view_of(anyone, table)
        current = view["round"]
        if current is None or current["phase"] == "complete":
            return view
        player = current["boxes"][[b["box"] for b in current["boxes"]].index(current["to_act"])]
        client = clients[player["player"]]
        mine = view_of(client, table)
        legal = mine["round"]["legal"]["actions"]
        name = "stand" if "stand" in legal else policy if policy in legal else "fold"
        ok(move(client, table, mine, name))
    raise AssertionError("the round did not end")


def store_figures(
    *, jokers: int = 2, pay_table: dict[str, int] | None = None, model_edge: float, low: float
) -> CasinoMath:
    """Store figures for a configuration as ``manage.py casino_math --store``
    would, with the edges given (a solve takes minutes)."""
    rules = CasinoRules(jokers, PayTable.from_json(pay_table or {}))
    settings = settings_of(rules)
    simulated = low + 0.01
    figures = EdgeFigures(
        digest=rules_digest(rules),
        **settings_json(settings),
        model_edge=model_edge,
        simulated_edge=simulated,
        simulated_low=low,
        simulated_high=simulated + 0.01,
        rounds=1_000_000,
        dealer_samples=400_000,
        seed=SEED,
        largest_payout=largest_payout(settings, 1),
        strategy_card=("Play with a pair of 2s or better; fold anything less.",),
    )
    return casino_math_store(figures=figures)
