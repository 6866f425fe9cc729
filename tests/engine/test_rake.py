"""RULES.md 8, the rake on cash tables: the sums (``poker.engine.rake``),
the hand that takes it (``HandRaked`` before the awards), the table that
lets it go (``HandFinished.rake``), and hypothesis over random hands:
pots awarded plus rake is the pot, stacks plus rake are the chips dealt
in, and no hand is raked before its first draw.

The rule scripts are ``tests/engine/scripts/rake-*.json``."""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pokerkit import HandHistory

from poker.engine.commands import Deal
from poker.engine.errors import EngineError, Malformed
from poker.engine.events import DrawStarted, HandRaked, HandStarted, from_json, to_json
from poker.engine.hand import replay, start
from poker.engine.history import to_phh
from poker.engine.rake import Rake, RakePreset, percent_basis_points, preset_settings
from poker.engine.rules import Betting, Game
from poker.engine.script import run
from poker.engine.state import HandState
from poker.engine.table import (
    FinishHand,
    HandFinished,
    TableConfig,
    TableState,
    plan_hand,
    play_table,
)
from poker.engine.view import SPECTATOR, view
from tests.engine.table_support import FIVE, deal, table
from tests.engine.test_history_phh import SINGLE_DRAW_NL, script_events
from tests.engine.test_properties import COMBINATIONS, SETTINGS, deals, play_out

# --------------------------------------------------------------------------
# The sums


def test_each_pot_is_raked_rounded_down_to_the_chip() -> None:
    assert Rake(500).takes([39, 21]) == (1, 1)


def test_the_cap_is_for_the_whole_hand_main_pot_first() -> None:
    assert Rake(1000, cap=8).takes([60, 60, 60]) == (6, 2, 0)


def test_pots_coming_to_less_than_the_smallest_raked_pot_are_not_raked() -> None:
    assert Rake(1000, cap=50, min_pot=100).takes([60, 39]) == (0, 0)
    assert Rake(1000, cap=50, min_pot=99).takes([60, 39]) == (6, 3)


def test_zero_percent_or_a_zero_cap_takes_nothing() -> None:
    assert Rake(0, cap=10).takes_nothing and Rake(500, cap=0).takes_nothing
    assert Rake(500, cap=0).takes([100]) == (0,)
    assert not Rake(500).takes_nothing


@pytest.mark.parametrize(
    ("basis_points", "cap", "min_pot"),
    [(-1, None, 0), (10_001, None, 0), (500, -1, 0), (500, None, -1), (5.0, None, 0)],
)
def test_nonsense_rake_is_refused(basis_points: object, cap: object, min_pot: object) -> None:
    with pytest.raises(Malformed):
        Rake(basis_points, cap, min_pot)  # type: ignore[arg-type]


def test_a_percent_is_read_as_whole_basis_points() -> None:
    assert percent_basis_points(5) == 500
    assert percent_basis_points(2.5) == 250
    assert percent_basis_points(2.55) == 255  # the decimal text, not the float
    for bad in (2.555, "5", True, None, float("nan")):
        with pytest.raises(Malformed):
            percent_basis_points(bad)


def test_presets_scale_with_the_big_blind() -> None:
    assert preset_settings(RakePreset.STANDARD, 6) == {
        "rake_basis_points": 500,
        "rake_cap": 18,
        "rake_min_pot": 6,
    }
    none = preset_settings(RakePreset.NONE, 6)
    config = TableConfig.from_settings({**FIVE_SETTINGS, **none})
    assert config.rake is None


# --------------------------------------------------------------------------
# The table's settings

FIVE_SETTINGS = {"game": "five-card-draw", "betting": "no-limit", "small_blind": 1, "big_blind": 2}


def test_a_table_takes_no_rake_unless_set() -> None:
    assert TableConfig.create(FIVE).rake is None


def test_a_table_rake_comes_from_its_three_settings() -> None:
    given = {**FIVE_SETTINGS, "rake_basis_points": 500, "rake_cap": 6, "rake_min_pot": 4}
    assert TableConfig.from_settings(given).rake == Rake(500, 6, 4)


def test_tournament_tables_take_no_rake_whatever_the_settings() -> None:
    config = replace(TableConfig.for_tournament(3, FIVE, 6), rake_basis_points=500)
    assert config.rake is None


def test_the_table_deals_its_rake_into_the_hand() -> None:
    state = _raking_table()
    plan = plan_hand(replace(state, hand_running=False), None)
    assert plan is not None
    opening = start(plan.to_deal(FIVE, FIVE.variant.deck, 1, state.config.rake))
    assert isinstance(opening[0], HandStarted) and opening[0].rake == Rake(500, 6)


# --------------------------------------------------------------------------
# The table lets the rake go


def _raking_table() -> TableState:
    """Two players at a table raking 5 % capped at 6, a hand running."""
    state = table(FIVE, {1: "a", 2: "b"})
    config = replace(state.config, rake_basis_points=500, rake_cap=6)
    state, _ = deal(replace(state, config=config))
    return state


def test_a_finished_hand_may_leave_its_rake_with_the_house() -> None:
    state = _raking_table()
    after, (finished, *_) = play_table(state, FinishHand({1: 97, 2: 100}, rake=3))
    assert isinstance(finished, HandFinished) and finished.rake == 3
    assert after.raked == 3 and after.chips == 197


