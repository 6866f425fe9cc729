"""Hand scripts of Casino Draw Poker (``"game": "casino-draw"``).

``poker.engine.script`` hands a script of this game here; the format is
docs/hand-scripts.md's casino section.  ``run`` returns the output object:
the settled boxes and the dealer, or the state of a round the script left
unfinished, or the first refusal.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from poker.engine.cards import CardError, cards, codes
from poker.engine.casino.commands import Act, Action, Deal, Entrant
from poker.engine.casino.decide import begin, legal_actions, play
from poker.engine.casino.events import CasinoEvent, to_json
from poker.engine.casino.paytable import PayTable, hand_of
from poker.engine.casino.rules import CasinoRules
from poker.engine.casino.settle import qualifies
from poker.engine.casino.state import CasinoState
from poker.engine.casino.view import legal_json
from poker.engine.errors import EngineError, Malformed
from poker.engine.evaluate import rank_joker_high
from poker.engine.script_input import ScriptError, action_head, script_deck, whole


def run(script: Mapping[str, Any]) -> dict[str, Any]:
    """Play ``script`` and return the output object."""
    try:
        state, events, names = _play(script)
    except ScriptError as exc:
        error = {"index": exc.index, "code": exc.error.code.value, "message": exc.error.message}
        return {"ok": False, "error": error}
    return _result(state, events, names)


def _play(script: Mapping[str, Any]) -> tuple[CasinoState, list[CasinoEvent], list[str]]:
    try:
        deal = _deal(script)
        state, events = begin(deal)
    except EngineError as exc:
        raise ScriptError(None, exc) from exc
    except (KeyError, TypeError, ValueError, CardError) as exc:
        raise ScriptError(None, Malformed(f"bad script: {exc}")) from exc
    names = [box.name for box in deal.boxes]
    actions = script.get("actions", [])
    if not isinstance(actions, list):
        raise ScriptError(None, Malformed("actions must be a list"))
    for index, raw in enumerate(actions):
        try:
            state, more = play(state, _command(raw, names))
        except EngineError as exc:
            raise ScriptError(index, exc) from exc
        events += more
    return state, events, names


def _deal(script: Mapping[str, Any]) -> Deal:
    table = script.get("pay_table", {})
    if not isinstance(table, dict):
        raise Malformed("pay_table must be an object of hand names to payouts")
    rules = CasinoRules(jokers=whole(script.get("jokers", 2)), pay_table=PayTable.from_json(table))
    boxes = []
    for entry in script["players"]:
        if not isinstance(entry, list) or len(entry) not in (2, 3):
            raise Malformed(f"a player is [name, stack, bet?], not {entry!r}")
        name, stack, *own = entry
        original = own[0] if own else script.get("bet")
        boxes.append(Entrant(str(name), whole(stack), whole(original)))
    deck, seed = script_deck(script, rules.deck)
    return Deal(rules, tuple(boxes), deck, seed)


def _command(raw: Any, names: list[str]) -> Act:
    box, action, rest = action_head(raw, names, Action)
    if action is not Action.EXCHANGE:
        return Act(box, action)
    thrown = rest[0] if rest else None
    if not isinstance(thrown, list):
        raise Malformed("exchange needs a list of cards")
    try:
        return Act(box, action, cards([str(c) for c in thrown]))
    except CardError as exc:
        raise Malformed(str(exc)) from exc


def _result(state: CasinoState, events: list[CasinoEvent], names: list[str]) -> dict[str, Any]:
    out: dict[str, Any] = {
        "ok": True,
        "complete": state.complete,
        "stacks": {box.name: box.stack for box in state.boxes},
    }
    if state.complete:
        out["boxes"] = {
            box.name: {
                "ante": box.ante,
                "bet": box.bet,
                "result": box.result.value if box.result else None,
                "won": box.won,
                "hand": box.hand.value if box.hand else None,
            }
            for box in state.boxes
        }
        dealer = rank_joker_high(state.dealer)
        out["dealer"] = {
            "cards": codes(state.dealer),
            "discarded": codes(state.dealer_discarded),
            "hand": hand_of(dealer).value,
            "qualifies": qualifies(dealer),
        }
    else:
        out["to_act"] = None if state.to_act is None else names[state.to_act]
        out["legal"] = legal_json(legal_actions(state))
    out["events"] = [to_json(e) for e in events]
    return out
