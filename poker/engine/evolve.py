"""``evolve(state, event) -> state``: applying one fact to a hand.

Events are facts, so nothing here refuses or decides: each handler copies
what changed (``state.evolved``) and works out only what follows from the
rules directly, such as who is to act next.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from poker.engine import betting
from poker.engine.errors import Malformed
from poker.engine.events import (
    AntePosted,
    BetPlaced,
    BetReturned,
    BettingStarted,
    Blind,
    BlindPosted,
    Called,
    CardsDealt,
    CardsDrawn,
    Checked,
    Discarded,
    DrawStarted,
    Event,
    Folded,
    HandEnded,
    HandMucked,
    HandRaked,
    HandShown,
    HandStarted,
    MuckReshuffled,
    ParoleAccepted,
    ParoleDeclined,
    ParoleOffered,
    PotAwarded,
    Raised,
    ShowdownStarted,
)
from poker.engine.rules import AnteBy
from poker.engine.state import HAND_SIZE, HandState, Phase, Player, Receipt, evolved


def evolve(state: HandState | None, event: Event) -> HandState:
    """The state after ``event`` (``state`` is None only for HandStarted)."""
    if isinstance(event, HandStarted):
        return _started(event)
    if state is None:
        raise Malformed(f"{type(event).__name__} before HandStarted")
    new = _APPLY[type(event)](state, event)
    if new is state:
        new = evolved(state)
    new.__dict__["version"] = state.version + 1  # a fresh copy: still unshared
    return new


def replay(events: Iterable[Event]) -> HandState:
    """The fold of ``events`` from the empty hand."""
    state: HandState | None = None
    for event in events:
        state = evolve(state, event)
    if state is None:
        raise Malformed("no events")
    return state


def _started(event: HandStarted) -> HandState:
    return HandState(
        rules=event.rules,
        variant=event.rules.variant,
        players=tuple(Player(e.name, e.stack) for e in event.players),
        button=event.button,
        button_dead=event.button_dead,
        deck=event.deck,
        seed=event.seed,
        stub=event.deck,
        commitment=event.commitment,
        roots=(event.root,),
        trees=(event.deck,),
        rake=event.rake,
        version=1,
    )


def _update(state: HandState, i: int, **changes: Any) -> tuple[Player, ...]:
    players = list(state.players)
    players[i] = evolved(players[i], **changes)
    return tuple(players)


def _ante(state: HandState, e: AntePosted) -> HandState:
    p = state.players[e.player]
    if state.rules.ante_by is AnteBy.BIG_BLIND:
        # One ante for the whole table: dead money, nobody's matched chips.
        changes = {"dead": p.dead + e.amount}
    else:
        changes = {"total": p.total + e.amount}
    return evolved(state, players=_update(state, e.player, stack=p.stack - e.amount, **changes))


def _blind(state: HandState, e: BlindPosted) -> HandState:
    p = state.players[e.player]
    if e.dead:
        players = _update(state, e.player, stack=p.stack - e.amount, dead=p.dead + e.amount)
        return evolved(state, players=players)
    players = _update(
        state, e.player, stack=p.stack - e.amount, total=p.total + e.amount, bet=p.bet + e.amount
    )
    nominal = _nominal_blind(state, e.blind)
    if nominal and nominal >= state.blind_level:
        return evolved(state, players=players, largest_blind=e.player, blind_level=nominal)
    return evolved(state, players=players)


def _nominal_blind(state: HandState, blind: Blind) -> int:
    """The full size of a blind, however short it was posted (a short big
    blind still has to be called in full: TDA)."""
    rules = state.rules
    return {
        Blind.SMALL: rules.small_blind,
        Blind.BIG: rules.big_blind,
        Blind.OVER: 2 * rules.big_blind,
    }.get(blind, 0)


def _dealt(state: HandState, e: CardsDealt) -> HandState:
    players = tuple(evolved(p, cards=hand) for p, hand in zip(state.players, e.hands, strict=True))
    gone = {c for hand in e.hands for c in hand}
    where = {c: k for k, c in enumerate(state.deck)}
    version = state.version + 1
    receipts = tuple(
        Receipt(i, version, 0, where[c]) for i, hand in enumerate(e.hands) for c in hand
    )
    return evolved(
        state,
        players=players,
        stub=tuple(c for c in state.stub if c not in gone),
        receipts=state.receipts + receipts,
    )


def _betting_started(state: HandState, e: BettingStarted) -> HandState:
    first_round = e.round == 0
    players = state.players if first_round else _new_round(state.players)
    level = state.blind_level if first_round else 0
    after_blind = first_round or state.variant.later_rounds_after_largest_blind
    reference = state.button
    if after_blind and state.largest_blind is not None:
        reference = state.largest_blind
    return evolved(
        state,
        players=players,
        phase=Phase.BETTING,
        round=e.round,
        current_bet=level,
        full_level=level,
        min_raise=betting.bet_unit(state, e.round),
        bets=1 if first_round else 0,
        aggressor=None,
        to_act=betting.next_to_bet(players, level, reference),
    )


def _new_round(players: tuple[Player, ...]) -> tuple[Player, ...]:
    """Bets move into the pot; everyone acts afresh."""
    return tuple(
        evolved(p, acted=False, faced=0, bet=0) if p.acted or p.faced or p.bet else p
        for p in players
    )


def _after_bet_action(
    state: HandState, i: int, players: tuple[Player, ...], **more: Any
) -> HandState:
    current = more.get("current_bet", state.current_bet)
    to_act = betting.next_to_bet(players, current, i)
    return evolved(state, players=players, to_act=to_act, **more)


def _folded(state: HandState, e: Folded) -> HandState:
    p = state.players[e.player]
    timed_out = p.timed_out or e.timed_out
    players = _update(state, e.player, folded=True, acted=True, cards=(), timed_out=timed_out)
    muck = state.muck + p.cards
    if e.player == state.to_act and state.phase is Phase.BETTING:
        return _after_bet_action(state, e.player, players, muck=muck)
    # Out of turn (a player leaving the table): whoever was to act still is,
    # unless the fold settled it.
    folded = evolved(state, players=players, muck=muck)
    return evolved(folded, to_act=_still_to_act(folded, e.player))


def _still_to_act(state: HandState, folder: int) -> int | None:
    to_act = state.to_act
    if to_act is None or sum(1 for p in state.players if p.in_hand) <= 1:
        return None
    if state.phase is Phase.DRAW:
        return _next_drawer(state, folder) if to_act == folder else to_act
    if betting.needs_action(state, to_act):
        return to_act
    return betting.next_to_bet(state.players, state.current_bet, to_act)


def _checked(state: HandState, e: Checked) -> HandState:
    timed_out = state.players[e.player].timed_out or e.timed_out
    players = _update(state, e.player, acted=True, faced=state.current_bet, timed_out=timed_out)
    return _after_bet_action(state, e.player, players)


def _called(state: HandState, e: Called) -> HandState:
    p = state.players[e.player]
    players = _update(
        state,
        e.player,
        stack=p.stack - e.amount,
        bet=p.bet + e.amount,
        total=p.total + e.amount,
        acted=True,
        faced=state.current_bet,
    )
    return _after_bet_action(state, e.player, players)


def _aggressed(state: HandState, e: BetPlaced | Raised) -> HandState:
    p = state.players[e.player]
    added = e.to - p.bet
    players = _update(
        state,
        e.player,
        stack=p.stack - added,
        bet=e.to,
        total=p.total + added,
        acted=True,
        faced=e.to,
    )
    more: dict[str, Any] = {"current_bet": e.to, "aggressor": e.player}
    if betting.is_full_raise(state, e.to):
        more.update(
            full_level=e.to,
            min_raise=max(state.min_raise, e.to - state.current_bet),
            bets=state.bets + 1,
        )
    return _after_bet_action(state, e.player, players, **more)


def _returned(state: HandState, e: BetReturned) -> HandState:
    p = state.players[e.player]
    players = _update(
        state, e.player, stack=p.stack + e.amount, bet=p.bet - e.amount, total=p.total - e.amount
    )
    return evolved(state, players=players)


def _draw_started(state: HandState, e: DrawStarted) -> HandState:
    players = tuple(evolved(p, acted=False, discards=()) for p in state.players)
    state = evolved(state, players=players, phase=Phase.DRAW, draw=e.draw)
    return evolved(state, to_act=_next_drawer(state, state.button))


def _next_drawer(state: HandState, after: int) -> int | None:
    n = len(state.players)
    for k in range(after + 1, after + 1 + n):
        p = state.players[k % n]
        if p.in_hand and not p.acted:
            return k % n
    return None


def _discarded(state: HandState, e: Discarded) -> HandState:
    p = state.players[e.player]
    gone = set(e.cards)
    done = not e.cards
    players = _update(
        state,
        e.player,
        cards=tuple(c for c in p.cards if c not in gone),
        discards=e.cards,
        last_discard_count=len(e.cards),
        no_raise=p.no_raise or e.timed_out,
        acted=done,
    )
    state = evolved(state, players=players, muck=state.muck + e.cards)
    return evolved(state, to_act=_next_drawer(state, e.player)) if done else state


def _reshuffled(state: HandState, e: MuckReshuffled) -> HandState:
    taken = set(e.cards)
    return evolved(
        state,
        stub=state.stub + e.cards,
        muck=tuple(c for c in state.muck if c not in taken),
        reshuffles=state.reshuffles + 1,
        roots=(*state.roots, e.root),
        trees=(*state.trees, e.cards),
    )


def _drawn(state: HandState, e: CardsDrawn) -> HandState:
    p = state.players[e.player]
    cards = p.cards + e.cards
    done = len(cards) == HAND_SIZE
    players = _update(state, e.player, cards=cards, acted=done)
    # The stub is always what is left of the latest tree, taken from the top.
    tree = len(state.trees) - 1
    first = len(state.trees[tree]) - len(state.stub)
    version = state.version + 1
    receipts = tuple(Receipt(e.player, version, tree, first + k) for k in range(len(e.cards)))
    state = evolved(
        state,
        players=players,
        stub=state.stub[len(e.cards) :],
        receipts=state.receipts + receipts,
    )
    return evolved(state, to_act=_next_drawer(state, e.player)) if done else state


def _next_in_hand(state: HandState, after: int) -> int:
    n = len(state.players)
    for k in range(after + 1, after + 1 + n):
        if state.players[k % n].in_hand:
            return k % n
    return after


def _parole_offered(state: HandState, e: ParoleOffered) -> HandState:
    return evolved(
        state, phase=Phase.PAROLE, parole_by=e.player, to_act=_next_in_hand(state, e.player)
    )


def _parole_accepted(state: HandState, e: ParoleAccepted) -> HandState:
    following = _next_in_hand(state, e.player)
    if following == state.parole_by:
        return evolved(state, to_act=None, parole_agreed=True)
    return evolved(state, to_act=following)


def _parole_declined(state: HandState, e: ParoleDeclined) -> HandState:
    return evolved(state, phase=Phase.BETTING, to_act=state.parole_by)


def _showdown_started(state: HandState, e: ShowdownStarted) -> HandState:
    return evolved(
        state, phase=Phase.SHOWDOWN, showdown_order=e.order, to_act=e.order[0] if e.order else None
    )


def _next_to_show(state: HandState) -> int | None:
    for i in state.showdown_order:
        p = state.players[i]
        if not (p.shown or p.mucked):
            return i
    return None


def _shown(state: HandState, e: HandShown) -> HandState:
    state = evolved(state, players=_update(state, e.player, shown=True))
    return evolved(state, to_act=_next_to_show(state))


def _mucked(state: HandState, e: HandMucked) -> HandState:
    state = evolved(state, players=_update(state, e.player, mucked=True))
    return evolved(state, to_act=_next_to_show(state))


def _raked(state: HandState, e: HandRaked) -> HandState:
    return evolved(state, raked=state.raked + e.amount)


def _awarded(state: HandState, e: PotAwarded) -> HandState:
    players = list(state.players)
    for share in e.shares:
        players[share.player] = evolved(
            players[share.player], stack=players[share.player].stack + share.amount
        )
    return evolved(state, players=tuple(players), awards=(*state.awards, e))


def _hand_ended(state: HandState, e: HandEnded) -> HandState:
    return evolved(state, phase=Phase.COMPLETE, to_act=None)


_APPLY: dict[type[Any], Callable[[HandState, Any], HandState]] = {
    AntePosted: _ante,
    BlindPosted: _blind,
    CardsDealt: _dealt,
    BettingStarted: _betting_started,
    Folded: _folded,
    Checked: _checked,
    Called: _called,
    BetPlaced: _aggressed,
    Raised: _aggressed,
    BetReturned: _returned,
    DrawStarted: _draw_started,
    Discarded: _discarded,
    MuckReshuffled: _reshuffled,
    CardsDrawn: _drawn,
    ParoleOffered: _parole_offered,
    ParoleAccepted: _parole_accepted,
    ParoleDeclined: _parole_declined,
    ShowdownStarted: _showdown_started,
    HandShown: _shown,
    HandMucked: _mucked,
    HandRaked: _raked,
    PotAwarded: _awarded,
    HandEnded: _hand_ended,
}
