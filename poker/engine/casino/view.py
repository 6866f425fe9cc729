"""What one box, or a spectator, may see of a casino round.

The single gate between the round's full state and anything that leaves
the server: a box sees its own cards; nobody sees another box's cards, the
stub, the muck, the deck order or the seed; the dealer's cards are seen by
all once he turns them up.  A box's final hand is public once it is settled
against the dealer (a folded hand is never shown).  ``redact`` does the
same for one event, for streams and histories.
"""

from __future__ import annotations

from typing import Any

from poker.engine.cards import codes
from poker.engine.casino.decide import Legal, legal_actions
from poker.engine.casino.events import (
    BoxSettled,
    CardsDealt,
    CardsDrawn,
    CasinoEvent,
    DiscardsReshuffled,
    Exchanged,
    RoundStarted,
    to_json,
)
from poker.engine.casino.paytable import hand_of
from poker.engine.casino.rules import GAME
from poker.engine.casino.settle import Result, qualifies
from poker.engine.casino.state import Box, CasinoState
from poker.engine.evaluate import rank_joker_high

SPECTATOR = None
"""The viewer who holds no box in the round."""


def view(state: CasinoState, viewer: int | None) -> dict[str, Any]:
    """The round as ``viewer`` (a box position, or None) may see it."""
    legal = legal_actions(state)
    return {
        "game": GAME,
        "jokers": state.rules.jokers,
        "pay_table": state.rules.pay_table.to_json(),
        "phase": state.phase.value,
        "to_act": state.to_act,
        "boxes": [_box(b, i == viewer) for i, b in enumerate(state.boxes)],
        "dealer": _dealer(state),
        "legal": legal_json(legal) if legal is not None and legal.box == viewer else None,
        "version": state.version,
    }


def _box(box: Box, own: bool) -> dict[str, Any]:
    hand: str | None = None
    if own and box.cards:
        hand = hand_of(rank_joker_high(box.cards)).value
    elif box.hand is not None and box.result is not Result.FOLD:
        hand = box.hand.value
    return {
        "name": box.name,
        "stack": box.stack,
        "original": box.original,
        "ante": box.ante,
        "bet": box.bet,
        "exchanges": box.exchanges,
        "folded": box.folded,
        "card_count": len(box.cards),
        "cards": codes(box.cards) if own else None,
        "hand": hand,
        "result": None if box.result is None else box.result.value,
        "won": box.won if box.result is not None else None,
    }


def _dealer(state: CasinoState) -> dict[str, Any]:
    if not state.dealer_shown:
        hidden = {"cards": None, "discarded": None, "hand": None, "qualifies": None}
        return {"card_count": len(state.dealer), **hidden}
    value = rank_joker_high(state.dealer)
    return {
        "card_count": len(state.dealer),
        "cards": codes(state.dealer),
        "discarded": codes(state.dealer_discarded),
        "hand": hand_of(value).value,
        "qualifies": qualifies(value),
    }


def legal_json(legal: Legal | None) -> dict[str, Any] | None:
    """A menu as JSON: ``actions``, ``stake`` and, in an exchange, ``max_exchange``."""
    if legal is None:
        return None
    out: dict[str, Any] = {"actions": [a.value for a in legal.actions], "stake": legal.stake}
    if legal.max_exchange is not None:
        out["max_exchange"] = legal.max_exchange
    return out


def redact(event: CasinoEvent, viewer: int | None) -> dict[str, Any]:
    """``event`` as JSON with what ``viewer`` may not see left out."""
    data = to_json(event)
    if isinstance(event, RoundStarted):
        del data["deck"], data["seed"]
    elif isinstance(event, CardsDealt):
        data["hands"] = [h if i == viewer else None for i, h in enumerate(data["hands"])]
        data["counts"] = [len(h) for h in event.hands]
        data["dealer"] = None
    elif isinstance(event, DiscardsReshuffled) or (
        isinstance(event, Exchanged | CardsDrawn) and event.box != viewer
    ):
        data["cards"] = None
        data["count"] = len(event.cards)
    elif isinstance(event, BoxSettled) and event.result is Result.FOLD and event.box != viewer:
        data["hand"] = None
    return data
