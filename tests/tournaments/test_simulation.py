"""A 40-player 32 Card Draw satellite with rebuys and the add-on, played to
the end by bots (``bench.simulation``) through the services, with a
real Celery worker running its clocks (levels of two seconds): chips
conserved at every hand (at the tables and in the tournament), the ledger
balanced, and seats and cash paid exactly as the structure says."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command

from accounts import ledger
from accounts.audit import ledger_audit
from accounts.selectors import account_balance
from bench.simulate_command import Command
from bench.simulation import Plan, simulate, time_on_breaks
from kernel.eventstore import load
from poker.engine.table import evolve_table
from poker.engine.table.events import HandFinished as TableHandFinished
from poker.models import Table
from poker.streams import decode_table
from tests.tournaments.support import T0, Run, definition, players, structure
from tournaments import payments
from tournaments.models import Entrant, Tournament
from tournaments.projections import decode, rebuild
from tournaments.rules import (
    AddedOn,
    Break,
    Finished,
    HandFinished,
    LevelChanged,
    Rebought,
    Tick,
    evolve,
    replay,
)
from tournaments.rules import queries as q

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("pools_paid"),
    pytest.mark.redis,
    pytest.mark.postgres,
]

PLAN = Plan(
    players=40,
    level_minutes=1,
    minute_seconds=2,
    break_minutes=2,
    rebuy_until=6,
    max_rebuys=2,
    add_on=True,
    seat_value=500,
    registered_in_target=8,
    seed=40,
    time_limit=240,
    bot_threads=2,
)
"""Entries of 100 + 10 into seats worth 500; rebuys and the add-on (3000
chips for 100) through level 6 and its break (of four seconds: no add-on
during a hand, and on a loaded machine the hands running when the break
comes take seconds to end); eight bots already hold an entry to the
target, so a seat they win is paid in cash; two threads of bots act at
once, so tables race each other and the tournament.