def test_stacks_and_rake_must_come_to_the_chips_dealt_in() -> None:
    state = _raking_table()
    with pytest.raises(EngineError, match="conserve"):
        play_table(state, FinishHand({1: 97, 2: 100}, rake=2))


def test_a_table_without_rake_refuses_one() -> None:
    state, _ = deal(table(FIVE, {1: "a", 2: "b"}))
    with pytest.raises(EngineError, match="no rake"):
        play_table(state, FinishHand({1: 97, 2: 100}, rake=3))


def test_the_raked_event_round_trips_under_its_stored_name() -> None:
    event = HandRaked(8, (6, 2))
    data = to_json(event)
    assert data["type"] == "hand.raked"
    assert from_json(data) == event


# --------------------------------------------------------------------------
# Random hands


@st.composite
def raked_deals(draw: st.DrawFn, game: Game, betting: Betting) -> Deal:
    deal_ = draw(deals(game, betting))
    rake = Rake(
        draw(st.sampled_from([100, 500, 1000, 2500, 10_000])),
        draw(st.one_of(st.none(), st.integers(1, 40))),
        draw(st.sampled_from([0, 0, 5, 30])),
    )
    return replace(deal_, rake=rake)


@pytest.mark.parametrize(("game", "betting"), COMBINATIONS, ids=lambda v: str(v))
@SETTINGS
@given(data=st.data())
def test_pots_awarded_and_rake_make_the_pot_and_no_draw_no_drop(
    game: Game, betting: Betting, data: st.DataObject
) -> None:
    deal_ = data.draw(raked_deals(game, betting))
    rake = deal_.rake
    assert rake is not None
    total = sum(stack for _, stack in deal_.players)
    drew = False
    raked: list[HandRaked] = []
    for state, event in play_out(data, deal_):
        drew = drew or isinstance(event, DrawStarted)
        if isinstance(event, HandRaked):
            raked.append(event)
            assert not state.awards, "the rake comes out before any pot is awarded"
        # Behind or in the pot: nothing else; the pot pays the awards and the rake.
        awarded = sum(a.amount for a in state.awards)
        pot = sum(p.total + p.dead for p in state.players)
        assert sum(p.stack for p in state.players) - awarded + pot == total
        assert state.raked == sum(r.amount for r in raked)
        assert awarded + state.raked <= pot
    assert state.complete
    assert sum(a.amount for a in state.awards) + state.raked == pot
    assert sum(p.stack for p in state.players) + state.raked == total
    expected = expected_takes(state, rake) if drew else ()
    assert state.raked == sum(expected)
    assert raked == ([HandRaked(sum(expected), expected)] if sum(expected) else [])
    if rake.cap is not None:
        assert state.raked <= rake.cap


def expected_takes(state: HandState, rake: Rake) -> tuple[int, ...]:
    """RULES.md 8 worked out here, apart from the engine: the pots layered
    by the totals of those still in (a folded player's chips in the layers
    they reach, beyond them in the last; dead money in the main pot), and
    from each, main pot first, its whole-chip share, all within the cap;
    nothing from pots that come to less than the smallest raked."""
    totals = [p.total for p in state.players]
    levels = sorted({p.total for p in state.players if not p.folded and p.total > 0})
    amounts = [
        sum(min(t, high) - min(t, low) for t in totals)
        for low, high in zip([0, *levels], levels, strict=False)
    ] or [0]
    amounts[-1] += sum(t - min(t, levels[-1] if levels else 0) for t in totals)
    amounts[0] += sum(p.dead for p in state.players)
    if sum(amounts) < rake.min_pot:
        return tuple(0 for _ in amounts)
    left = sum(amounts) if rake.cap is None else rake.cap
    takes = []
    for amount in amounts:
        take = min(amount * rake.basis_points // 10_000, left)
        takes.append(take)
        left -= take
    return tuple(takes)


# --------------------------------------------------------------------------
# Histories and views


def test_a_raked_hand_history_notes_the_rake_and_keeps_it_apart() -> None:
    """PHH: the rake is a line of the actions and ``_rake`` (PokerKit reads
    a ``rake`` key as its raking function); winnings are after the rake."""
    script = {**SINGLE_DRAW_NL, "rake": {"percent": 5, "cap": 10}}
    out = run(script)
    assert out["rake"] == 10
    text = to_phh(script_events(script), 3)
    assert "  # Rake 10: main pot 10\n" in text
    assert "  # main pot 200: p4 200\n" in text
    assert "finishing_stacks = [92, 58, 0, 200]\nwinnings = [0, 0, 0, 200]\n_rake = 10\n" in text
    loaded = HandHistory.loads(text)
    assert loaded.user_defined_fields["_rake"] == 10
    assert loaded.finishing_stacks == [92, 58, 0, 200]


def test_an_unraked_table_writes_no_rake() -> None:
    assert "_rake" not in to_phh(script_events(SINGLE_DRAW_NL), 3)


def test_the_view_shows_the_rake_and_what_it_took() -> None:
    script = {**SINGLE_DRAW_NL, "rake": {"percent": 5, "cap": 10}}
    state = replay(script_events(script))
    seen = view(state, SPECTATOR)
    assert seen["rake"] == {"basis_points": 500, "cap": 10, "min_pot": 0}
    assert seen["raked"] == 10
    assert view(replay(script_events(SINGLE_DRAW_NL)), 0)["rake"] is None
