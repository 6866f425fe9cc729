"""A tournament played on its own tables: opened at the start, hands dealt
by the tournament, played by bots through ``poker.services.hand_act``,
reported when they end, players moved, tables broken, the final table
drawn, prizes paid."""

from __future__ import annotations

import itertools
import random
import weakref
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest

from bench.simulation import Passive
from kernel.eventstore import load
from poker import streams
from poker.engine.rules import Game
from poker.models import Hand, Seat, Table
from tests.poker.api_support import seed_decks
from tests.tournaments.service_support import (
    bot_act,
    cash,
    create,
    fresh,
    pool,
    register,
    state,
    tournament_tables,
)
from tournaments.rules import Status
from tournaments.rules import queries as q

pytestmark = pytest.mark.django_db(transaction=False)


@pytest.fixture
def playing(settings: Any) -> None:
    settings.TOURNAMENT_TABLES = True


def _open_chips(tournament_id: int) -> int:
    total = 0
    for table in tournament_tables(tournament_id):
        s = streams.tables.state(table.stream, table.version)
        if not s.closed:
            total += s.chips
    return total


_turns: weakref.WeakKeyDictionary[random.Random, Iterator[int]] = weakref.WeakKeyDictionary()
"""Where ``_act_once`` starts looking: the next table each time, counted
for each test's bots (their random source) from the first table."""


def _act_once(tournament_id: int, users: dict[str, Any], rng: random.Random) -> bool:
    """One bot action at some running hand; whether any was made.  With
    nobody to act anywhere the deal timer fires first, as it would (a hand
    that ended as it was dealt, all in from the blinds, leaves the next
    hand to a command of its own)."""
    from tournaments import play

    for _ in range(2):
        tables = tournament_tables(tournament_id)
        turn = next(_turns.setdefault(rng, itertools.count()))
        start = turn % max(len(tables), 1)  # each table in turn, as hands run side by side
        for table in tables[start:] + tables[:start]:
            act = bot_act(table, users, rng)
            if act is not None:
                _bet_in_time(act, lambda t=table: bot_act(t, users, Passive()))
                return True
        play.deal_due(tournament_id=tournament_id)
    return False


def _bet_in_time(act: Any, passive: Any) -> None:
    """``act``; or, if the 32 Card Draw bet window closed while the other
    tables played (the bots act at one table at a time), a call or check."""
    from kernel.api_errors import ApiError

    try:
        act()
    except ApiError as refused:
        if refused.code != "bet_window_closed":
            raise
        passive()()


@pytest.mark.parametrize(("entries", "size"), [(9, 4), (12, 5)])
def test_a_sit_and_go_plays_to_the_end_on_itstournament_tables(
    director: Any, players: Any, playing: None, pools_paid: None, entries: int, size: int
) -> None:
    rng = random.Random(7)
    people = players(entries)
    users = {str(u.pk): u for u in people}
    before = sum(cash(u) for u in people)
    t = create(
        director,
        game=Game.THIRTY_TWO_CARD_DRAW,
        sit_and_go=True,
        max_players=entries,
        table_size=size,
    )
    register(t, *people)
    s = state(t)
    assert s.status is Status.RUNNING
    total = s.definition.starting_stack * entries
    assert len(tournament_tables(t.pk)) == len(s.tables) >= 3
    assert any(Hand.objects.filter(table__tournament=t.pk))

    final_seen = False
    for _ in range(20_000):
        s = state(t)
        if s.status is not Status.RUNNING:
            break
        alive = sum(e.stack for e in q.alive(s))
        assert alive == total
        assert _open_chips(t.pk) == total
        final_seen = final_seen or s.final_table is not None
        assert _act_once(t.pk, users, rng), "no hand running while the tournament runs"
    s = state(t)
    assert s.status is Status.FINISHED
    assert final_seen
    assert s.awards is not None
    assert pool(t) == 0
    fees = s.definition.fee * entries
    assert sum(cash(u) for u in people) == before - fees
    assert all(table.status == Table.Status.CLOSED for table in tournament_tables(t.pk))
    kinds = Counter(e.type for e in load(fresh(t).stream))
    assert kinds["tournament.final_table_drawn"] == 1
    assert kinds["tournament.table_broken"] >= 1  # three tables came down to two first
    assert kinds["tournament.player_eliminated"] == entries - 1
    assert (
        kinds["tournament.hand_started"]
        == kinds["tournament.hand_finished"]
        == Hand.objects.filter(table__tournament=t.pk).count()
    )


