"""Registration, unregistration, the start, late registration, re-entry and
cancellation, as a tournament's stream records them."""

from __future__ import annotations

import pytest

from tests.tournaments.support import T0, Run, at, definition, of_type, players, refusal
from tournaments.rules import (
    Cancel,
    Cancelled,
    OpenRegistration,
    Refunded,
    Register,
    Registered,
    Seated,
    Start,
    Started,
    Status,
    Tick,
    TournamentErrorCode,
    Unregister,
    Unregistered,
    replay,
)


def test_registration_opens_on_command() -> None:
    run = Run()
    assert run.state.status is Status.SCHEDULED
    assert refusal(run, Register("p01", T0, 0)) is TournamentErrorCode.REGISTRATION_CLOSED
    run.do(OpenRegistration())
    assert run.state.status is Status.REGISTERING
    assert refusal(run, OpenRegistration()) is TournamentErrorCode.ILLEGAL_ACTION


def test_registering_pays_buy_in_and_fee_and_the_buy_in_goes_to_the_pool() -> None:
    run = Run().register(["p01"])
    assert run.events[-1] == Registered("p01", 1, 110)
    assert (run.state.entries, run.state.pool) == (1, 100)


def test_a_player_registers_once() -> None:
    run = Run().register(["p01"])
    assert refusal(run, Register("p01", T0, 1)) is TournamentErrorCode.ALREADY_REGISTERED


def test_unregistering_before_the_start_refunds_buy_in_and_fee() -> None:
    run = Run().register(["p01", "p02"])
    assert run.do(Unregister("p01")) == [Unregistered("p01", 110)]
    assert (run.state.entries, run.state.pool, list(run.state.entrants)) == (1, 100, ["p02"])
    assert (run.state.tally.left, run.state.tally.placed) == (1, 1)
    assert refusal(run, Unregister("p01")) is TournamentErrorCode.NOT_REGISTERED


def test_no_unregistering_after_the_start() -> None:
    run = Run().register(players(3)).start()
    assert refusal(run, Unregister("p01")) is TournamentErrorCode.ILLEGAL_ACTION


def test_entries_stop_at_the_maximum() -> None:
    run = Run(definition(max_players=3)).register(players(3))
    assert refusal(run, Register("p04", T0, 0)) is TournamentErrorCode.TOURNAMENT_FULL


def test_the_start_draws_seats_at_the_fewest_tables() -> None:
    run = Run().register(players(14)).start(seed=9)
    events = run.events
    assert Started(T0) in events
    seated = of_type(events, Seated)
    assert sorted(s.player for s in seated) == players(14)
    assert all(s.stack == 1000 for s in seated)
    assert sorted(len(t.seats) for t in run.state.tables.values()) == [4, 5, 5]
    assert run.state.status is Status.RUNNING


def test_the_draw_depends_on_the_seed() -> None:
    a = Run().register(players(14)).start(seed=1)
    b = Run().register(players(14)).start(seed=2)
    assert of_type(a.events, Seated) != of_type(b.events, Seated)


def test_below_the_minimum_the_start_is_refused_and_cancelling_refunds() -> None:
    run = Run(definition(min_players=4)).register(players(3))
    assert refusal(run, Start(T0, 1)) is TournamentErrorCode.TOO_FEW_PLAYERS
    events = run.do(Cancel("too few players"))
    assert events[0] == Cancelled("too few players")
    assert of_type(events, Refunded) == [Refunded(p, 110) for p in players(3)]
    assert run.state.status is Status.CANCELLED


def test_a_sit_and_go_starts_with_the_entry_that_fills_it() -> None:
    run = Run(definition(sit_and_go=True, max_players=6)).register(players(5))
    assert run.state.status is Status.REGISTERING
    events = run.do(Register("p06", T0 + 5, 3))
    assert isinstance(events[0], Registered) and events[1] == Started(T0 + 5)
    assert len(of_type(events, Seated)) == 6


def test_late_registration_seats_a_newcomer_at_the_shortest_table() -> None:
    run = Run(definition(late_registration_level=2)).register(players(11)).start()
    short = min(run.state.tables, key=lambda n: len(run.state.tables[n].seats))
    events = run.do(Register("late", T0 + 30, 4))
    assert events[0] == Registered("late", 1, 110)
    assert events[1] == Seated("late", short, run.seat_of("late")[1], 1000)


def test_late_registration_closes_when_the_level_after_it_starts() -> None:
    run = Run(definition(late_registration_level=2)).register(players(4)).start()
    run.do(Tick(T0 + 1199, 0), Register("a", T0 + 1199, 0))
    run.do(Tick(T0 + 1200, 0))
    assert refusal(run, Register("b", T0 + 1200, 0)) is TournamentErrorCode.REGISTRATION_CLOSED


def test_without_late_registration_entries_close_at_the_start() -> None:
    run = Run().register(players(4)).start()
    assert refusal(run, Register("late", T0, 0)) is TournamentErrorCode.REGISTRATION_CLOSED


