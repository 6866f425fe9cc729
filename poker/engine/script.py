"""The hand-script runner: ``python -m poker.engine.script FILE|-``.

Replays one hand written as JSON (docs/hand-scripts.md) and prints
one JSON object: the result, or the first refusal.  Exit status 0 when every
action was legal, 2 when one was refused or the script is malformed.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from poker.engine.cards import Card, CardError, cards
from poker.engine.casino import GAME as CASINO_GAME
from poker.engine.casino import script as casino_script
from poker.engine.commands import Act, Action, Deal
from poker.engine.errors import EngineError, Malformed
from poker.engine.events import Event, to_json
from poker.engine.hand import play, replay, start
from poker.engine.rake import Rake, percent_basis_points
from poker.engine.rules import AnteBy, Betting, Game, Rules, TieBreak
from poker.engine.script_input import ScriptError, action_head, script_deck, whole
from poker.engine.state import HandState, Phase
from poker.engine.view import legal_json


def run(script: dict[str, Any]) -> dict[str, Any]:
    """Play ``script`` and return the output object (a casino round goes to
    ``poker.engine.casino.script``)."""
    if script.get("game") == CASINO_GAME:
        return casino_script.run(script)
    try:
        state, events, names = _play(script)
    except ScriptError as exc:
        return {
            "ok": False,
            "error": {
                "index": exc.index,
                "code": exc.error.code.value,
                "message": exc.error.message,
            },
        }
    out = _result(state, events, names)
    if "rake" in script:
        out["rake"] = state.raked
    return out


def _play(script: dict[str, Any]) -> tuple[HandState, list[Event], list[str]]:
    try:
        deal, names = _deal(script)
        events = start(deal)
    except EngineError as exc:
        raise ScriptError(None, exc) from exc
    except (KeyError, TypeError, ValueError, CardError) as exc:
        raise ScriptError(None, Malformed(f"bad script: {exc}")) from exc
    state = replay(events)
    actions = script.get("actions", [])
    if not isinstance(actions, list):
        raise ScriptError(None, Malformed("actions must be a list"))
    for index, raw in enumerate(actions):
        try:
            command = _command(raw, names)
            state = _show_until(state, command.player, events)
            state, more = play(state, command)
        except EngineError as exc:
            raise ScriptError(index, exc) from exc
        events += more
    state = _show_until(state, None, events)
    return state, events, names


def _show_until(state: HandState, player: int | None, events: list[Event]) -> HandState:
    """At showdown, a player the script does not name next shows."""
    while state.phase is Phase.SHOWDOWN and state.to_act is not None and state.to_act != player:
        state, more = play(state, Act(state.to_act, Action.SHOW))
        events += more
    return state


def _deal(script: dict[str, Any]) -> tuple[Deal, list[str]]:
    game = Game(script["game"])
    small, big = script["blinds"]
    rules = Rules(
        game=game,
        betting=Betting(script["betting"]),
        small_blind=whole(small),
        big_blind=whole(big),
        ante=whole(script.get("ante", 0)),
        ante_by=AnteBy(script.get("ante_by", "all")),
        tie_break=TieBreak(script.get("tie_break", "suit")),
    )
    players = [(str(name), whole(stack)) for name, stack in script["players"]]
    names = [name for name, _ in players]
    if script["button"] not in names:
        raise Malformed(f"the button {script['button']!r} is not a player")
    deck, seed = script_deck(script, rules.variant.deck)
    button = names.index(script["button"])
    return Deal(rules, tuple(players), button, deck, seed, rake=_rake(script.get("rake"))), names


def _rake(given: Any) -> Rake | None:
    """The script's ``rake``: ``{"percent", "cap"?, "min_pot"?}`` (no cap
    and no smallest pot when left out); a percent may have two decimals
    (2.5), held as whole basis points."""
    if given is None:
        return None
    if not isinstance(given, dict) or set(given) - {"percent", "cap", "min_pot"}:
        raise Malformed("rake is {percent, cap, min_pot}")
    cap = given.get("cap")
    rake = Rake(
        percent_basis_points(given["percent"]),
        None if cap is None else whole(cap),
        whole(given.get("min_pot", 0)),
    )
    return None if rake.takes_nothing else rake


def _command(raw: Any, names: list[str]) -> Act:
    player, action, rest = action_head(raw, names, Action)
    if action in (Action.BET, Action.RAISE):
        if not rest:
            raise Malformed(f"{action.value} needs an amount")
        return Act(player, action, amount=whole(rest[0]))
    if action is Action.DISCARD:
        thrown = rest[0] if rest else None
        if not isinstance(thrown, list):
            raise Malformed("discard needs a list of cards")
        try:
            return Act(player, action, cards=cards([str(c) for c in thrown]))
        except CardError as exc:
            raise Malformed(str(exc)) from exc
    return Act(player, action)


def _result(state: HandState, events: list[Event], names: list[str]) -> dict[str, Any]:
    out: dict[str, Any] = {
        "ok": True,
        "complete": state.complete,
        "stacks": {p.name: p.stack for p in state.players},
    }
    if state.complete:
        awards = sorted(state.awards, key=lambda a: a.pot)
        out["pots"] = [
            {"amount": a.amount, "winners": [names[s.player] for s in a.shares if s.amount]}
            for a in awards
        ]
        out["parole"] = state.parole_agreed
        out["showdown"] = [names[i] for i in state.showdown_order]
        out["hands"] = {names[i]: _codes(p.cards) for i, p in enumerate(state.players) if p.shown}
    else:
        out["to_act"] = None if state.to_act is None else names[state.to_act]
        out["legal"] = legal_json(state)
    out["events"] = [to_json(e) for e in events]
    return out


def _codes(hand: Sequence[Card]) -> list[str]:
    return [str(c) for c in hand]


def main(argv: Sequence[str] | None = None) -> int:
    """Command-line entry: read the script, print the output, return the status."""
    args = list(sys.argv[1:] if argv is None else argv)
    if len(args) != 1:
        print("usage: python -m poker.engine.script FILE|-", file=sys.stderr)
        return 2
    try:
        text = sys.stdin.read() if args[0] == "-" else Path(args[0]).read_text(encoding="utf-8")
        script = json.loads(text)
        if not isinstance(script, dict):
            raise ValueError("a script is a JSON object")
    except (OSError, ValueError) as exc:
        output: dict[str, Any] = {
            "ok": False,
            "error": {"index": None, "code": "malformed", "message": str(exc)},
        }
    else:
        output = run(script)
    print(json.dumps(output))
    return 0 if output["ok"] else 2


if __name__ == "__main__":
    sys.exit(main())
