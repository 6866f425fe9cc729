"""A hand as ``decide(state, command) -> events`` and ``evolve(state, event)``.

``decide`` validates a command against ``legal_actions`` (the same checks a
client's menu comes from), produces the player's events and then every
event that follows by itself (the next round, the draw, a reshuffle, the
awards), until someone must act again or the hand is over.  ``evolve``
applies one event and never refuses: events are facts.

``start(deal)`` gives the opening events: the hand is a pure function of
(rules, deck order, seed, commands).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from poker.engine import betting
from poker.engine.betting import Legal, legal_actions
from poker.engine.cards import Card, seeded_shuffle
from poker.engine.commands import Act, Action, BlindPlan, Command, Deal, TimeOut
from poker.engine.errors import BadAmount, BadCards, IllegalAction, Malformed, OutOfTurn
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
    Entrant,
    Event,
    Folded,
    HandEnded,
    HandMucked,
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
from poker.engine.showdown import all_turned_up, showdown_awards, showdown_order, split_awards
from poker.engine.state import HandState, Phase, Player, evolved

HAND_SIZE = 5

# --------------------------------------------------------------------------
# Public API


def start(deal: Deal) -> list[Event]:
    """The opening events of a hand: antes, blinds, the deal, round one."""
    return begin(deal)[1]


def begin(deal: Deal) -> tuple[HandState, list[Event]]:
    """``start`` plus the state after its events, computed once."""
    _check_deal(deal)
    n = len(deal.players)
    entrants = tuple(Entrant(name, stack) for name, stack in deal.players)
    opening: list[Event] = [
        HandStarted(deal.rules, entrants, deal.button, deal.deck, deal.seed, deal.button_dead)
    ]
    stacks = [stack for _, stack in deal.players]
    opening += _antes_and_blinds(deal, stacks)
    # One card at a time clockwise from the left of the button: the k-th
    # player from there gets cards k, k + n, k + 2n, ... of the deck.
    first = deal.button + 1
    hands = [deal.deck[k : k + HAND_SIZE * n : n] for k in range(n)]
    opening.append(CardsDealt(tuple(hands[(i - first) % n] for i in range(n))))
    opening.append(BettingStarted(0))
    state = replay(opening)
    state, more = _follow_on(state)
    return state, opening + more


def decide(state: HandState, command: Command) -> list[Event]:
    """The events ``command`` causes; raises an ``EngineError`` if illegal."""
    return play(state, command)[1]


def play(state: HandState, command: Command) -> tuple[HandState, list[Event]]:
    """``decide`` plus the state after its events, computed once."""
    legal = _turn(state, command.player)
    if isinstance(command, TimeOut):
        events = _timeout(state, legal)
    elif isinstance(command, Act):
        events = _act(state, command, legal)
    else:
        raise Malformed(f"unknown command {command!r}")
    for event in events:
        state = evolve(state, event)
    state, more = _follow_on(state)
    return state, events + more


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


# --------------------------------------------------------------------------
# Starting a hand


def _check_deal(deal: Deal) -> None:
    rules, n = deal.rules, len(deal.players)
    variant = rules.variant
    if not variant.min_players <= n <= variant.max_players:
        raise Malformed(
            f"{rules.game} needs {variant.min_players} to {variant.max_players} players, not {n}"
        )
    if any(stack <= 0 for _, stack in deal.players):
        raise Malformed("every player needs chips")
    if len({name for name, _ in deal.players}) != n:
        raise Malformed("player names must differ")
    if not 0 <= deal.button < n:
        raise Malformed("the button must be one of the players")
    if len(deal.deck) != len(variant.deck) or frozenset(deal.deck) != variant.card_set:
        raise Malformed(f"the deck must be exactly the {len(variant.deck)} cards of {rules.game}")
    if rules.small_blind <= 0 or rules.big_blind < rules.small_blind or rules.ante < 0:
        raise Malformed("blinds must be positive, the big at least the small")
    for post in deal.posts:
        if not 0 <= post.player < n or post.live < 0 or post.dead < 0:
            raise Malformed("a post names no player or a negative amount")


def default_blinds(deal: Deal) -> BlindPlan:
    """Blind positions from the button (RULES.md 1): heads-up, the
    non-dealer posts the small blind and the dealer the big."""
    n, b = len(deal.players), deal.button
    if n == 2:
        return BlindPlan(small=(b + 1) % 2, big=b)
    over = (b + 3) % n if deal.rules.over_blind(n) else None
    return BlindPlan(small=(b + 1) % n, big=(b + 2) % n, over=over)


def _antes_and_blinds(deal: Deal, stacks: list[int]) -> list[Event]:
    """Antes first (all-player antes come before the blinds), then blinds,
    then extra posts; every amount capped by what is left of the stack.
    A big-blind ante is posted after the big blind itself (TDA)."""
    rules, n = deal.rules, len(deal.players)
    plan = deal.blinds or default_blinds(deal)
    posted: list[Event] = []

    def take(i: int, amount: int) -> int:
        paid = min(amount, stacks[i])
        stacks[i] -= paid
        return paid

    if rules.ante and rules.ante_by is AnteBy.ALL:
        for k in range(n):
            i = (deal.button + 1 + k) % n
            if paid := take(i, rules.ante):
                posted.append(AntePosted(i, paid))
    blinds = [(plan.small, Blind.SMALL, rules.small_blind), (plan.big, Blind.BIG, rules.big_blind)]
    if plan.over is not None:
        blinds.append((plan.over, Blind.OVER, 2 * rules.big_blind))
    for who, kind, amount in blinds:
        if who is not None and (paid := take(who, amount)):
            posted.append(BlindPosted(who, kind, paid))
    if rules.ante and rules.ante_by is AnteBy.BIG_BLIND and (paid := take(plan.big, rules.ante)):
        posted.append(AntePosted(plan.big, paid))
    for post in deal.posts:
        if paid := take(post.player, post.live):
            posted.append(BlindPosted(post.player, Blind.EXTRA, paid))
        if paid := take(post.player, post.dead):
            posted.append(BlindPosted(post.player, Blind.EXTRA, paid, dead=True))
    return posted


# --------------------------------------------------------------------------
# Deciding


def _turn(state: HandState, player: int) -> Legal:
    if state.complete:
        raise IllegalAction("the hand is over")
    if not 0 <= player < len(state.players):
        raise Malformed(f"there is no player {player}")
    legal = legal_actions(state)
    if legal is None:
        raise IllegalAction("nobody may act now")
    if legal.player != player:
        names = state.players
        raise OutOfTurn(f"it is {names[legal.player].name}'s turn, not {names[player].name}'s")
    return legal


def _act(state: HandState, command: Act, legal: Legal) -> list[Event]:
    i, action = command.player, command.action
    if action not in legal.actions:
        raise IllegalAction(f"{state.players[i].name} cannot {action.value} now")
    if action is Action.BET or action is Action.RAISE:
        return [_aggression(state, command, legal)]
    if action is Action.DISCARD or action is Action.STAND:
        return _draw(state, i, () if action is Action.STAND else command.cards, legal)
    if action is Action.SHOW:
        return [HandShown(i, state.players[i].cards)]
    return [_SIMPLE[action](state, i)]


_SIMPLE: dict[Action, Callable[[HandState, int], Event]] = {
    Action.FOLD: lambda s, i: Folded(i),
    Action.CHECK: lambda s, i: Checked(i),
    Action.CALL: lambda s, i: Called(i, min(s.current_bet - s.players[i].bet, s.players[i].stack)),
    Action.PAROLE: lambda s, i: ParoleOffered(i),
    Action.ACCEPT: lambda s, i: ParoleAccepted(i),
    Action.DECLINE: lambda s, i: ParoleDeclined(i),
    Action.MUCK: lambda s, i: HandMucked(i),
}


def _aggression(state: HandState, command: Act, legal: Legal) -> Event:
    to = command.amount
    bet = command.action is Action.BET
    low = legal.min_bet_to if bet else legal.min_raise_to
    high = legal.max_bet_to if bet else legal.max_raise_to
    assert low is not None and high is not None
    if type(to) is not int:
        raise BadAmount(f"{command.action.value} needs a whole number of chips")
    if not low <= to <= high:
        bounds = str(low) if low == high else f"{low} to {high}"
        raise BadAmount(f"{command.action.value} must be to {bounds}, not {to}")
    return BetPlaced(command.player, to) if bet else Raised(command.player, to)


def _draw(state: HandState, i: int, thrown: tuple[Card, ...], legal: Legal) -> list[Event]:
    hand = state.players[i].cards
    if len(set(thrown)) != len(thrown) or any(c not in hand for c in thrown):
        raise BadCards("discard only cards you hold, each once")
    if legal.max_discard is not None and len(thrown) > legal.max_discard:
        raise BadCards(f"discard at most {legal.max_discard} cards")
    events: list[Event] = [Discarded(i, thrown)]
    from_stub = state.stub[: len(thrown)]
    if from_stub:
        events.append(CardsDrawn(i, from_stub))
    missing = len(thrown) - len(from_stub)
    if missing:
        # The player's own discards of this draw are not in state.muck yet:
        # he can never be dealt them back.
        reshuffled = seeded_shuffle(sorted(state.muck), state.seed, state.reshuffles)
        events.append(MuckReshuffled(reshuffled))
        events.append(CardsDrawn(i, reshuffled[:missing]))
    return events


def _timeout(state: HandState, legal: Legal) -> list[Event]:
    """A clock ran out: check or fold, stand pat, refuse Parole, or show."""
    i, phase = legal.player, state.phase
    if phase is Phase.BETTING:
        return [Checked(i, True) if Action.CHECK in legal.actions else Folded(i, True)]
    if phase is Phase.DRAW:
        return [Discarded(i, (), True)]
    if phase is Phase.PAROLE:
        return [ParoleDeclined(i, True)]
    return [HandShown(i, state.players[i].cards)]


def _follow_on(state: HandState) -> tuple[HandState, list[Event]]:
    """Apply every event that happens by itself, until a player must act."""
    produced: list[Event] = []
    while batch := _automatic(state):
        for event in batch:
            state = evolve(state, event)
            produced.append(event)
    return state, produced


def _automatic(state: HandState) -> list[Event]:
    phase = state.phase
    if phase is Phase.COMPLETE:
        return []
    if phase is Phase.SHOWDOWN:
        if state.to_act is not None:
            if all_turned_up(state):
                return [HandShown(state.to_act, state.players[state.to_act].cards)]
            return []
        return [*showdown_awards(state), HandEnded()]
    if state.to_act is not None:
        return []
    if phase is Phase.DRAW:
        return [BettingStarted(state.draw + 1)]
    if phase is Phase.PAROLE:
        return [*split_awards(state), HandEnded()]
    # Betting round over.
    returned = _uncalled(state)
    if returned is not None:
        return [returned]
    if len(state.in_hand()) == 1:
        return [*split_awards(state), HandEnded()]
    if state.round < state.variant.draws:
        return [DrawStarted(state.round)]
    return [ShowdownStarted(showdown_order(state))]


def _uncalled(state: HandState) -> BetReturned | None:
    """The part of the highest bet of the round that nobody matched."""
    bets = [p.bet for p in state.players]
    top = max(bets)
    if top == 0 or bets.count(top) > 1:
        return None
    holder = bets.index(top)
    second = max(b for j, b in enumerate(bets) if j != holder)
    return BetReturned(holder, top - second)


# --------------------------------------------------------------------------
# Evolving


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
        version=1,
    )


def _update(state: HandState, i: int, **changes: Any) -> tuple[Player, ...]:
    players = list(state.players)
    players[i] = evolved(players[i], **changes)
    return tuple(players)


def _ante(state: HandState, e: AntePosted) -> HandState:
    p = state.players[e.player]
    return evolved(
        state, players=_update(state, e.player, stack=p.stack - e.amount, total=p.total + e.amount)
    )


def _blind(state: HandState, e: BlindPosted) -> HandState:
    p = state.players[e.player]
    live = 0 if e.dead else e.amount
    players = _update(
        state, e.player, stack=p.stack - e.amount, total=p.total + e.amount, bet=p.bet + live
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
    return evolved(state, players=players, stub=tuple(c for c in state.stub if c not in gone))


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
    players = _update(state, e.player, folded=True, acted=True, cards=())
    return _after_bet_action(state, e.player, players, muck=state.muck + p.cards)


def _checked(state: HandState, e: Checked) -> HandState:
    players = _update(state, e.player, acted=True, faced=state.current_bet)
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
    )


def _drawn(state: HandState, e: CardsDrawn) -> HandState:
    p = state.players[e.player]
    cards = p.cards + e.cards
    done = len(cards) == HAND_SIZE
    players = _update(state, e.player, cards=cards, acted=done)
    state = evolved(state, players=players, stub=state.stub[len(e.cards) :])
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
    PotAwarded: _awarded,
    HandEnded: _hand_ended,
}

__all__ = ["begin", "decide", "evolve", "play", "replay", "start"]
