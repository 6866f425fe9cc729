"""Invariants of every hand, checked by hypothesis over random hands.

Every game and betting structure, 2 to the maximum number of players,
random stacks, random decks and random legal decisions (with a few clock
timeouts and players leaving mid-hand); after every event: chips are
conserved and no card is in two places; nobody draws his own discards back;
the fold of the events is the state; views and redacted events never show a
hidden card.  Random illegal
commands are refused with a typed error and change nothing.
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from poker.engine.betting import legal_actions
from poker.engine.cards import Card, codes
from poker.engine.commands import Act, Action, Command, Deal, Forfeit, TimeOut
from poker.engine.errors import EngineError
from poker.engine.events import (
    CardsDealt,
    CardsDrawn,
    Discarded,
    Event,
    HandShown,
    from_json,
    to_json,
)
from poker.engine.hand import begin, evolve, play, replay
from poker.engine.rules import AnteBy, Betting, Game, Rules
from poker.engine.state import HandState, Phase
from poker.engine.view import redact, view

COMBINATIONS = [(game, betting) for game in Game for betting in Betting]
SETTINGS = settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


@st.composite
def deals(draw: st.DrawFn, game: Game, betting: Betting) -> Deal:
    """A random hand set-up: players, stacks (some shorter than the blinds),
    button, antes, deck order and reshuffle seed."""
    variant = Rules(game, betting, 1, 2).variant
    n = draw(st.integers(variant.min_players, variant.max_players))
    small = draw(st.sampled_from([1, 2, 5]))
    rules = Rules(
        game,
        betting,
        small,
        2 * small,
        ante=draw(st.sampled_from([0, 0, 1, small])),
        ante_by=draw(st.sampled_from(list(AnteBy))),
    )
    stacks = draw(st.lists(st.integers(1, 60 * small), min_size=n, max_size=n))
    deck = tuple(draw(st.permutations(variant.deck)))
    players = tuple((f"P{i}", stack) for i, stack in enumerate(stacks))
    return Deal(rules, players, draw(st.integers(0, n - 1)), deck, draw(st.integers(0, 2**32)))


def random_command(data: st.DataObject, state: HandState) -> Command:
    """A legal command for the player to act (or his clock running out)."""
    legal = legal_actions(state)
    assert legal is not None
    i = legal.player
    if data.draw(st.integers(0, 30)) == 0:
        return TimeOut(i)
    leavers = (
        [j for j, p in enumerate(state.players) if p.in_hand and p.stack > 0]
        if state.phase in (Phase.BETTING, Phase.DRAW)
        else []
    )
    if leavers and data.draw(st.integers(0, 40)) == 0:
        return Forfeit(data.draw(st.sampled_from(leavers)))
    # Lean towards calling and checking, so many hands reach the draws.
    weights = {Action.FOLD: 1, Action.CALL: 3, Action.CHECK: 3}
    choices = [a for a in legal.actions for _ in range(weights.get(a, 1))]
    action = data.draw(st.sampled_from(choices))
    if action is Action.BET:
        assert legal.min_bet_to is not None and legal.max_bet_to is not None
        return Act(i, action, amount=data.draw(st.integers(legal.min_bet_to, legal.max_bet_to)))
    if action is Action.RAISE:
        assert legal.min_raise_to is not None and legal.max_raise_to is not None
        amount = data.draw(st.integers(legal.min_raise_to, legal.max_raise_to))
        return Act(i, action, amount=amount)
    if action is Action.DISCARD:
        assert legal.max_discard is not None
        hand = state.players[i].cards
        thrown = data.draw(st.lists(st.sampled_from(hand), unique=True, max_size=legal.max_discard))
        return Act(i, action, cards=tuple(thrown))
    return Act(i, action)


def play_out(data: st.DataObject, deal: Deal) -> Iterator[tuple[HandState, Event]]:
    """Every (state after the event, event) of one random hand."""
    state, events = begin(deal)
    folded = None
    for event in events:
        folded = evolve(folded, event)
        yield folded, event
    assert folded == state
    for _ in range(400):
        if state.complete:
            return
        before = state
        state, events = play(state, random_command(data, state))
        for event in events:
            before = evolve(before, event)
            yield before, event
        assert before == state
    raise AssertionError("hand did not end in 400 commands")


def chips(state: HandState) -> int:
    awarded = sum(a.amount for a in state.awards)
    return sum(p.stack + p.total + p.dead for p in state.players) - awarded


def card_places(state: HandState) -> list[Card]:
    held = [c for p in state.players for c in p.cards]
    return held + list(state.stub) + list(state.muck)


@pytest.mark.parametrize(("game", "betting"), COMBINATIONS, ids=lambda v: str(v))
@SETTINGS
@given(data=st.data())
def test_chips_conserved_and_every_card_in_one_place(
    game: Game, betting: Betting, data: st.DataObject
) -> None:
    deal = data.draw(deals(game, betting))
    total = sum(stack for _, stack in deal.players)
    for state, _ in play_out(data, deal):
        assert chips(state) == total
        places = card_places(state)
        assert len(places) == len(set(places)) == len(deal.deck)
    assert state.complete
    assert sum(p.stack for p in state.players) == total
    assert all(p.stack >= 0 for p in state.players)


@pytest.mark.parametrize(("game", "betting"), COMBINATIONS, ids=lambda v: str(v))
@SETTINGS
@given(data=st.data())
def test_nobody_draws_his_own_discards(game: Game, betting: Betting, data: st.DataObject) -> None:
    deal = data.draw(deals(game, betting))
    thrown: dict[int, set[Card]] = {}
    for state, event in play_out(data, deal):
        if isinstance(event, Discarded):
            thrown[event.player] = set(event.cards)
        if isinstance(event, CardsDrawn):
            assert not thrown.get(event.player, set()) & set(event.cards)
            assert set(state.players[event.player].discards) == thrown[event.player]


@pytest.mark.parametrize(("game", "betting"), COMBINATIONS, ids=lambda v: str(v))
@SETTINGS
@given(data=st.data())
def test_fold_of_events_rebuilds_the_state_and_events_survive_json(
    game: Game, betting: Betting, data: st.DataObject
) -> None:
    deal = data.draw(deals(game, betting))
    history = []
    states = []
    for state, event in play_out(data, deal):
        decoded = from_json(json.loads(json.dumps(to_json(event))))
        assert decoded == event
        history.append(decoded)
        states.append(state)
    assert replay(history) == states[-1]
    assert [replay(history[: k + 1]) for k in range(len(history))] == states


def visible_cards(event: Event, viewer: int | None) -> set[Card]:
    """The cards of ``event`` that ``viewer`` is entitled to see."""
    if isinstance(event, HandShown):
        return set(event.cards)
    if isinstance(event, CardsDealt) and viewer is not None:
        return set(event.hands[viewer])
    if isinstance(event, CardsDrawn | Discarded) and event.player == viewer:
        return set(event.cards)
    return set()


_QUOTED_PAIR = re.compile(r'(?="([^"]{2})")')
"""Every two-character string between quotes, overlapping ones too: as
many as a search for each card's ``"Ah"`` would find, in one pass."""