def test_rebuys_moves_and_a_disqualification_reach_thetournament_tables(
    director: Any, players: Any, playing: None, pools_paid: None
) -> None:
    from kernel.api_errors import ApiError
    from tournaments import services
    from tournaments.rules import Rebuys, can_rebuy

    rng = random.Random(11)
    people = players(8)
    users = {str(u.pk): u for u in people}
    t = create(
        director,
        game=Game.THIRTY_TWO_CARD_DRAW,
        sit_and_go=True,
        max_players=8,
        table_size=4,
        rebuys=Rebuys(until_level=6, chips=1000, price=100, max_rebuys=1),
    )
    register(t, *people)
    moved = disqualified = False
    rebought = 0
    for step in range(20_000):
        s = state(t)
        if s.status is not Status.RUNNING:
            break
        assert _open_chips(t.pk) == sum(e.stack for e in q.alive(s))
        for e in q.alive(s):
            if e.stack == 0 and not q.in_hand(s, e.player):
                if can_rebuy(s, e.player):
                    services.tournament_rebuy(by=users[e.player], tournament_id=t.pk)
                    rebought += 1
                else:
                    services.tournament_decline_rebuy(by=users[e.player], tournament_id=t.pk)
                s = state(t)
        if not moved and step >= 5 and len(s.tables) > 1:
            for e in q.alive(s):
                if q.in_hand(s, e.player) or e.table is None:
                    continue
                other = next(n for n in sorted(s.tables) if n != e.table)
                free = sorted(set(range(1, 5)) - set(s.tables[other].seats))
                if not free:
                    continue
                try:
                    services.tournament_move(
                        by=director,
                        tournament_id=t.pk,
                        player=int(e.player),
                        table=other,
                        seat=free[0],
                    )
                except ApiError:
                    continue
                moved = True
                break
        if not disqualified and step >= 40 and len(q.alive(s)) > 3:
            victim = max(q.alive(s), key=lambda e: e.stack)
            services.tournament_disqualify(
                by=director, tournament_id=t.pk, player=int(victim.player)
            )
            disqualified = True
        s = state(t)
        if s.status is not Status.RUNNING:
            break
        assert _open_chips(t.pk) == sum(e.stack for e in q.alive(s))
        _act_once(t.pk, users, rng)
    s = state(t)
    assert s.status is Status.FINISHED
    assert pool(t) == 0
    kinds = Counter(e.type for e in load(fresh(t).stream))
    assert kinds["tournament.player_rebought"] == rebought
    assert moved and kinds["tournament.player_moved"] >= 1
    assert disqualified and kinds["tournament.player_disqualified"] == 1
    assert all(table.status == Table.Status.CLOSED for table in tournament_tables(t.pk))


def test_a_table_deals_again_when_its_pause_is_over(
    director: Any,
    players: Any,
    playing: None,
    settings: Any,
    monkeypatch: pytest.MonkeyPatch,
    django_capture_on_commit_callbacks: Any,
) -> None:
    from datetime import timedelta

    from django.utils import timezone

    from tournaments import clocks, play

    settings.CLOCKS_ENABLED = True
    timers: list[tuple[int, Any]] = []
    monkeypatch.setattr(clocks, "set_clock_timer", lambda *a: None)
    monkeypatch.setattr(clocks, "set_start_timer", lambda *a: None)
    monkeypatch.setattr(play, "set_deal_timer", lambda t, when: timers.append((t, when)))
    rng = Passive()  # nobody bets: the first hand ends nobody
    people = players(4)
    users = {str(u.pk): u for u in people}
    t = create(director, game=Game.THIRTY_TWO_CARD_DRAW, sit_and_go=True, max_players=4)
    register(t, *people)
    (table,) = tournament_tables(t.pk)
    assert table.hand_number == 1 and not timers  # the first hand is dealt at once
    with django_capture_on_commit_callbacks(execute=True):
        for _ in range(500):
            if not _act_once(t.pk, users, rng):
                break
    table.refresh_from_db()
    assert table.hand_number == 1 and table.current_hand_id is not None
    assert timers and timers[-1][0] == t.pk
    assert not streams.tables.state(table.stream, table.version).hand_running
    play.deal_due(tournament_id=t.pk)  # too early: nothing dealt
    table.refresh_from_db()
    assert table.hand_number == 1
    if state(t).status is not Status.RUNNING:
        return  # the first hand ended it
    Table.objects.filter(pk=table.pk).update(next_hand_at=timezone.now() - timedelta(seconds=1))
    play.deal_due(tournament_id=t.pk)
    table.refresh_from_db()
    assert table.hand_number == 2
    with django_capture_on_commit_callbacks(execute=True):
        for _ in range(500):
            if not _act_once(t.pk, users, rng):
                break
    if state(t).status is not Status.RUNNING:
        return
    lost = timezone.now() - timedelta(hours=1)  # its timer lost: the sweep deals
    Table.objects.filter(pk=table.pk).update(next_hand_at=lost)
    clocks.sweep()
    table.refresh_from_db()
    assert table.hand_number == 3
    assert streams.tables.state(table.stream, table.version).hand_running


