"""``evolve(state, event) -> state``: applying one fact to a casino round.

Events are facts: nothing here refuses or decides.  Each handler copies
what changed and works out only what follows directly, such as which box
acts next (seat order, within the current exchange or decision).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

from poker.engine.cards import Card
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
from poker.engine.casino.rules import HAND_SIZE
from poker.engine.casino.state import EXCHANGE_PHASES, Box, CasinoState, Phase
from poker.engine.errors import Malformed
from poker.engine.state import evolved


def evolve(state: CasinoState | None, event: CasinoEvent) -> CasinoState:
    """The state after ``event`` (``state`` is None only for RoundStarted)."""
    if isinstance(event, RoundStarted):
        return CasinoState(
            rules=event.rules,
            boxes=tuple(Box(e.name, e.stack, e.original) for e in event.boxes),
            deck=event.deck,
            seed=event.seed,
            stub=event.deck,
            version=1,
        )
    if state is None:
        raise Malformed(f"{type(event).__name__} before RoundStarted")
    new = _APPLY[type(event)](state, event)
    if new is state:
        new = evolved(state)
    new.__dict__["version"] = state.version + 1  # a fresh copy: still unshared
    return new


def replay(events: Iterable[CasinoEvent]) -> CasinoState:
    """The fold of ``events`` from the empty round."""
    state: CasinoState | None = None
    for event in events:
        state = evolve(state, event)
    if state is None:
        raise Malformed("no events")
    return state


def eligible(state: CasinoState, box: Box) -> bool:
    """The box has a turn in the current round of decisions."""
    if state.phase is Phase.SECOND_EXCHANGE:
        return box.exchanges >= 1
    return state.phase in (Phase.FIRST_EXCHANGE, Phase.DECISION)


def replaced(
    cards: Sequence[Card], thrown: Sequence[Card], drawn: Sequence[Card]
) -> tuple[Card, ...]:
    """``cards`` with each thrown card, in hand order, replaced by the next drawn."""
    fresh = iter(drawn)
    gone = set(thrown)
    return tuple(next(fresh) if c in gone else c for c in cards)


def _with_box(state: CasinoState, i: int, **changes: Any) -> tuple[Box, ...]:
    boxes = list(state.boxes)
    boxes[i] = evolved(boxes[i], **changes)
    return tuple(boxes)


def _next(state: CasinoState, after: int) -> int | None:
    """The next box after ``after`` (-1: from the first) still to act."""
    for j in range(after + 1, len(state.boxes)):
        box = state.boxes[j]
        if not box.acted and eligible(state, box):
            return j
    return None


def _turn_done(state: CasinoState, i: int, **changes: Any) -> CasinoState:
    """Box ``i`` took its turn: the next box acts."""
    moved = evolved(state, boxes=_with_box(state, i, acted=True, **changes))
    moved.__dict__["to_act"] = _next(moved, i)
    return moved


def _round_start(state: CasinoState, phase: Phase) -> CasinoState:
    boxes = tuple(evolved(b, acted=False) for b in state.boxes)
    started = evolved(state, boxes=boxes, phase=phase)
    started.__dict__["to_act"] = _next(started, -1)
    return started


def _bonus(state: CasinoState, e: BonusStaked) -> CasinoState:
    box = state.boxes[e.box]
    return evolved(
        state, boxes=_with_box(state, e.box, stack=box.stack - e.amount, ante=box.ante + e.amount)
    )


def _dealt(state: CasinoState, e: CardsDealt) -> CasinoState:
    boxes = tuple(evolved(b, cards=h) for b, h in zip(state.boxes, e.hands, strict=True))
    used = HAND_SIZE * (len(boxes) + 1)
    return evolved(state, boxes=boxes, dealer=e.dealer, stub=state.stub[used:])


def _exchange_started(state: CasinoState, e: ExchangeStarted) -> CasinoState:
    return _round_start(state, EXCHANGE_PHASES[e.exchange])


def _exchanged(state: CasinoState, e: Exchanged) -> CasinoState:
    box = state.boxes[e.box]
    boxes = _with_box(
        state,
        e.box,
        stack=box.stack - e.stake,
        ante=box.ante + e.stake,
        exchanges=box.exchanges + 1,
        thrown=e.cards,
    )
    return evolved(state, boxes=boxes)  # his turn ends when his cards come


def _stood(state: CasinoState, e: Stood) -> CasinoState:
    return _turn_done(state, e.box)


def _reshuffled(state: CasinoState, e: DiscardsReshuffled) -> CasinoState:
    return evolved(state, stub=state.stub + e.cards, muck=(), reshuffles=state.reshuffles + 1)


def _drawn(state: CasinoState, e: CardsDrawn) -> CasinoState:
    box = state.boxes[e.box]
    drawn = evolved(state, stub=state.stub[len(e.cards) :], muck=state.muck + box.thrown)
    return _turn_done(drawn, e.box, cards=replaced(box.cards, box.thrown, e.cards), thrown=())


def _decision_started(state: CasinoState, e: DecisionStarted) -> CasinoState:
    return _round_start(state, Phase.DECISION)


def _played(state: CasinoState, e: Played) -> CasinoState:
    box = state.boxes[e.box]
    return _turn_done(state, e.box, stack=box.stack - e.amount, bet=e.amount)


def _folded(state: CasinoState, e: Folded) -> CasinoState:
    return _turn_done(state, e.box, folded=True)


def _revealed(state: CasinoState, e: DealerRevealed) -> CasinoState:
    return evolved(state, dealer_shown=True, phase=Phase.SHOWDOWN, to_act=None)


def _dealer_exchanged(state: CasinoState, e: DealerExchanged) -> CasinoState:
    return evolved(
        state,
        dealer=replaced(state.dealer, e.discarded, e.drawn),
        dealer_exchanged=True,
        dealer_discarded=e.discarded,
        stub=state.stub[len(e.drawn) :],
        muck=state.muck + e.discarded,
    )


def _settled(state: CasinoState, e: BoxSettled) -> CasinoState:
    box = state.boxes[e.box]
    boxes = _with_box(
        state, e.box, stack=box.stack + e.won, result=e.result, hand=e.hand, won=e.won
    )
    return evolved(state, boxes=boxes)


def _ended(state: CasinoState, e: RoundEnded) -> CasinoState:
    return evolved(state, phase=Phase.COMPLETE)


_APPLY: dict[type[Any], Callable[[CasinoState, Any], CasinoState]] = {
    BonusStaked: _bonus,
    CardsDealt: _dealt,
    ExchangeStarted: _exchange_started,
    Exchanged: _exchanged,
    Stood: _stood,
    DiscardsReshuffled: _reshuffled,
    CardsDrawn: _drawn,
    DecisionStarted: _decision_started,
    Played: _played,
    Folded: _folded,
    DealerRevealed: _revealed,
    DealerExchanged: _dealer_exchanged,
    BoxSettled: _settled,
    RoundEnded: _ended,
}