@functools.cache
def _by_code(deck: tuple[Card, ...]) -> dict[str, Card]:
    return {str(card): card for card in deck}


def card_strings(text: str, deck: tuple[Card, ...]) -> set[Card]:
    """The cards of ``deck`` written in ``text`` as JSON strings."""
    by_code = _by_code(deck)
    return {by_code[code] for code in _QUOTED_PAIR.findall(text) if code in by_code}


@pytest.mark.parametrize(("game", "betting"), COMBINATIONS, ids=lambda v: str(v))
@SETTINGS
@given(data=st.data())
def test_views_and_events_never_show_a_hidden_card(
    game: Game, betting: Betting, data: st.DataObject
) -> None:
    deal = data.draw(deals(game, betting))
    viewers: list[int | None] = [None, *range(len(deal.players))]
    held: dict[int | None, set[Card]] = {viewer: set() for viewer in viewers}
    """Every card each viewer was dealt or drew so far (his view opens them
    all: docs/fair-deal.md), whether he still holds it or not."""
    found = 0
    for state, event in play_out(data, deal):
        for viewer in viewers:
            if isinstance(event, CardsDealt | CardsDrawn):
                held[viewer] |= visible_cards(event, viewer)
            shown = {c for p in state.players if p.shown for c in p.cards}
            seen = card_strings(json.dumps(view(state, viewer)), deal.deck)
            assert seen <= held[viewer] | shown
            if viewer is not None:  # the search finds the cards that are there
                assert set(state.players[viewer].cards) <= seen
            leaked = card_strings(json.dumps(redact(event, viewer)), deal.deck)
            assert leaked == visible_cards(event, viewer)
            found += len(leaked)
    assert found  # every hand is dealt: its players saw their cards in the events


def illegal_commands(state: HandState) -> list[Command]:
    """Commands that must be refused in ``state``."""
    legal = legal_actions(state)
    n = len(state.players)
    if legal is None:
        return [Act(0, Action.CHECK), TimeOut(0)]
    i = legal.player
    wrong = [Act((i + 1) % n, a) for a in Action] + [TimeOut((i + 1) % n)]
    wrong += [Act(i, a) for a in Action if a not in legal.actions]
    wrong += [Act(n, Action.FOLD), Act(-1, Action.FOLD)]
    if legal.max_raise_to is not None:
        wrong += [Act(i, Action.RAISE, amount=legal.max_raise_to + 1)]
        wrong += [Act(i, Action.RAISE, amount=legal.call)]
    if legal.max_bet_to is not None:
        wrong += [Act(i, Action.BET, amount=legal.max_bet_to + 1), Act(i, Action.BET, amount=0)]
    if legal.max_discard is not None:
        others = [c for c in state.deck if c not in state.players[i].cards]
        wrong += [Act(i, Action.DISCARD, cards=(others[0],))]
        held = state.players[i].cards
        wrong += [Act(i, Action.DISCARD, cards=held[:1] * 2)] if held else []
        if legal.max_discard < len(held):
            wrong += [Act(i, Action.DISCARD, cards=held)]
    return wrong


@pytest.mark.parametrize(("game", "betting"), COMBINATIONS, ids=lambda v: str(v))
@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_a_refused_command_changes_nothing(
    game: Game, betting: Betting, data: st.DataObject
) -> None:
    deal = data.draw(deals(game, betting))
    for state, _ in play_out(data, deal):
        if state.to_act is None and not state.complete:
            continue
        snapshot = to_state_json(state)
        for command in illegal_commands(state):
            with pytest.raises(EngineError) as refused:
                play(state, command)
                pytest.fail(f"{command} was accepted in {state.phase} with {legal_actions(state)}")
            assert refused.value.code.value in {
                "out_of_turn",
                "illegal_action",
                "bad_amount",
                "bad_cards",
                "malformed",
            }
            assert to_state_json(state) == snapshot


def to_state_json(state: HandState) -> str:
    """Every field of the state, hidden ones included, as text."""
    return repr(state)


def test_codes_print_cards_for_messages() -> None:
    # The property tests above compare JSON text against card codes.
    assert codes((Card(51), Card(0))) == ["Ah", "2s"]
