"""Casino Draw Poker against the house (RULES.md 5), as a pure engine.

One round at a table of one to four boxes against the dealer, event-sourced
like the pot games::

    state, events = begin(Deal(rules, boxes, deck, seed))   # BONUS, deal, first exchange
    legal = legal_actions(state)                             # the box to act and its menu
    state, more = play(state, Act(box, Action.EXCHANGE, cards))
    events = decide(state, command)                          # the same, events only
    state = replay(events)                                   # or evolve(state, event)

- ``Deal``: ``CasinoRules`` (jokers, ``PayTable``), the boxes in seat
  order as ``Entrant(name, stack, original)``, the full deck order
  (``rules.deck`` shuffled with ``cards.shuffled``) and a secret seed for
  reshuffles.  A box that cannot cover its original bet is refused.
- Commands: ``Act(box, action, cards)`` with ``Action.EXCHANGE`` / ``STAND``
  in the exchanges and ``PLAY`` / ``FOLD`` in the decision, and
  ``TimeOut(box)`` (stands, or folds).  A refusal is an ``EngineError``
  (``poker.engine.errors``: ``out_of_turn``, ``illegal_action``,
  ``bad_cards``, ``malformed``) and changes nothing.
- Events (``CasinoEvent``; stored names ``casino.*`` in
  ``CASINO_EVENT_TYPES``; ``to_json`` / ``from_json``) carry every chip
  movement: ``BonusStaked``, ``Exchanged.stake``, ``Played.amount`` go from
  a box's stack to the layout, ``BoxSettled.won`` comes back to it; the
  house keeps the rest.
- ``view(state, box)`` and ``redact(event, box)``: what a box (or a
  spectator, ``SPECTATOR``) may see.
- ``dealer_discards`` (the dealer's exchange), ``settle`` and ``qualifies``
  are plain functions, shared with the house simulation (``simulate``).
"""

from poker.engine.casino.commands import Act, Action, Command, Deal, Entrant, TimeOut
from poker.engine.casino.dealer import dealer_discards
from poker.engine.casino.decide import (
    PAY_TABLE_SETTINGS,
    RULE_SETTINGS,
    Legal,
    begin,
    check_deal,
    decide,
    legal_actions,
    play,
    start,
)
from poker.engine.casino.events import CASINO_EVENT_TYPES, CasinoEvent, from_json, to_json
from poker.engine.casino.evolve import evolve, replay
from poker.engine.casino.paytable import DEFAULT_PAY_TABLE, Hand, PayTable, hand_of
from poker.engine.casino.rules import GAME, MAX_BOXES, CasinoRules
from poker.engine.casino.settle import Result, Settlement, qualifies, settle
from poker.engine.casino.state import Box, CasinoState, Phase
from poker.engine.casino.view import SPECTATOR, legal_json, redact, view

__all__ = [
    "CASINO_EVENT_TYPES",
    "DEFAULT_PAY_TABLE",
    "GAME",
    "MAX_BOXES",
    "PAY_TABLE_SETTINGS",
    "RULE_SETTINGS",
    "SPECTATOR",
    "Act",
    "Action",
    "Box",
    "CasinoEvent",
    "CasinoRules",
    "CasinoState",
    "Command",
    "Deal",
    "Entrant",
    "Hand",
    "Legal",
    "PayTable",
    "Phase",
    "Result",
    "Settlement",
    "TimeOut",
    "begin",
    "check_deal",
    "dealer_discards",
    "decide",
    "evolve",
    "from_json",
    "hand_of",
    "legal_actions",
    "legal_json",
    "play",
    "qualifies",
    "redact",
    "replay",
    "settle",
    "start",
    "to_json",
    "view",
]
