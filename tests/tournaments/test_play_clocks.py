"""A tournament's tables on their clocks: the timers the commands set are
caught, and the test fires them as their tasks would once due (a turn's
clock run out, a pause between hands over, a level over), each in a
command of its own.  Away players, the director's pause, moves and who is
in a hand as the tables and the tournament see them."""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field, replace
from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from bench.simulation import Passive
from poker import clocks as table_clocks
from poker import streams
from poker import work as work_module
from poker.engine.rules import Game
from poker.engine.table import TableState
from poker.models import Hand, Table
from poker.work import Work
from tests.tournaments.service_support import (
    bot_act,
    create,
    fresh,
    register,
    state,
    tick,
    tournament_tables,
)
from tests.tournaments.support import structure
from tournaments import clocks, play, services
from tournaments.rules import BlindLevel, Status, Structure

pytestmark = pytest.mark.django_db(transaction=False)


@dataclass
class Timers:
    """The deal timers set after each commit (caught, not queued)."""

    deals: list[int] = field(default_factory=list)


@pytest.fixture
def timers(settings: Any, monkeypatch: pytest.MonkeyPatch) -> Timers:
    """Clocks on, tournament tables on; every timer caught (of a command
    run under ``django_capture_on_commit_callbacks``); and a table that
    deals twice in one command fails the test at once (rather than hang it
    in a loop of hands)."""
    settings.CLOCKS_ENABLED = True
    settings.TOURNAMENT_TABLES = True
    caught = Timers()
    monkeypatch.setattr(play, "set_deal_timer", lambda t, when: caught.deals.append(t))
    monkeypatch.setattr(clocks, "set_clock_timer", lambda *a: None)
    monkeypatch.setattr(clocks, "set_start_timer", lambda *a: None)
    deal = Work.deal

    def once(work: Work, rules: Any = None) -> bool:
        dealt = deal(work, rules)
        if dealt:
            assert not getattr(work, "test_dealt", False), "a command dealt twice at one table"
            work.test_dealt = True  # type: ignore[attr-defined]
        return dealt

    monkeypatch.setattr(Work, "deal", once)
    return caught


def _table(table: Table) -> TableState:
    table.refresh_from_db()
    return streams.tables.state(table.stream, table.version)


def _expire_turn(table: Table) -> None:
    """The clock of the player to act at ``table`` ran out (his time bank
    too): its timer fires."""
    table.refresh_from_db()
    hand = Hand.objects.get(pk=table.current_hand_id)
    Hand.objects.filter(pk=hand.pk).update(turn_started_at=timezone.now() - timedelta(hours=1))
    table_clocks.clock_expire(table_id=table.pk, stream=hand.stream, version=hand.version)


def _pause_over(t: Any, table: Table) -> None:
    """The pause after ``table``'s last hand is over: its deal timer fires."""
    Table.objects.filter(pk=table.pk).update(next_hand_at=timezone.now() - timedelta(seconds=1))
    play.deal_due(tournament_id=t.pk)


def _time_out_hand(table: Table) -> None:
    """Everyone to act at ``table`` lets his clock run out until the hand ends."""
    for _ in range(50):
        if not _table(table).hand_running:
            return
        _expire_turn(table)
    raise AssertionError("the hand never ended")


def _play_hand(table: Table, users: dict[str, Any]) -> None:
    """Passive bots play the hand at ``table`` to its end."""
    for _ in range(200):
        act = bot_act(table, users, Passive())
        if act is None:
            return
        act()
    raise AssertionError("the hand never ended")


def _sit_and_go(director: Any, people: list[Any], **changes: Any) -> Any:
    t = create(director, game=Game.THIRTY_TWO_CARD_DRAW, sit_and_go=True,
               max_players=len(people), **changes)  # fmt: skip
    register(t, *people)
    return t


FAST = replace(structure(4, 1), minute_seconds=12)
"""Levels of twelve seconds: tables pause a second between hands (5 s / 5)."""

BLINDED_OFF = Structure(
    tuple(BlindLevel(small, 2 * small, 0, 1) for small in (10, 100, 500, 5000)),
    minute_seconds=6,
)
"""Blinds that pass all the chips in play by the last level: away players
fold their blinds to each other until then (heads-up, for ever), and are
all in from the blinds, to a showdown, from then on."""


# --------------------------------------------------------------------------
# Away players: blinded off one hand at a time


