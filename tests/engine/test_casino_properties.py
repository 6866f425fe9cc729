"""Invariants of every casino round, checked by hypothesis over random rounds.

One to four boxes, 0 to 4 jokers, random original bets and stacks (some too
short to exchange or play), random pay tables, deck orders and seeds, random
legal decisions with a few clocks running out, and random commands thrown in
at any point.  After every event: chips are conserved between the boxes and
the house, no card is in two places, nobody draws his own discards back,
the dealer never throws a joker, every payout is the pay table's, the fold
of the events is the state, and no view or redacted event shows a hidden
card.  A refused command changes nothing.
"""

from __future__ import annotations

import json
from collections.abc import Iterator

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from poker.engine.cards import Card
from poker.engine.casino import (
    SPECTATOR,
    Act,
    Action,
    CasinoEvent,
    CasinoRules,
    CasinoState,
    Command,
    Deal,
    Entrant,
    PayTable,
    Result,
    TimeOut,
    begin,
    evolve,
    from_json,
    legal_actions,
    play,
    redact,
    replay,
    to_json,
    view,
)
from poker.engine.casino.events import (
    BonusStaked,
    BoxSettled,
    CardsDealt,
    CardsDrawn,
    DealerExchanged,
    DealerRevealed,
    Exchanged,
    Played,
)
from poker.engine.errors import EngineError
from poker.engine.evaluate import Category, Ranking, category, rank_joker_high