def test_a_tournament_called_off_mid_hand_closes_itstournament_tables(
    director: Any, players: Any, playing: None, pools_paid: None
) -> None:
    from tournaments import services

    people = players(8)
    users = {str(u.pk): u for u in people}
    before = sum(cash(u) for u in people)
    t = create(
        director, game=Game.THIRTY_TWO_CARD_DRAW, sit_and_go=True, max_players=8, table_size=4
    )
    register(t, *people)
    rng = Passive()
    _act_once(t.pk, users, rng)  # a hand runs at every table
    services.tournament_cancel(by=director, tournament_id=t.pk, reason="test")
    assert state(t).status is Status.CANCELLED
    for _ in range(500):  # the running hands play out, then their tables close
        if not _act_once(t.pk, users, rng):
            break
    assert all(table.status == Table.Status.CLOSED for table in tournament_tables(t.pk))
    assert sum(cash(u) for u in people) == before


def test_a_faster_clock_shortens_the_pause_between_hands(
    director: Any, players: Any, playing: None
) -> None:
    from dataclasses import replace

    from tests.tournaments.support import structure

    pauses = []
    people = players(4)
    for scale, pair in ((60, people[:2]), (12, people[2:])):
        t = create(
            director,
            game=Game.THIRTY_TWO_CARD_DRAW,
            sit_and_go=True,
            max_players=2,
            structure=replace(structure(4, 1), minute_seconds=scale),
        )
        register(t, *pair)
        (table,) = tournament_tables(t.pk)
        pauses.append(streams.tables.state(table.stream, table.version).config.pause_seconds)
    assert pauses == [5, 1]  # five seconds of play, one of a clock five times as fast


def test_late_entries_and_re_entries_sit_down_at_thetournament_tables(
    director: Any, players: Any, playing: None, pools_paid: None, clock: Any
) -> None:
    """A late registrant is seated at a table with the starting stack; a
    busted player who enters again is seated again; the tables' chips are
    the stacks throughout."""
    from tests.tournaments.service_support import start

    rng = random.Random(5)
    people = players(5)
    users = {str(u.pk): u for u in people}
    t = create(
        director, game=Game.THIRTY_TWO_CARD_DRAW, late_registration_level=6, re_entries=2,
        table_size=4,
    )  # fmt: skip
    register(t, *people[:4])
    start(t, clock)
    assert len(tournament_tables(t.pk)) == 1
    register(t, people[4])  # late: seated at once
    s = state(t)
    late = s.entrants[str(people[4].pk)]
    assert late.table is not None and late.stack == s.definition.starting_stack
    assert _open_chips(t.pk) == sum(e.stack for e in q.alive(s))
    re_entered = 0
    for _ in range(5_000):
        s = state(t)
        assert _open_chips(t.pk) == sum(e.stack for e in q.alive(s))
        out = [p for p, e in s.entrants.items() if e.out and e.entries < 3]
        if out and re_entered < 2:
            register(t, users[out[0]])  # back in: a new entry
            re_entered += 1
            s = state(t)
            assert s.entrants[out[0]].table is not None
            continue
        if re_entered == 2 or s.status is not Status.RUNNING:
            break
        _act_once(t.pk, users, rng)
    assert re_entered == 2
    kinds = Counter(e.type for e in load(fresh(t).stream))
    assert kinds["tournament.player_registered"] == 7 and kinds["tournament.player_seated"] >= 7


