"""Bounties through the service: a head is paid on the ledger at the bust,
in the command that reports the hand; the pool account holds the prize
pool and the heads not yet won; money is conserved to the end; the API
takes a bounty and names a bad one's field; standings show the heads; a
real hand's pots name who busted whom."""

from __future__ import annotations

import pytest

from accounts.models import Transfer
from poker.engine import hand as engine
from poker.engine.betting import legal_actions
from poker.engine.cards import cards
from poker.engine.commands import Act, Action, Deal
from poker.engine.rules import Betting, Game, Rules
from poker.engine.state import HandState
from tests.tournaments.conftest import CASH
from tests.tournaments.service_support import (
    bust,
    cash,
    create,
    fresh,
    house,
    play_out,
    pool,
    refused,
    register,
    start,
    state,
)
from tests.tournaments.test_api_tournaments import body, post
from tournaments import services
from tournaments.models import Entrant
from tournaments.play import pot_results
from tournaments.rules import Bounty, Knocker, Knockout, PlayerStack, PotResult
from tournaments.rules.bounties import knockouts
from tournaments.selectors import standings

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("pools_paid")]


def test_a_knockout_pays_the_head_on_the_ledger_at_the_bust(director, players, clock):
    ann, bob, cat = players(3)
    t = create(director, bounty=Bounty(50))
    register(t, ann, bob, cat)
    assert cash(ann) == CASH - 160 and pool(t) == 3 * 150 and house() == 30
    start(t, clock)
    bust(t, ann, bob)
    assert cash(bob) == CASH - 160 + 50  # paid now, before the end
    assert pool(t) == 300 + 2 * 50
    bounty = Transfer.objects.filter(kind=Transfer.Kind.PRIZE, ref=f"tournament:{t.pk}")
    assert [tr.pk for tr in bounty] != []
    row = Entrant.objects.get(tournament=t, player=bob)
    assert (row.bounty, row.bounty_won) == (50, 50)
    shown = {s["player"]: (s["bounty"], s["bounty_won"]) for s in standings(state(t))}
    assert shown[ann.pk] == (0, 0) and shown[bob.pk] == (50, 50)


def test_a_pko_plays_out_with_every_unit_accounted_for(director, players, clock):
    field = players(9)
    t = create(director, bounty=Bounty(40, progressive=True, paid_now_percent=50))
    register(t, *field)
    start(t, clock)
    play_out(t, seed=3)
    assert fresh(t).status == "finished"
    assert pool(t) == 0
    assert sum(cash(u) for u in field) + house() == 9 * CASH
    won = sum(Entrant.objects.filter(tournament=t).values_list("bounty_won", flat=True))
    assert won == 9 * 40


def test_no_cancellation_once_a_head_is_paid(director, players, clock):
    ann, bob, cat = players(3)
    t = create(director, bounty=Bounty(50))
    register(t, ann, bob, cat)
    start(t, clock)
    bust(t, ann, bob)
    error = refused(services.tournament_cancel, by=director, tournament_id=t.pk)
    assert error.code == "illegal_action"
    assert fresh(t).status == "running" and cash(bob) == CASH - 160 + 50


def test_the_api_takes_a_bounty_and_shows_it(client_for, director):
    data = body(bounty={"amount": 25, "progressive": True, "paid_now_percent": 40})
    response = post(client_for(director), data)
    assert response.status_code == 201, response.json()
    assert response.json()["bounty"] == {"amount": 25, "progressive": True, "paid_now_percent": 40}


@pytest.mark.parametrize(
    ("bounty", "code", "field"),
    [({"amount": 0}, "invalid", "bounty"),
     ({"amount": 5, "paid_now_percent": 101}, "invalid_definition", "bounty.paid_now_percent"),
     ({"amount": 5, "progressive": "yes"}, "invalid", "bounty")],
)  # fmt: skip
def test_a_bad_bounty_is_a_400_naming_its_field(client_for, director, bounty, code, field):
    response = post(client_for(director), body(bounty=bounty))
    assert response.status_code == 400
    assert response.json()["code"] == code
    assert any(k.startswith(field) for k in response.json()["fields"]), response.json()


def _all_in_hand() -> HandState:
    """A (30 chips, a full house), B (100, seven high) and C (100, a
    straight) all in before the draw, standing pat: A wins the main pot,
    C the side pot A was not in."""
    rules = Rules(Game.FIVE_CARD_DRAW, Betting.NO_LIMIT, 1, 2)
    held = {"A": "Kc Kd Ks 9c 9d", "B": "7c 5d 4c 3s 2d", "C": "As 2c 3d 4s 5c"}
    dealt = {p: cards(h.split()) for p, h in held.items()}
    top = [dealt[p][k] for k in range(5) for p in ("B", "C", "A")]
    deck = tuple(top) + tuple(c for c in rules.variant.deck if c not in set(top))
    players = (("A", 30), ("B", 100), ("C", 100))
    state = engine.replay(engine.start(Deal(rules, players, 0, deck, seed=1)))
    while not state.complete:
        legal = legal_actions(state)
        if Action.SHOW in legal.actions:
            command = Act(legal.player, Action.SHOW)
        elif Action.STAND in legal.actions:
            command = Act(legal.player, Action.STAND)
        elif Action.RAISE in legal.actions:
            command = Act(legal.player, Action.RAISE, legal.max_raise_to)
        else:
            command = Act(legal.player, Action.CALL)
        state, _ = engine.play(state, command)
    return state


def test_a_hands_pots_name_who_busted_whom_and_split_the_head():
    hand = _all_in_hand()
    results = pot_results(hand)
    assert results == (
        PotResult(("A", "B", "C"), {"A": 90}),
        PotResult(("B", "C"), {"C": 140}),
    )
    dealt = (PlayerStack("A", 1, 30), PlayerStack("B", 2, 100), PlayerStack("C", 3, 100))
    stacks = {p.name: p.stack for p in hand.players}
    assert stacks == {"A": 90, "B": 0, "C": 140}
    (busted,) = knockouts(dealt, stacks, results)
    assert busted == Knockout("B", (Knocker("C", 140), Knocker("A", 90)))