SETTINGS = settings(
    max_examples=100,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
LINES = list(PayTable().to_json())


@st.composite
def deals(draw: st.DrawFn) -> Deal:
    """A random round: boxes, bets, stacks, jokers, pay table, deck, seed."""
    n = draw(st.integers(1, 4))
    lines = draw(st.dictionaries(st.sampled_from(LINES), st.integers(1, 30)))
    rules = CasinoRules(jokers=draw(st.integers(0, 4)), pay_table=PayTable.from_json(lines))
    boxes = []
    for i in range(n):
        bet = draw(st.sampled_from([1, 2, 3, 5, 10]))
        boxes.append(Entrant(f"P{i}", draw(st.integers(bet, 12 * bet)), bet))
    deck = tuple(draw(st.permutations(rules.deck)))
    return Deal(rules, tuple(boxes), deck, draw(st.integers(0, 2**32)))


def random_command(data: st.DataObject, state: CasinoState) -> Command:
    """A legal command for the box to act (or its clock running out); many
    five-card exchanges, so that short decks reshuffle."""
    legal = legal_actions(state)
    assert legal is not None
    i = legal.box
    if data.draw(st.integers(0, 20)) == 0:
        return TimeOut(i)
    action = data.draw(st.sampled_from(legal.actions))
    if action is not Action.EXCHANGE:
        return Act(i, action)
    assert legal.max_exchange is not None
    hand = state.boxes[i].cards
    size = data.draw(st.sampled_from([legal.max_exchange, *range(1, legal.max_exchange + 1)]))
    return Act(i, action, tuple(data.draw(st.permutations(hand))[:size]))


def wild_command(data: st.DataObject, state: CasinoState) -> Act:
    """Any command at all: any box (or none), any verb, any cards."""
    box = data.draw(st.integers(-1, len(state.boxes)))
    thrown = data.draw(st.lists(st.sampled_from(state.deck), max_size=6))
    return Act(box, data.draw(st.sampled_from(list(Action))), tuple(thrown))


def play_out(data: st.DataObject, deal: Deal) -> Iterator[tuple[CasinoState, CasinoEvent]]:
    """Every (state after the event, event) of one random round, with
    refused commands tried on the way."""
    state, events = begin(deal)
    folded = None
    for event in events:
        folded = evolve(folded, event)
        yield folded, event
    assert folded == state
    history = list(events)
    decisions = wild = 0
    while not state.complete:
        if wild < 20 and data.draw(st.integers(0, 3)) == 3:
            wild += 1
            try:
                after, more = play(state, wild_command(data, state))
            except EngineError:
                assert replay(history) == state, "a refused command changed the round"
                continue
        else:
            decisions += 1
            assert decisions <= 3 * len(deal.boxes), "a box decided more than three times"
            after, more = play(state, random_command(data, state))
        for event in more:
            state = evolve(state, event)
            yield state, event
        assert state == after
        history += more


def card_places(state: CasinoState) -> list[Card]:
    held = [c for b in state.boxes for c in b.cards]
    return held + list(state.dealer) + list(state.stub) + list(state.muck)


@SETTINGS
@given(data=st.data())
def test_chips_are_conserved_between_the_boxes_and_the_house(data: st.DataObject) -> None:
    deal = data.draw(deals())
    house = 0
    for state, event in play_out(data, deal):
        if isinstance(event, BonusStaked | Played):
            house += event.amount
        elif isinstance(event, Exchanged):
            house += event.stake
        elif isinstance(event, BoxSettled):
            house -= event.won
        assert sum(b.stack for b in state.boxes) + house == sum(e.stack for e in deal.boxes)
        for box, entrant in zip(state.boxes, deal.boxes, strict=True):
            assert box.stack >= 0
            assert box.stack + box.ante + box.bet - box.won == entrant.stack
            if box.cards:  # dealt: the BONUS is staked
                assert box.ante == box.original * (1 + box.exchanges)
            assert box.bet in (0, 2 * box.ante)
    assert state.complete and state.staked == 0


@SETTINGS
@given(data=st.data())
def test_no_card_is_in_two_places_and_nobody_draws_his_own_discards(data: st.DataObject) -> None:
    deal = data.draw(deals())
    thrown: dict[int, set[Card]] = {}
    for state, event in play_out(data, deal):
        places = card_places(state)
        assert len(places) == len(set(places)) == len(deal.deck)
        if isinstance(event, Exchanged):
            thrown[event.box] = set(event.cards)
        elif isinstance(event, CardsDrawn):
            assert not thrown[event.box] & set(event.cards)
        elif isinstance(event, DealerExchanged):
            assert not set(event.discarded) & set(event.drawn)


@SETTINGS
@given(data=st.data())
def test_the_dealer_never_discards_a_joker(data: st.DataObject) -> None:
    deal = data.draw(deals())
    dealt: tuple[Card, ...] = ()
    for state, event in play_out(data, deal):
        if isinstance(event, CardsDealt):
            dealt = event.dealer
        if isinstance(event, DealerExchanged):
            assert not any(c.is_joker for c in event.discarded)
            assert {c for c in dealt if c.is_joker} <= set(state.dealer)


def _qualifies(cards: tuple[Card, ...]) -> bool:
    """Jacks or better, read from the category and the pair's rank."""
    kind = category(cards, Ranking.JOKER_HIGH)
    pair_rank = rank_joker_high(cards) >> 16 & 0xF
    return kind not in (Category.HIGH_CARD, Category.ONE_PAIR) or (
        kind is Category.ONE_PAIR and pair_rank >= 11
    )


@SETTINGS
@given(data=st.data())
def test_every_payout_is_the_pay_tables(data: st.DataObject) -> None:
    deal = data.draw(deals())
    table = deal.rules.pay_table.to_json()
    for state, event in play_out(data, deal):
        if not isinstance(event, BoxSettled):
            continue
        box = state.boxes[event.box]
        ante, bet = box.ante, box.bet
        mine, dealer = rank_joker_high(box.cards), rank_joker_high(state.dealer)
        if box.folded:
            expected = (Result.FOLD, 0)
        elif not _qualifies(state.dealer):
            expected = (Result.NOT_QUALIFIED, ante + (2 * ante) // 3 + bet)
        elif mine > dealer:
            expected = (Result.WIN, ante + bet + bet * table[event.hand.value])
        elif mine < dealer:
            expected = (Result.LOSE, 0)
        else:
            expected = (Result.PUSH, ante + bet)
        assert (event.result, event.won) == expected


@SETTINGS
@given(data=st.data())
def test_the_fold_of_the_events_is_the_state_and_events_survive_json(data: st.DataObject) -> None:
    deal = data.draw(deals())
    history: list[CasinoEvent] = []
    states: list[CasinoState] = []
    for state, event in play_out(data, deal):
        decoded = from_json(json.loads(json.dumps(to_json(event))))
        assert decoded == event
        history.append(decoded)
        states.append(state)
    assert [replay(history[: k + 1]) for k in range(len(history))] == states


def _visible(state: CasinoState, event: CasinoEvent, viewer: int | None) -> set[Card]:
    """The cards of ``event`` that ``viewer`` may see."""
    if isinstance(event, DealerRevealed):
        return set(event.cards)
    if isinstance(event, DealerExchanged):
        return set(event.discarded) | set(event.drawn)
    if isinstance(event, CardsDealt) and viewer is not None:
        return set(event.hands[viewer])
    if isinstance(event, Exchanged | CardsDrawn) and event.box == viewer:
        return set(event.cards)
    return set()


@SETTINGS
@given(data=st.data())
def test_views_and_redacted_events_never_show_a_hidden_card(data: st.DataObject) -> None:
    deal = data.draw(deals())
    viewers: list[int | None] = [SPECTATOR, *range(len(deal.boxes))]
    seen: dict[int | None, set[Card]] = {v: set() for v in viewers}
    for state, event in play_out(data, deal):
        for viewer in viewers:
            seen[viewer] |= _visible(state, event, viewer)
            text = json.dumps(redact(event, viewer))
            assert {c for c in deal.deck if f'"{c}"' in text} <= seen[viewer]
            own = set(state.boxes[viewer].cards) if viewer is not None else set()
            dealer = set(state.dealer) if state.dealer_shown else set()
            text = json.dumps(view(state, viewer))
            assert {c for c in deal.deck if f'"{c}"' in text} <= own | dealer | set(
                state.dealer_discarded
            )