@pytest.mark.parametrize("who", ["late", "re-entry"])
def test_a_newcomer_after_a_table_broke_opens_a_new_table_not_the_closed_one(
    director: Any, players: Any, playing: None, pools_paid: None, clock: Any, who: str
) -> None:
    """A table breaks while entries are still taken; newcomers (late
    registrants or re-entries) fill the table left, then one opens a new
    table: numbered after every table so far, a new open table (the
    broken one's table is closed for good), and play goes on with the
    tables' chips the stacks throughout."""
    from tests.tournaments.service_support import start

    rng = random.Random(3)
    people = players(9)
    users = {str(u.pk): u for u in people}
    t = create(director, late_registration_level=6, re_entries=2, table_size=3)
    register(t, *people[:6])
    start(t, clock)
    assert sorted(state(t).tables) == [1, 2]
    for _ in range(20_000):
        s = state(t)
        assert s.status is Status.RUNNING and _open_chips(t.pk) == sum(e.stack for e in q.alive(s))
        if len(s.tables) == 1:
            break
        _act_once(t.pk, users, rng)
    (left,) = state(t).tables
    closed = {table.pk for table in tournament_tables(t.pk) if table.status == Table.Status.CLOSED}
    assert len(closed) == 1
    late = iter(people[6:])
    while len(state(t).tables) == 1:
        s = state(t)
        out = [p for p, e in sorted(s.entrants.items()) if e.out]
        register(t, users[out[0]] if who == "re-entry" else next(late))
    s = state(t)
    assert s.top_table == 3 and sorted(s.tables) == sorted({left, 3})
    rows = {table.tournament_table: table for table in tournament_tables(t.pk)}
    assert rows[3].pk not in closed and rows[3].status != Table.Status.CLOSED
    hands = s.last_hand
    for _ in range(200):  # play on (at most to one player left: entries are still taken)
        s = state(t)
        if len(q.alive(s)) == 1:
            break
        assert _open_chips(t.pk) == sum(e.stack for e in q.alive(s))
        _act_once(t.pk, users, rng)
    s = state(t)
    assert s.last_hand > hands
    assert _open_chips(t.pk) == sum(e.stack for e in q.alive(s))


def test_on_the_bubble_the_tables_play_hand_for_hand(
    director: Any, players: Any, playing: None, pools_paid: None, monkeypatch: Any
) -> None:
    """Satellites of 12 on tables of three for 6 seats: with 7 left on two
    or more tables, each table deals one hand and waits until every table
    has finished its hand before any deals again.  (A bust can pass the
    bubble at once, so satellites are played until one has played hand for
    hand; the decks are seeded, so the same satellites are played every run.)"""
    from tournaments.rules import Satellite

    seed_decks(monkeypatch, 12)
    rng = random.Random(12)
    target = create(director, name="Main", buy_in=180, fee=20)
    people = players(12)
    users = {str(u.pk): u for u in people}
    played = []
    for _ in range(5):
        t = create(
            director, game=Game.THIRTY_TWO_CARD_DRAW, sit_and_go=True, max_players=12,
            table_size=3, satellite=Satellite(str(target.pk), 200),
        )  # fmt: skip
        register(t, *people)
        for _ in range(20_000):
            if state(t).status is not Status.RUNNING or not _act_once(t.pk, users, rng):
                break
        assert state(t).status is Status.FINISHED
        played.append(_hands_hand_for_hand(t))
        if played[-1] >= 2:
            break
    assert max(played) >= 2, played


def _hands_hand_for_hand(t: Any) -> int:
    """Hands dealt hand for hand, checking no table dealt twice in a round."""
    from tournaments.projections import decode
    from tournaments.rules import HandFinished, HandStarted, evolve

    folded = None
    this_round: set[int] = set()
    dealt = 0
    for row in load(fresh(t).stream):
        event = decode(row)
        was = folded
        folded = evolve(folded, event)
        if isinstance(event, HandStarted) and was is not None and was.hand_for_hand:
            assert event.table not in this_round, "a table dealt twice in one round"
            this_round.add(event.table)
            dealt += 1
        if isinstance(event, HandFinished) and not folded.hands:
            this_round = set()  # every table is done: the next round
    return dealt


def test_the_detail_names_the_tables_to_watch_and_the_players_own(
    director: Any, players: Any, playing: None, client_for: Any
) -> None:
    people = players(8)
    t = create(
        director, game=Game.THIRTY_TWO_CARD_DRAW, sit_and_go=True, max_players=8, table_size=4
    )
    register(t, *people)
    detail = client_for(people[0]).get(f"/api/tournaments/{t.pk}/").json()
    ids = {table.tournament_table: table.pk for table in tournament_tables(t.pk)}
    assert detail["tables_in_play"] == [
        {"number": n, "table_id": ids[n], "players": 4} for n in sorted(ids)
    ]
    you = detail["you"]
    assert you["table_id"] == ids[you["table"]]
    seat = Seat.objects.get(table=you["table_id"], number=you["seat"])
    assert seat.player_id == people[0].pk
    assert client_for(None).get(f"/api/tournaments/{t.pk}/").json()["you"] is None