def test_a_busted_player_re_enters_while_registration_is_open() -> None:
    run = Run(definition(late_registration_level=3, re_entries=1)).register(["a", "b", "c"])
    run.start()
    table = run.table_of("a")
    other = next(p for p in ("b", "c") if run.table_of(p) == table)
    run.bust("a", other)
    assert run.state.entrants["a"].out
    events = run.do(Register("a", T0 + 60, 5))
    assert events[0] == Registered("a", 2, 110)
    assert run.state.entrants["a"].alive and run.state.entrants["a"].stack == 1000
    assert (run.state.entries, run.state.pool) == (4, 400)


def test_re_entries_are_limited() -> None:
    run = Run(definition(late_registration_level=3, re_entries=1)).register(["a", "b"])
    run.start()
    run.bust("a", "b")
    run.do(Register("a", T0, 1))
    run.bust("a", "b")
    assert refusal(run, Register("a", T0, 2)) is TournamentErrorCode.ALREADY_REGISTERED


def test_a_freezeout_has_no_re_entry() -> None:
    run = Run(definition(late_registration_level=3)).register(["a", "b", "c"]).start()
    table = run.table_of("a")
    other = next(p for p in ("b", "c") if run.table_of(p) == table)
    run.bust("a", other)
    assert refusal(run, Register("a", T0, 2)) is TournamentErrorCode.ALREADY_REGISTERED


def test_a_live_player_cannot_re_enter() -> None:
    run = Run(definition(late_registration_level=3, re_entries=None)).register(["a", "b"])
    run.start()
    assert refusal(run, Register("a", T0, 2)) is TournamentErrorCode.ALREADY_REGISTERED


def test_cancelling_a_running_tournament_refunds_everything_paid() -> None:
    run = Run(definition(late_registration_level=3, re_entries=None)).register(["a", "b"])
    run.start()
    run.bust("a", "b")
    run.do(Register("a", T0, 1))
    events = run.do(Cancel("power cut"))
    assert of_type(events, Refunded) == [Refunded("a", 220), Refunded("b", 110)]
    assert all(e.paid == 0 for e in run.state.entrants.values())


def test_a_cancelled_tournament_takes_no_more_commands() -> None:
    run = Run().register(players(2))
    run.do(Cancel())
    assert refusal(run, Register("p09", T0, 0)) is TournamentErrorCode.TOURNAMENT_OVER
    assert refusal(run, Cancel()) is TournamentErrorCode.TOURNAMENT_OVER


@pytest.mark.parametrize(
    "command",
    [Register("", T0, 0), Register("a", -1, 0), Register("a", T0, "x"), Unregister(7)],  # type: ignore[arg-type]
)
def test_malformed_registrations_are_refused(command: object) -> None:
    run = Run().register(["p01"])
    assert refusal(run, command) is TournamentErrorCode.MALFORMED


def test_a_re_entry_is_placed_by_its_last_entry_only() -> None:
    run = Run(definition(late_registration_level=1, re_entries=1)).register(["a", "b", "c"])
    run.start()
    run.bust("a", "c")
    run.do(Register("a", T0, 1))
    run.bust("b", "c")
    run.bust("a", "c")
    assert run.state.status is Status.RUNNING  # late registration is still open
    run.do(Tick(T0 + 600, 0))
    assert [(s.player, s.place) for s in run.state.standings] == [("c", 1), ("a", 2), ("b", 3)]
    assert run.state.entries == 4 and run.state.pool == 400


def _break_a_table(run: Run) -> int:
    """Busts at the shortest table until one of the two breaks; the
    number of the table that broke."""
    numbers = set(run.state.tables)
    while len(run.state.tables) == len(numbers):
        table = min(
            (n for n, t in run.state.tables.items() if len(t.seats) > 1),
            key=lambda n: len(run.state.tables[n].seats),
        )
        loser, winner = at(run, table)[:2]
        run.bust(loser, winner)
    (broken,) = numbers - set(run.state.tables)
    return broken


@pytest.mark.parametrize("who", ["late", "re-entry"])
def test_a_newcomer_never_reopens_a_broken_tables_number(who: str) -> None:
    """Every table full, a newcomer opens a table numbered after every
    number used so far: the broken table's table is closed for good."""
    run = Run(definition(late_registration_level=6, re_entries=1, table_size=3))
    run.register(players(6)).start()
    assert sorted(run.state.tables) == [1, 2]
    broken = _break_a_table(run)
    (left,) = run.state.tables
    assert len(run.state.tables[left].seats) == 3 and broken in (1, 2)
    out = sorted(p for p, e in run.state.entrants.items() if e.out)
    newcomer = "late" if who == "late" else out[0]
    events = run.do(Register(newcomer, T0 + 60, 9))
    (seated,) = of_type(events, Seated)
    assert seated.player == newcomer and seated.table == 3
    assert run.state.top_table == 3 and broken not in run.state.tables
    assert replay(run.events) == run.state  # the stream folds to the same state