Its time goes to the clock (twelve seconds of rebuys, then the break) and
to the hands that take the field down to the seats, each action a few
round trips to the database.  Eight tables still play down through several
table breaks; seats of 500 (a third of the field or more, as rebuys and
add-ons swell the pool) end it after twenty-odd busts, where 60 players
for seats of 1000 took some fifty."""


def test_a_40_player_satellite_with_rebuys_and_add_ons_plays_to_the_end(
    start_worker: Any, settings: Any
) -> None:
    settings.TOURNAMENT_TABLES = True
    start_worker()
    lines: list[str] = []
    report = simulate(PLAN, say=lines.append)
    report.tournament.refresh_from_db()
    events = [decode(row) for row in load(report.tournament.stream)]
    _played_by_the_clock(report, lines, replay(events), events)
    _chips_conserved_at_every_hand(report, events)
    _seats_and_cash_paid(report, events)
    assert ledger_audit() == []
    _rows_as_a_rebuild_writes_them(report)


def _played_by_the_clock(report: Any, lines: list[str], state: Any, events: list[Any]) -> None:
    """The clock went through every level in turn, past the rebuy window,
    and the progress lines followed it (a loaded machine may pass a level
    of two seconds between two lines: the stream, not the lines, must have
    every level)."""
    assert state.status.value == "finished"
    reached = [e.level for e in events if isinstance(e, LevelChanged)]
    assert reached == list(range(2, len(reached) + 2))
    assert reached[-1] > PLAN.rebuy_until  # the clock moved on past the window
    levels = [int(line.split(" level ")[1].split()[0]) for line in lines if " level " in line]
    assert levels == sorted(levels) and set(levels) <= {1, *reached}
    assert len(set(levels)) > PLAN.rebuy_until // 2  # lines as the clock went, not one at the end
    assert any("break after level 6" in line for line in lines)
    assert report.peak_tables == -(-PLAN.players // state.definition.seats_per_table)
    assert report.rebuys > 0 and report.add_ons > 0
    tickets = sum(a.ticket for a in state.awards)
    assert lines[-1].startswith(f"prizes: {tickets} tickets into tournament {report.target.pk}; ")


def _chips_conserved_at_every_hand(report: Any, events: list[Any]) -> None:
    """In the tournament: the stacks of the players left always add up to
    the chips bought.  At each table: a hand's end moves chips between its
    players, never more or fewer."""
    state = None
    bought = PLAN.players * PLAN.starting_stack
    hands = 0
    for event in events:
        state = evolve(state, event)
        if isinstance(event, Rebought | AddedOn):
            bought += event.chips
        if isinstance(event, HandFinished):
            hands += 1
            assert sum(e.stack for e in q.alive(state)) == bought
    assert hands == report.hands > 0
    checked = 0
    for table in Table.objects.filter(tournament=report.tournament.pk):
        folded = None
        for row in load(table.stream):
            event = decode_table(row)
            after = evolve_table(folded, event)
            if isinstance(event, TableHandFinished):
                assert after.chips == folded.chips, f"table {table.pk} hand {event.number}"
                checked += 1
            folded = after
    assert checked == hands


def _seats_and_cash_paid(report: Any, events: list[Any]) -> None:
    """Seats as the pool covers (at most one fewer than the field), a ticket
    each or its value in cash for a bot already in the target, the rest of
    the pool to the next place; players tied for places share what those
    places pay (in cash, unless all of them are seats); everyone else is
    left with what he brought less what he spent."""
    kinds = Counter(type(e).__name__ for e in events)
    pool = PLAN.buy_in * (PLAN.players + kinds["Rebought"] + kinds["AddedOn"])
    seats = min(pool // PLAN.seat_value, PLAN.players - 1)
    worth = {place: PLAN.seat_value for place in range(1, seats + 1)}
    worth[seats + 1] = pool - seats * PLAN.seat_value
    (finished,) = [e for e in events if isinstance(e, Finished)]
    assert len(finished.standings) == PLAN.players
    target, already = report.target.pk, set(list(report.bots)[: PLAN.registered_in_target])
    spent = Counter[str]()
    for e in events:
        if isinstance(e, Rebought | AddedOn):
            spent[e.player] += e.price
    won = {
        player: account_balance(ledger.cash(bot.pk))
        - (PLAN.wallet - PLAN.buy_in - PLAN.fee - spent[player])
        for player, bot in report.bots.items()
    }
    tickets = {p: payments.tickets_held(bot.pk, target) for p, bot in report.bots.items()}
    groups: dict[int, list[str]] = {}
    for standing in finished.standings:
        groups.setdefault(standing.place, []).append(standing.player)
    for place, tied in groups.items():
        covered = range(place, place + len(tied))
        if all(p <= seats for p in covered):  # seats each
            for player in tied:
                assert (won[player], tickets[player]) == (
                    (PLAN.seat_value, 0) if player in already else (0, 1)
                ), (player, place)
            continue
        value = sum(worth.get(p, 0) for p in covered)  # shared in cash
        assert sum(won[p] for p in tied) == value and all(tickets[p] == 0 for p in tied)
        assert all(value // len(tied) <= won[p] <= -(-value // len(tied)) for p in tied)
    assert account_balance(ledger.pool(report.tournament.pk)) == 0


def _rows_as_a_rebuild_writes_them(report: Any) -> None:
    """Each command wrote only the entrants it changed: the rows are what a
    projection from the whole log writes."""
    fields = ["player_id", "status", "stack", "table", "seat", "rebuys", "added_on", "place"]
    fields += ["prize", "ticket", "paid", "entries"]

    def rows() -> list[tuple[Any, ...]]:
        entrants = Entrant.objects.filter(tournament=report.tournament.pk)
        return list(entrants.order_by("player_id").values_list(*fields))

    written = rows()
    assert len(written) == PLAN.players
    rebuild()
    assert rows() == written


@pytest.mark.parametrize(
    ("options", "said"),
    [
        ({"players": 1}, "min_players"),
        ({"players": 9, "bot_threads": 0}, "at least one bot thread"),
        ({"players": 9, "registered_in_target": 2}, "need a satellite"),
        ({"players": 9, "minute_seconds": 61}, "minute_seconds"),
        ({"players": 9, "table_size": 9}, "table_size"),
    ],
)
def test_the_command_refuses_a_plan_before_making_anything(
    settings: Any, options: dict[str, Any], said: str
) -> None:
    settings.CLOCKS_ENABLED = True
    users = get_user_model().objects.count()
    with pytest.raises(CommandError, match=said):
        call_command(Command(), **options)
    assert get_user_model().objects.count() == users and not Tournament.objects.exists()


def test_the_command_needs_the_clocks(settings: Any) -> None:
    settings.CLOCKS_ENABLED = False
    with pytest.raises(CommandError, match="clocks are off"):
        call_command(Command(), players=9)


def test_the_time_on_breaks_is_the_room_on_a_break_within_its_schedule() -> None:
    """Break after level 1: scheduled from T0 + 600 to T0 + 900.  On time
    it counts whole, its end's late timer not; a level timer late into the
    break leaves only what was left of it; one later than the whole break
    (the room dealt through it at the old level) leaves nothing."""

    def on_breaks(*ticks: tuple[int, int]) -> float:
        run = Run(definition(structure=structure(4, 10, (Break(1, 5),))))
        run.register(players(2)).start()
        timed = [(e, float(T0)) for e in run.events]
        for due, at in ticks:
            timed += [(e, float(at)) for e in run.do(Tick(due, 0))]
        return time_on_breaks(timed, now=T0 + 5_000)

    assert on_breaks((T0 + 600, T0 + 600), (T0 + 900, T0 + 903)) == 300
    assert on_breaks((T0 + 600, T0 + 750), (T0 + 900, T0 + 900)) == 150
    assert on_breaks((T0 + 950, T0 + 950)) == 0
    assert on_breaks((T0 + 600, T0 + 600)) == 300  # over, its timer never came