def _all_away(t: Any, table: Table) -> None:
    """Play at ``table`` with every player letting his clock run out until
    all of them are away."""
    for _ in range(20):
        if all(s.sitting_out for s in _table(table).seats.values()):
            return
        if _table(table).hand_running:
            _time_out_hand(table)
        else:
            _pause_over(t, table)
    raise AssertionError("the players never all went away")


@pytest.mark.parametrize("pause", [0, 1])
def test_a_table_where_everyone_is_away_deals_one_hand_per_command(
    director: Any,
    players: Any,
    timers: Timers,
    django_capture_on_commit_callbacks: Any,
    pause: int,
) -> None:
    """A table's pause between hands: five seconds of a clock whose minute
    lasts six or twelve seconds."""
    committed = django_capture_on_commit_callbacks
    t = _sit_and_go(director, players(3), structure=replace(FAST, minute_seconds=6 + 6 * pause))
    (table,) = tournament_tables(t)
    assert _table(table).config.pause_seconds == pause
    _all_away(t, table)
    for _ in range(5):
        number = _table(table).hand_number
        timers.deals.clear()
        with committed(execute=True):
            _pause_over(t, table)
        after = _table(table)
        assert after.hand_number == number + 1  # one hand, played out by itself
        assert not after.hand_running
        assert timers.deals == [t.pk]  # the next one waits for its own timer
        if pause:
            play.deal_due(tournament_id=t.pk)  # and for the pause to end
            assert _table(table).hand_number == number + 1


def test_a_sit_and_go_whose_players_are_all_away_still_ends(
    director: Any, players: Any, timers: Timers, clock: Any
) -> None:
    t = _sit_and_go(director, players(3), structure=BLINDED_OFF)
    (table,) = tournament_tables(t)
    _all_away(t, table)
    for hand in range(1, 300):
        if state(t).status is not Status.RUNNING:
            break
        if hand % 5 == 0 and fresh(t).level_ends_at is not None:
            tick(t, clock)  # the levels move on meanwhile
        number = _table(table).hand_number
        _pause_over(t, table)
        assert _table(table).hand_number <= number + 1
    assert state(t).status is Status.FINISHED
    assert Table.objects.get(pk=table.pk).status == Table.Status.CLOSED


# --------------------------------------------------------------------------
# The director's pause


def test_a_pause_stops_the_dealing_and_the_levels_and_the_resume_restarts_both(
    director: Any, players: Any, timers: Timers, clock: Any
) -> None:
    people = players(3)
    users = {str(u.pk): u for u in people}
    t = _sit_and_go(director, people, structure=FAST)
    (table,) = tournament_tables(t)
    services.tournament_pause(by=director, tournament_id=t.pk)
    _play_hand(table, users)  # the hand running finishes
    assert _table(table).hand_number == 1 and not _table(table).hand_running
    clock.later(3_600)
    _pause_over(t, table)  # its deal timer: no hand
    Table.objects.filter(pk=table.pk).update(next_hand_at=timezone.now() - timedelta(hours=1))
    clocks.sweep()  # nor the sweep, nor a level change
    assert _table(table).hand_number == 1 and fresh(t).level == 1
    services.tournament_resume(by=director, tournament_id=t.pk)
    assert _table(table).hand_number == 2 and _table(table).hand_running
    tick(t, clock)
    assert fresh(t).level == 2


def test_a_resume_sets_the_deal_timer_of_a_table_whose_pause_still_runs(
    director: Any,
    players: Any,
    timers: Timers,
    django_capture_on_commit_callbacks: Any,
) -> None:
    """A table the rules held back (the clock stopped) when its hand ended
    had no deal timer: the command that lets it deal sets one for the end
    of its pause."""
    people = players(3)
    users = {str(u.pk): u for u in people}
    t = _sit_and_go(director, people, structure=FAST)
    (table,) = tournament_tables(t)
    services.tournament_pause(by=director, tournament_id=t.pk)
    _play_hand(table, users)
    Table.objects.filter(pk=table.pk).update(next_hand_at=timezone.now() + timedelta(hours=1))
    timers.deals.clear()
    with django_capture_on_commit_callbacks(execute=True):
        services.tournament_resume(by=director, tournament_id=t.pk)
    assert timers.deals == [t.pk]
    assert _table(table).hand_number == 1 and not _table(table).hand_running


# --------------------------------------------------------------------------
# A field of many tables: a hand over costs its own table's work


