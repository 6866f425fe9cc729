"""A casino round as ``decide(state, command) -> events``.

``decide`` checks a command against ``legal_actions`` (the same checks a
client's menu comes from), produces the box's events and then every event
that follows by itself (the next exchange, the decision, the dealer's
reveal and exchange, the settlement) until a box must act again or the
round is over.  A refused command raises an ``EngineError`` and changes
nothing.  ``start(deal)`` gives the opening events: a round is a pure
function of (rules, boxes, deck order, seed, commands).
"""

from __future__ import annotations

from dataclasses import dataclass

from poker.engine.cards import Card, seeded_shuffle
from poker.engine.casino.commands import Act, Action, Command, Deal, TimeOut
from poker.engine.casino.dealer import dealer_discards
from poker.engine.casino.events import (
    BonusStaked,
    BoxSettled,
    CardsDealt,
    CardsDrawn,
    CasinoEvent,
    DealerExchanged,
    DealerRevealed,
    DecisionStarted,
    DiscardsReshuffled,
    Exchanged,
    ExchangeStarted,
    Folded,
    Played,
    RoundEnded,
    RoundStarted,
    Stood,
)
from poker.engine.casino.evolve import evolve, replay
from poker.engine.casino.paytable import PayTable, hand_of
from poker.engine.casino.rules import HAND_SIZE, MAX_BOXES, CasinoRules
from poker.engine.casino.settle import FOLDED, settle
from poker.engine.casino.state import EXCHANGE_PHASES, CasinoState, Phase
from poker.engine.errors import BadCards, IllegalAction, Malformed, OutOfTurn
from poker.engine.evaluate import rank_joker_high
from poker.engine.settings import check_all, settings_of

RULE_SETTINGS = settings_of(CasinoRules, skip=("pay_table",))
"""The casino table's settings beside the pay table (its jokers)."""
PAY_TABLE_SETTINGS = settings_of(PayTable)
"""The pay table's lines as settings: name, default, bounds."""
MOST_CARDS = (HAND_SIZE, 1)
"""The most cards each exchange changes: 1 to 5, then exactly 1."""


@dataclass(frozen=True, slots=True)
class Legal:
    """What the box to act may do: the menu a client shows is this."""

    box: int
    actions: tuple[Action, ...]
    stake: int
    """The chips ``exchange`` (one original bet) or ``play`` (2 x ANTE) stakes."""
    max_exchange: int | None = None
    """In an exchange: the most cards he may change (the least is 1)."""


# --------------------------------------------------------------------------
# Public API


def start(deal: Deal) -> list[CasinoEvent]:
    """The opening events of a round: BONUS stakes, the deal, the first exchange."""
    return begin(deal)[1]


def begin(deal: Deal) -> tuple[CasinoState, list[CasinoEvent]]:
    """``start`` plus the state after its events, computed once."""
    check_deal(deal)
    n = len(deal.boxes)
    dealt = [deal.deck[k : (n + 1) * HAND_SIZE : n + 1] for k in range(n + 1)]
    events: list[CasinoEvent] = [
        RoundStarted(deal.rules, deal.boxes, deal.deck, deal.seed),
        *(BonusStaked(i, box.original) for i, box in enumerate(deal.boxes)),
        CardsDealt(tuple(dealt[:n]), dealt[n]),
        ExchangeStarted(0),
    ]
    return replay(events), events


def decide(state: CasinoState, command: Command) -> list[CasinoEvent]:
    """The events ``command`` causes; raises an ``EngineError`` if illegal."""
    return play(state, command)[1]


def play(state: CasinoState, command: Command) -> tuple[CasinoState, list[CasinoEvent]]:
    """``decide`` plus the state after its events, computed once."""
    if isinstance(command, TimeOut):
        legal = _turn(state, command.box)
        i = legal.box
        events: list[CasinoEvent] = (
            [Folded(i, True)]
            if state.phase is Phase.DECISION
            else [Stood(i, _exchange(state), True)]
        )
    elif isinstance(command, Act):
        events = _act(state, command, _turn(state, command.box))
    else:
        raise Malformed(f"unknown command {command!r}")
    for event in events:
        state = evolve(state, event)
    produced = events
    while batch := _automatic(state):
        for event in batch:
            state = evolve(state, event)
        produced += batch
    return state, produced


def legal_actions(state: CasinoState) -> Legal | None:
    """The menu of the box to act; None when no box may act."""
    i = state.to_act
    if i is None:
        return None
    box = state.boxes[i]
    if state.phase in EXCHANGE_PHASES:
        covered = box.stack >= box.original
        actions = (Action.EXCHANGE, Action.STAND) if covered else (Action.STAND,)
        return Legal(i, actions, box.original, MOST_CARDS[_exchange(state)])
    if state.phase is Phase.DECISION:
        stake = 2 * box.ante
        actions = (Action.PLAY, Action.FOLD) if box.stack >= stake else (Action.FOLD,)
        return Legal(i, actions, stake)
    return None


