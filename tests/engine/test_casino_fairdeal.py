"""The fair deal of a casino round: every card a viewer got, and the
dealer's once turned up, opens at its place against the roots published
before it (reshuffles included), and nobody is given another box's card."""

from __future__ import annotations

import random

from poker.engine.cards import shuffled
from poker.engine.casino import (
    Act,
    Action,
    CasinoRules,
    Deal,
    Entrant,
    begin,
    fairdeal,
    legal_actions,
    play,
    redact,
)
from poker.engine.casino.events import DiscardsReshuffled


def a_round(rng: random.Random, boxes: int = 4, jokers: int = 0) -> list:
    """A whole round where every box changes as many cards as it may."""
    rules = CasinoRules(jokers)
    entrants = tuple(Entrant(str(i + 1), 1_000, 10) for i in range(boxes))
    state, events = begin(Deal(rules, entrants, shuffled(rules.deck), rng.getrandbits(64)))
    while not state.complete:
        legal = legal_actions(state)
        assert legal is not None
        box = state.boxes[legal.box]
        if Action.EXCHANGE in legal.actions:
            most = legal.max_exchange or 1
            act = Act(legal.box, Action.EXCHANGE, box.cards[:most])
        else:
            act = Act(legal.box, Action.PLAY if Action.PLAY in legal.actions else Action.FOLD)
        state, more = play(state, act)
        events += more
    return events


def copy_for(events: list, viewer: int | None) -> tuple[list[dict], list[dict]]:
    """The events and openings a viewer is given (as the server gives them)."""
    trace = fairdeal.trace(events)
    seen = [redact(e, viewer) | trace.commitment(v) for v, e in enumerate(events, start=1)]
    return seen, [o.to_json() for o in trace.openings(viewer)]


def test_every_viewers_cards_open_at_their_places_even_after_a_reshuffle():
    rng = random.Random(7)
    reshuffled = 0
    for _ in range(60):
        events = a_round(rng)
        reshuffled += any(isinstance(e, DiscardsReshuffled) for e in events)
        trace = fairdeal.trace(events)
        for viewer in (None, 0, 1, 2, 3):
            seen, opened = copy_for(events, viewer)
            result = fairdeal.audit(seen, opened, viewer)
            assert result.ok, result.problems
            mine = sum(1 for _, owner, _ in trace.receipts if owner == viewer)
            dealers = sum(1 for _, owner, _ in trace.receipts if owner == fairdeal.DEALER)
            assert result.checked == mine + dealers == len(opened)
    assert reshuffled >= 5  # the runs went through reshuffles


def test_a_viewer_is_given_no_card_of_another_box():
    events = a_round(random.Random(3))
    trace = fairdeal.trace(events)
    for viewer in (None, 0, 1, 2, 3):
        theirs = {
            slot for _, owner, slot in trace.receipts if owner not in (viewer, fairdeal.DEALER)
        }
        _, opened = copy_for(events, viewer)
        assert theirs and not {(o["tree"], o["index"]) for o in opened} & theirs


def test_a_card_put_elsewhere_or_a_forged_root_fails_the_audit():
    events = a_round(random.Random(5))
    seen, opened = copy_for(events, 1)
    dealt = next(e for e in seen if e["type"] == "casino.cards_dealt")
    dealt["hands"][1] = [dealt["hands"][1][1], dealt["hands"][1][0], *dealt["hands"][1][2:]]
    assert not fairdeal.audit(seen, opened, 1).ok
    seen, opened = copy_for(events, 1)
    seen[0]["root"] = "00" * 32
    assert not fairdeal.audit(seen, opened, 1).ok
    seen, opened = copy_for(events, 1)
    assert not fairdeal.audit(seen, opened[1:], 1).ok  # an opening missing
    assert not fairdeal.audit(seen[1:], opened, 1).ok  # no round_started first
    assert fairdeal.audit(seen, opened, 1).ok


def test_the_roots_do_not_give_the_order_away_and_differ_per_round():
    rng = random.Random(11)
    a, b = a_round(rng), a_round(rng)
    ra, rb = fairdeal.trace(a).roots[0], fairdeal.trace(b).roots[0]
    assert ra != rb and len(ra) == 64
    seen, _ = copy_for(a, None)
    assert "deck" not in seen[0] and "seed" not in seen[0] and seen[0]["count"] == 52
