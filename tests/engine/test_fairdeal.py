"""A fair deal that leaks nothing: each card position is committed on its
own at the deal (and each reshuffle before anyone draws from it), every
card a player gets opens alone against the root published before it, and
nobody is given the opening of a card he did not hold or see shown."""

from __future__ import annotations

import hashlib
import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from poker.engine import merkle
from poker.engine.events import (
    CardsDealt,
    CardsDrawn,
    Commitment,
    Event,
    HandStarted,
    MuckReshuffled,
)
from poker.engine.fairdeal import Opening, audit, commit, event_openings, openings, salt
from poker.engine.script import _play
from poker.engine.state import HandState
from poker.engine.view import redact, view

SCRIPTS = Path(__file__).parent / "scripts"
RESHUFFLE = json.loads((SCRIPTS / "reshuffle-never-returns-own-discards.json").read_text())
"""Five players, 32 Card Draw: the stub runs out in the draw and D draws
from a reshuffle of B's and C's discards; E shows, the others fold or muck."""


def played(seed: int = 2**127 + 12345) -> tuple[HandState, list[Event]]:
    state, events, _ = _play({**RESHUFFLE, "seed": seed})
    return state, events


def history(events: list[Event], viewer: int | None) -> list[dict[str, Any]]:
    """The events as the API shows them to ``viewer``."""
    return [redact(e, viewer) for e in events]


def given(state: HandState, viewer: int | None) -> list[dict[str, Any]]:
    return [o.to_json() for o in openings(state, viewer)]


# --------------------------------------------------------------------------
# The tree (RFC 9162)


@pytest.mark.parametrize("size", [1, 2, 3, 5, 8, 13, 32, 33, 54])
def test_every_leaf_of_a_tree_of_any_size_proves_against_its_root(size: int) -> None:
    leaves = [merkle.leaf_hash(bytes([k])) for k in range(size)]
    top = merkle.root(leaves)
    for k in range(size):
        path = merkle.audit_path(leaves, k)
        assert merkle.verify(leaves[k], k, size, path, top)
        assert not merkle.verify(leaves[k], (k + 1) % size, size, path, top) or size == 1
        assert not merkle.verify(merkle.leaf_hash(b"other"), k, size, path, top)


def test_a_tree_is_the_rfc_9162_tree() -> None:
    # MTH of three leaves: node(node(l0, l1), l2), with the 0x00/0x01 prefixes.
    d = [b"a", b"b", b"c"]
    h = [hashlib.sha256(b"\x00" + x).digest() for x in d]
    ab = hashlib.sha256(b"\x01" + h[0] + h[1]).digest()
    assert merkle.root(h) == hashlib.sha256(b"\x01" + ab + h[2]).digest()
    assert merkle.audit_path(h, 2) == (ab,)


# --------------------------------------------------------------------------
# Committing


def test_the_deal_publishes_the_root_of_the_salted_deck() -> None:
    state, events = played()
    started = events[0]
    assert isinstance(started, HandStarted)
    assert started.root == commit(started.deck, started.seed, 0) == state.roots[0]
    public = redact(started, None)
    assert public["root"] == started.root and public["commitment"] == "merkle"
    assert "deck" not in public and "seed" not in public


def test_salts_differ_by_tree_position_and_seed() -> None:
    salts = {salt(seed, tree, k) for seed in (1, 2) for tree in (0, 1) for k in range(32)}
    assert len(salts) == 2 * 2 * 32 and all(len(s) == 32 for s in salts)


def test_a_reshuffle_is_committed_before_any_card_of_it_is_drawn() -> None:
    state, events = played()
    (k,) = [i for i, e in enumerate(events) if isinstance(e, MuckReshuffled)]
    reshuffle = events[k]
    assert isinstance(reshuffle, MuckReshuffled)
    assert reshuffle.root == commit(reshuffle.cards, state.seed, 1) == state.roots[1]
    drawn = events[k + 1]
    assert isinstance(drawn, CardsDrawn) and set(drawn.cards) <= set(reshuffle.cards)
    assert not any(  # no card of the reshuffle was drawn before its root
        isinstance(e, CardsDrawn) and set(e.cards) & set(reshuffle.cards) and e is not drawn
        for e in events[:k]
    )
    public = redact(reshuffle, None)
    assert public["cards"] is None and public["root"] == reshuffle.root
    # D's replacement opens at the top of tree 1, against that root.
    d = drawn.player
    (mine,) = event_openings(state, k + 2, drawn, d)
    assert (mine.tree, mine.index, mine.card) == (1, 0, drawn.cards[0])
    assert mine.proves(state.roots[1], len(reshuffle.cards))