def check_deal(deal: Deal) -> None:
    """Refuse a set-up the round cannot be dealt from (``Malformed``), or
    a box that cannot cover its BONUS stake (``IllegalAction``)."""
    check_all(deal.rules, RULE_SETTINGS)
    check_all(deal.rules.pay_table, PAY_TABLE_SETTINGS)
    n = len(deal.boxes)
    if not 1 <= n <= MAX_BOXES:
        raise Malformed(f"a casino round takes 1 to {MAX_BOXES} boxes, not {n}")
    if len({box.name for box in deal.boxes}) != n:
        raise Malformed("player names must differ")
    for box in deal.boxes:
        if type(box.original) is not int or box.original < 1 or type(box.stack) is not int:
            raise Malformed(f"{box.name}'s bet and stack must be whole numbers, the bet positive")
    deck = deal.rules.deck
    if len(deal.deck) != len(deck) or frozenset(deal.deck) != frozenset(deck):
        raise Malformed(f"the deck must be exactly the 52 cards and {deal.rules.jokers} jokers")
    for box in deal.boxes:
        if box.stack < box.original:
            raise IllegalAction(f"{box.name} cannot cover his bet of {box.original}")


# --------------------------------------------------------------------------
# Deciding


def _exchange(state: CasinoState) -> int:
    return EXCHANGE_PHASES.index(state.phase)


def _turn(state: CasinoState, i: int) -> Legal:
    if state.complete:
        raise IllegalAction("the round is over")
    if type(i) is not int or not 0 <= i < len(state.boxes):
        raise Malformed(f"there is no box {i}")
    legal = legal_actions(state)
    if legal is None:
        raise IllegalAction("nobody may act now")
    if legal.box != i:
        names = state.boxes
        raise OutOfTurn(f"it is {names[legal.box].name}'s turn, not {names[i].name}'s")
    return legal


def _act(state: CasinoState, command: Act, legal: Legal) -> list[CasinoEvent]:
    i, action = command.box, command.action
    box = state.boxes[i]
    if action not in legal.actions:
        if action in _ROUND_ACTIONS[state.phase]:
            raise IllegalAction(f"{box.name} cannot cover the stake of {legal.stake}")
        raise IllegalAction(f"{box.name} cannot {action.value} now")
    if action is Action.STAND:
        return [Stood(i, _exchange(state))]
    if action is Action.PLAY:
        return [Played(i, legal.stake)]
    if action is Action.FOLD:
        return [Folded(i)]
    thrown = command.cards
    if len(set(thrown)) != len(thrown) or any(c not in box.cards for c in thrown):
        raise BadCards("exchange only cards you hold, each once")
    most = legal.max_exchange
    assert most is not None
    if not 1 <= len(thrown) <= most:
        raise BadCards(
            "exchange exactly one card" if most == 1 else f"exchange 1 to {most} cards",
            values={"max_exchange": most},
        )
    in_order = tuple(c for c in box.cards if c in thrown)
    reshuffle, drawn = _draw(state, len(in_order))
    return [Exchanged(i, _exchange(state), in_order, legal.stake), *reshuffle, CardsDrawn(i, drawn)]


_ROUND_ACTIONS = {
    Phase.FIRST_EXCHANGE: (Action.EXCHANGE, Action.STAND),
    Phase.SECOND_EXCHANGE: (Action.EXCHANGE, Action.STAND),
    Phase.DECISION: (Action.PLAY, Action.FOLD),
}
"""The actions of each round: one of them missing from the menu is a stake
the box cannot cover (stand and fold are always there)."""


def _draw(state: CasinoState, n: int) -> tuple[list[CasinoEvent], tuple[Card, ...]]:
    """``n`` cards from the top of the stub; when it runs short, the discards
    so far are shuffled under it first (RULES.md 1 and 5).  The cards being
    thrown now are not in the muck yet, so nobody draws his own back."""
    if len(state.stub) >= n:
        return [], state.stub[:n]
    reshuffled = seeded_shuffle(sorted(state.muck), state.seed, state.reshuffles)
    return [DiscardsReshuffled(reshuffled)], (state.stub + reshuffled)[:n]


def _automatic(state: CasinoState) -> list[CasinoEvent]:
    """The events that happen by themselves in ``state`` (none: a box is to act)."""
    phase = state.phase
    if state.to_act is not None or phase is Phase.COMPLETE:
        return []
    if phase is Phase.FIRST_EXCHANGE:
        exchanged = any(b.exchanges for b in state.boxes)
        return [ExchangeStarted(1) if exchanged else DecisionStarted()]
    if phase is Phase.SECOND_EXCHANGE:
        return [DecisionStarted()]
    if phase is Phase.DECISION:
        return [DealerRevealed(state.dealer)]
    if not state.dealer_exchanged and any(b.played for b in state.boxes):
        return _dealer_exchange(state)
    return _settlement(state)


def _dealer_exchange(state: CasinoState) -> list[CasinoEvent]:
    """The dealer's exchange by his priority list (``casino.dealer``)."""
    thrown = tuple(state.dealer[p] for p in dealer_discards(state.dealer))
    reshuffle, drawn = _draw(state, len(thrown))
    return [*reshuffle, DealerExchanged(thrown, drawn)]


def _settlement(state: CasinoState) -> list[CasinoEvent]:
    """Every box settled in seat order, then the end of the round.  When every
    box folded the dealer's dealt hand is compared with nothing."""
    dealer = rank_joker_high(state.dealer)
    pay_table = state.rules.pay_table
    events: list[CasinoEvent] = []
    for i, box in enumerate(state.boxes):
        value = rank_joker_high(box.cards)
        done = FOLDED if box.folded else settle(value, box.ante, box.bet, dealer, pay_table)
        events.append(BoxSettled(i, done.result, hand_of(value), done.won))
    events.append(RoundEnded())
    return events
