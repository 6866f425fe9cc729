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

from collections.abc import Callable

from poker.engine.betting import Legal, legal_actions
from poker.engine.cards import Card, seeded_shuffle
from poker.engine.commands import Act, Action, Command, Deal, Forfeit, TimeOut
from poker.engine.deal import opening_events
from poker.engine.errors import BadAmount, BadCards, IllegalAction, Malformed, OutOfTurn
from poker.engine.events import (
    BetPlaced,
    BetReturned,
    BettingStarted,
    Called,
    CardsDrawn,
    Checked,
    Discarded,
    DrawStarted,
    Event,
    Folded,
    HandEnded,
    HandMucked,
    HandShown,
    MuckReshuffled,
    ParoleAccepted,
    ParoleDeclined,
    ParoleOffered,
    Raised,
    ShowdownStarted,
)
from poker.engine.evolve import evolve, replay
from poker.engine.fairdeal import commit
from poker.engine.showdown import all_turned_up, showdown_awards, showdown_order, split_awards
from poker.engine.state import HandState, Phase

# --------------------------------------------------------------------------
# Public API


def start(deal: Deal) -> list[Event]:
    """The opening events of a hand: antes, blinds, the deal, round one."""
    return begin(deal)[1]


def begin(deal: Deal) -> tuple[HandState, list[Event]]:
    """``start`` plus the state after its events, computed once."""
    opening = opening_events(deal)
    state, more = _follow_on(replay(opening))
    return state, opening + more


def decide(state: HandState, command: Command) -> list[Event]:
    """The events ``command`` causes; raises an ``EngineError`` if illegal."""
    return play(state, command)[1]


def play(state: HandState, command: Command) -> tuple[HandState, list[Event]]:
    """``decide`` plus the state after its events, computed once."""
    if isinstance(command, Forfeit):
        events: list[Event] = [_forfeit(state, command.player)]
    elif isinstance(command, TimeOut):
        events = _timeout(state, _turn(state, command.player))
    elif isinstance(command, Act):
        events = _act(state, command, _turn(state, command.player))
    else:
        raise Malformed(f"unknown command {command!r}")
    for event in events:
        state = evolve(state, event)
    state, more = _follow_on(state)
    return state, events + more


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
        names = (state.players[legal.player].name, state.players[player].name)
        raise OutOfTurn("it is {0}'s turn, not {1}'s", players=names)
    return legal


def _forfeit(state: HandState, i: int) -> Folded:
    if state.complete:
        raise IllegalAction("the hand is over")
    if not 0 <= i < len(state.players):
        raise Malformed(f"there is no player {i}")
    player = state.players[i]
    if not player.in_hand:
        raise IllegalAction("{0} is not in the hand", players=[player.name])
    if player.stack == 0:
        raise IllegalAction("{0} is all-in: his hand plays to the showdown", players=[player.name])
    if state.phase not in (Phase.BETTING, Phase.DRAW):
        raise IllegalAction(f"no folding out of turn during {state.phase.value}")
    return Folded(i)


def _act(state: HandState, command: Act, legal: Legal) -> list[Event]:
    i, action = command.player, command.action
    if action not in legal.actions:
        raise IllegalAction(f"{{0}} cannot {action.value} now", players=[state.players[i].name])
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
        verb = command.action.value
        bounds = str(low) if low == high else f"{low} to {high}"
        values = (
            {f"{verb}_to": low} if low == high else {f"min_{verb}_to": low, f"max_{verb}_to": high}
        )
        raise BadAmount(f"{verb} must be to {bounds}, not {to}", values=values)
    return BetPlaced(command.player, to) if bet else Raised(command.player, to)


def _draw(state: HandState, i: int, thrown: tuple[Card, ...], legal: Legal) -> list[Event]:
    hand = state.players[i].cards
    if len(set(thrown)) != len(thrown) or any(c not in hand for c in thrown):
        raise BadCards("discard only cards you hold, each once")
    if legal.max_discard is not None and len(thrown) > legal.max_discard:
        raise BadCards(
            f"discard at most {legal.max_discard} cards",
            values={"max_discard": legal.max_discard},
        )
    events: list[Event] = [Discarded(i, thrown)]
    from_stub = state.stub[: len(thrown)]
    if from_stub:
        events.append(CardsDrawn(i, from_stub))
    missing = len(thrown) - len(from_stub)
    if missing:
        # The player's own discards of this draw are not in state.muck yet:
        # he can never be dealt them back.
        reshuffled = seeded_shuffle(sorted(state.muck), state.seed, state.reshuffles)
        # Committed (and published) before the first card of it is drawn.
        root = commit(reshuffled, state.seed, state.reshuffles + 1)
        events.append(MuckReshuffled(reshuffled, root))
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
    """The part of the highest bet of the round that nobody matched (none
    for a player who left the hand after betting: his chips are dead)."""
    bets = [p.bet for p in state.players]
    top = max(bets)
    if top == 0 or bets.count(top) > 1:
        return None
    holder = bets.index(top)
    if state.players[holder].folded:
        return None
    second = max(b for j, b in enumerate(bets) if j != holder)
    return BetReturned(holder, top - second)


__all__ = ["begin", "decide", "evolve", "play", "replay", "start"]