# --------------------------------------------------------------------------
# Who gets which opening


def test_each_player_opens_every_card_he_got_and_each_card_shown() -> None:
    state, events = played()
    shown = {c for p in state.players if p.shown for c in p.cards}
    (dealt,) = [e for e in events if isinstance(e, CardsDealt)]
    for viewer in range(len(state.players)):
        got = set(dealt.hands[viewer])
        got |= {
            c for e in events if isinstance(e, CardsDrawn) and e.player == viewer for c in e.cards
        }
        opened = {o.card for o in openings(state, viewer)}
        assert opened == got | shown


def test_a_spectator_opens_only_the_cards_shown() -> None:
    state, _ = played()
    shown = {c for p in state.players if p.shown for c in p.cards}
    assert shown and {o.card for o in openings(state, None)} == shown


def test_no_viewer_gets_a_salt_of_a_card_he_did_not_hold_or_see_shown() -> None:
    state, events = played()
    every = {
        (t, k): salt(state.seed, t, k).hex()
        for t, tree in enumerate(state.trees)
        for k in range(len(tree))
    }
    for viewer in (None, *range(len(state.players))):
        text = json.dumps([history(events, viewer), view(state, viewer)])
        allowed = {
            every[(r.tree, r.position)]
            for r in state.receipts
            if r.player == viewer
            or (
                state.players[r.player].shown
                and state.trees[r.tree][r.position] in state.players[r.player].cards
            )
        }
        leaked = {s for s in every.values() if s in text} - allowed
        assert not leaked, viewer
        assert str(state.seed) not in text


# --------------------------------------------------------------------------
# Checking


def test_every_player_s_own_copy_of_the_hand_checks_out() -> None:
    state, events = played()
    for viewer in (None, *range(len(state.players))):
        result = audit(history(events, viewer), given(state, viewer), viewer)
        assert result.ok, (viewer, result.problems)
    # D: five dealt, one drawn, and the five cards of each hand shown.
    shown = sum(p.shown for p in state.players)
    assert audit(history(events, 3), given(state, 3), 3).checked == 5 + 1 + 5 * shown


def _tampered(state: HandState, viewer: int, change: dict[str, Any]) -> list[dict[str, Any]]:
    mine = given(state, viewer)
    mine[0] = {**mine[0], **change}
    return mine


@pytest.mark.parametrize(
    "change",
    [
        {"card": "7s"},
        {"salt": "00" * 32},
        {"path": ["00" * 32]},
        {"index": 31},
    ],
    ids=["card", "salt", "proof", "index"],
)
def test_a_tampered_opening_fails_the_check(change: dict[str, Any]) -> None:
    state, events = played()
    viewer = 1
    first = given(state, viewer)[0]
    if change.get("card") == first["card"]:
        change = {"card": "7d"}
    result = audit(history(events, viewer), _tampered(state, viewer, change), viewer)
    assert not result.ok


def test_a_card_dealt_but_not_opened_fails_the_check() -> None:
    state, events = played()
    assert not audit(history(events, 0), given(state, 0)[1:], 0).ok


def test_a_card_opened_at_a_place_the_deal_order_did_not_give_fails() -> None:
    # A valid opening of someone else's card does not stand for one's own.
    state, events = played()
    other = openings(state, 1)
    own = history(events, 0)
    dealt = next(e for e in own if e["type"] == "hand.cards_dealt")
    dealt["hands"][0] = [str(o.card) for o in other[:5]]
    assert not audit(own, [o.to_json() for o in other], 0).ok


def test_a_root_changed_after_the_deal_fails_the_check() -> None:
    state, events = played()
    own = history(events, 2)
    own[0]["root"] = commit(tuple(reversed(state.deck)), state.seed, 0)
    assert not audit(own, given(state, 2), 2).ok


def test_an_opening_round_trips_through_json() -> None:
    state, _ = played()
    for o in openings(state, 0):
        assert Opening.from_json(json.loads(json.dumps(o.to_json()))) == o
    with pytest.raises(ValueError):
        Opening.from_json({"tree": "0", "index": 1, "card": "Ah", "salt": "", "path": []})


def test_a_hand_dealt_before_per_card_commitments_opens_nothing() -> None:
    state, events = played()
    old = replace(events[0], commitment=Commitment.DECK_HASH)  # type: ignore[type-var]
    assert openings(replace(state, commitment=Commitment.DECK_HASH), 0) == []
    result = audit(history([old, *events[1:]], 0), [], 0)
    assert not result.ok and "before" in result.problems[0]
