"""What one seat, or a spectator, may see of a hand.

The single gate between the hand's full state and anything that leaves the
server: a player sees his own cards, other players' cards only once shown;
nobody sees the stub, the muck, the deck order or the seed, ever.  Everyone
sees the roots the deck and each reshuffle were committed to, and the
openings (``engine.fairdeal``) of the cards he may see: a player those of
every card he was dealt or drew, everyone those of the cards turned up.
``redact`` does the same for one event, for streams and histories.
"""

from __future__ import annotations

from typing import Any

from poker.engine.betting import Legal, legal_actions
from poker.engine.cards import codes
from poker.engine.codec import to_data
from poker.engine.evaluate import category
from poker.engine.events import (
    CardsDealt,
    CardsDrawn,
    Discarded,
    Event,
    HandStarted,
    MuckReshuffled,
    to_json,
)
from poker.engine.fairdeal import openings
from poker.engine.showdown import pots
from poker.engine.state import HandState

SPECTATOR = None
"""The viewer who holds no seat in the hand."""


def view(state: HandState, viewer: int | None, legal: Legal | None = None) -> dict[str, Any]:
    """The hand as ``viewer`` (a position, or None for a spectator) may see it.

    ``legal``: the menu of the player to act when the table's clock narrows
    the hand's own (``table.clock.legal_at``); by default ``legal_actions``.
    """
    rules = state.rules
    legal = legal_actions(state) if legal is None else legal
    return {
        "game": rules.game.value,
        "betting": rules.betting.value,
        "blinds": [rules.small_blind, rules.big_blind],
        "blind_level": state.blind_level,
        "ante": rules.ante,
        "phase": state.phase.value,
        "round": state.round,
        "draw": state.draw,
        "button": state.button,
        "to_act": state.to_act,
        "current_bet": state.current_bet,
        "pot": state.pot,
        "pots": [{"amount": p.amount, "eligible": list(p.eligible)} for p in pots(state)],
        "players": [_player(state, i, viewer) for i in range(len(state.players))],
        "legal": _legal(legal) if legal is not None and legal.player == viewer else None,
        "parole_by": state.parole_by,
        "showdown_order": list(state.showdown_order),
        "awards": [to_json(a) for a in state.awards],
        "rake": None if state.rake is None else to_data(state.rake),
        "raked": state.raked,
        "roots": list(state.roots),
        "openings": [o.to_json() for o in openings(state, viewer)],
        "version": state.version,
    }


def _player(state: HandState, i: int, viewer: int | None) -> dict[str, Any]:
    p = state.players[i]
    visible = i == viewer or p.shown
    return {
        "position": i,
        "name": p.name,
        "stack": p.stack,
        "bet": p.bet,
        "total": p.total,
        "dead": p.dead,
        "folded": p.folded,
        "all_in": p.all_in,
        "card_count": len(p.cards),
        "cards": codes(p.cards) if visible else None,
        "shown": p.shown,
        "hand_name": _hand_name(state, i),
        "mucked": p.mucked,
        "last_discard_count": p.last_discard_count,
        "no_raise": p.no_raise,
    }


def _hand_name(state: HandState, i: int) -> str | None:
    """The category of a hand turned up at showdown under the game's
    ranking ("flush"; a lowball hand's plain high-hand category); None for
    a hand not shown, which nobody may know anything of."""
    p = state.players[i]
    if not p.shown or len(p.cards) != 5:
        return None
    return category(p.cards, state.variant.ranking).value


def _legal(legal: Any) -> dict[str, Any]:
    out: dict[str, Any] = {"actions": [a.value for a in legal.actions]}
    for key in ("call", "min_bet_to", "max_bet_to", "min_raise_to", "max_raise_to", "max_discard"):
        value = getattr(legal, key)
        if value is not None and (key != "call" or legal.max_discard is None):
            out[key] = value
    return out


def legal_json(state: HandState) -> dict[str, Any] | None:
    """The menu of the player to act, as JSON (None when nobody is to act)."""
    legal = legal_actions(state)
    return None if legal is None else _legal(legal)


def redact(event: Event, viewer: int | None) -> dict[str, Any]:
    """``event`` as JSON with what ``viewer`` may not see left out."""
    data = to_json(event)
    if isinstance(event, HandStarted):
        del data["deck"], data["seed"]
    elif isinstance(event, CardsDealt):
        data["hands"] = [h if i == viewer else None for i, h in enumerate(data["hands"])]
        data["counts"] = [len(h) for h in event.hands]
    elif _hides_cards(event, viewer):
        data["cards"] = None
        data["count"] = len(event.cards)  # type: ignore[union-attr]
    return data


def _hides_cards(event: Event, viewer: int | None) -> bool:
    if isinstance(event, MuckReshuffled):
        return True
    return isinstance(event, CardsDrawn | Discarded) and event.player != viewer