def test_a_hand_over_leaves_alone_the_tables_in_their_pause(
    director: Any,
    players: Any,
    timers: Timers,
    django_capture_on_commit_callbacks: Any,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The report of a hand at one table deals there, or sets its deal
    timer: it neither locks nor loads a table of the tournament whose pause
    runs (its timer is set already), nor sets that table's timer again."""
    people = players(10)
    users = {str(u.pk): u for u in people}
    t = _sit_and_go(director, people, structure=FAST, table_size=5)
    one, two = tournament_tables(t)
    _play_hand(one, users)
    Table.objects.filter(pk=one.pk).update(next_hand_at=timezone.now() + timedelta(hours=1))
    loaded: list[int] = []
    load = work_module.load
    monkeypatch.setattr(work_module, "load", lambda pk: loaded.append(pk) or load(pk))
    timers.deals.clear()
    with django_capture_on_commit_callbacks(execute=True):
        _play_hand(two, users)
    assert one.pk not in loaded and two.pk in loaded
    assert timers.deals == [t.pk]  # table two's own timer, for its pause
    assert _table(one).hand_number == 1 and not _table(one).hand_running


# --------------------------------------------------------------------------
# Moves


def test_a_player_moved_while_away_stays_away_with_the_time_bank_he_had_left(
    director: Any, players: Any, timers: Timers
) -> None:
    t = _sit_and_go(director, players(8), structure=FAST, table_size=5)
    one, two = tournament_tables(t)
    _time_out_hand(one)  # everyone to act ran out his clock, his time bank too
    away = [s for s in _table(one).seats.values() if s.sitting_out]
    assert away
    held = away[0]
    assert held.bank < _table(one).config.time_bank_seconds
    free = min(set(range(1, 6)) - set(_table(two).seats))
    services.tournament_move(by=director, tournament_id=t.pk, player=int(held.player),
                             table=two.tournament_table, seat=free)  # fmt: skip
    moved = _table(two).seats[free]
    assert moved.player == held.player
    assert moved.sitting_out and moved.bank == held.bank


def test_an_away_player_drawn_to_the_final_table_stays_away_with_his_time_bank_left(
    director: Any, players: Any, timers: Timers
) -> None:
    """The final table draw reseats everybody as a balance move does: it
    must neither bring an away player back nor refill his bank."""
    t = _sit_and_go(director, players(6), structure=FAST, table_size=5)  # two tables of three
    one, two = tournament_tables(t)
    _time_out_hand(one)  # everyone to act ran out his clock, his time bank too
    _time_out_hand(two)
    held = next(s for s in _table(one).seats.values() if s.sitting_out)
    assert held.bank < _table(one).config.time_bank_seconds
    leaving = next(iter(_table(two).seats.values())).player
    services.tournament_disqualify(by=director, tournament_id=t.pk, player=int(leaving))
    assert state(t).final_table == 1  # five left, no hand running: the final table is drawn
    (final,) = [s for s in _table(one).seats.values() if s.player == held.player]
    assert final.sitting_out and final.bank == held.bank


def test_a_player_the_table_did_not_deal_in_is_not_in_the_tournaments_hand(
    director: Any, players: Any, timers: Timers, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Moved between the button and the small blind, he waits for the button
    to pass (TDA): the tournament too counts him out of that hand, so he may
    be moved again (or rebuy, or take the add-on) while it runs."""
    decide = importlib.import_module("tournaments.rules.decide")  # the module, not the function
    people = players(4)
    users = {str(u.pk): u for u in people}
    a, b, c, d = sorted(users, key=int)
    drawn = {1: {1: a, 2: b, 4: c, 5: d}}  # hand 1: button 1, blinds 2 and 4, the over blind 5
    monkeypatch.setattr(decide, "draw_seating", lambda *args: drawn)
    monkeypatch.setattr(decide, "draw_button", lambda *args: 1)  # the button drawn to seat 1
    t = _sit_and_go(director, people, structure=FAST, table_size=5)
    (table,) = tournament_tables(t)
    _play_hand(table, users)
    services.tournament_move(by=director, tournament_id=t.pk, player=int(a), table=1, seat=3)
    _pause_over(t, table)  # hand 2: button 2, blinds 4 and 5; seat 3 waits
    assert _table(table).hand_running and _table(table).hand_seats == (2, 4, 5)
    s = state(t)
    (hand,) = s.hands.values()
    assert [p.seat for p in hand.players] == [2, 4, 5]
    services.tournament_move(by=director, tournament_id=t.pk, player=int(a), table=1, seat=1)
    assert _table(table).seats[1].player == a
