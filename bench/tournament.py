"""A 1,000-player satellite of 32 Card Draw played to the end by bots.

Why: a card room's biggest day is a satellite with a field of hundreds on
a few hundred tables, every hand reported to the one tournament (its row
locked for each), tables broken and players moved as the field shrinks.
What is measured is what the operator sees: how long the whole satellite
takes, how many hands per second the room deals, and how many tables were
in play at the peak.

The work: ``tournaments.simulation`` (the ``simulate_tournament`` command)
on a fresh PostgreSQL database (``BENCH_TOURNAMENT_DATABASE_URL``): 1,000
bots register (100 + 10) for a sit-and-go satellite into a target worth
``SEAT_VALUE`` per seat, on the 32 Card Draw satellite structure of
``LEVEL_MINUTES``-minute levels with the clock scaled down to
``MINUTE_SECONDS`` seconds a minute; they play in this process through
the services while one Celery worker (prefork, as deployed) on Redis runs
every clock: the levels and breaks, the action clocks set at every turn.
Figures: wall time from the first deal to the last hand, hands per second
(all tables), actions per second, tables at the peak.  The peer figure is
the same bots on a 100-player field in the same run: the rate a small
field is dealt at, so the ratio shows what the field's size costs.  The
goal (issue 12): the big field deals at least ``GOAL`` x the small one's
hands per second.  Quick runs: ``BENCH_TOURNAMENT_PLAYERS`` and
``BENCH_TOURNAMENT_PEER_PLAYERS`` set the two fields.
"""

from __future__ import annotations

import os

from bench.clocks import worker_on_fresh_database

DEFAULT_URL = "postgres://postgres@127.0.0.1:5432/pokerroom_tournamentbench"
PLAYERS = int(os.environ.get("BENCH_TOURNAMENT_PLAYERS", "1000"))
PEER_PLAYERS = int(os.environ.get("BENCH_TOURNAMENT_PEER_PLAYERS", "100"))
GOAL = 0.9
"""Hands per second of the big field over the small one's, at least."""
SEAT_VALUE = 1_100
"""A seat is worth ten entries: the field plays down to about a tenth."""
LEVEL_MINUTES = 10
MINUTE_SECONDS = 2
"""Levels of 20 s (breaks of 10 s) instead of 10 minutes (and 5)."""
TIME_LIMIT = 1_800.0


def main() -> None:
    url = os.environ.get("BENCH_TOURNAMENT_DATABASE_URL", DEFAULT_URL)
    with worker_on_fresh_database(url, "tournamentbench") as ready:
        if not ready:
            return
        peer = _run(PEER_PLAYERS, quiet=True)
        big = _run(PLAYERS, quiet=False)
    _print(big, peer)


def _run(players: int, quiet: bool) -> dict[str, float]:
    from django.conf import settings

    from tournaments.simulation import Plan, simulate

    settings.TOURNAMENT_TABLES = True
    plan = Plan(
        players=players,
        level_minutes=LEVEL_MINUTES,
        minute_seconds=MINUTE_SECONDS,
        seat_value=SEAT_VALUE,
        seed=players,
        time_limit=TIME_LIMIT,
    )
    report = simulate(plan, say=(lambda line: None) if quiet else _indented)
    return {
        "players": players,
        "seconds": report.seconds,
        "hands": report.hands,
        "actions": report.actions,
        "peak_tables": report.peak_tables,
        **_end(report.tournament.pk),
    }


def _indented(line: str) -> None:
    print(f"  {line}", flush=True)


def _end(tournament: int) -> dict[str, float]:
    """Players left at the end (the last hands may bust several past the
    bubble: places, not survival, decide the seats) and seats awarded."""
    from tournaments.models import Tournament
    from tournaments.rules import queries as q
    from tournaments.selectors import state_of

    state = state_of(Tournament.objects.get(pk=tournament))
    return {"left": q.players_left(state), "seats": q.seats_awarded(state) or 0}


def _print(big: dict[str, float], peer: dict[str, float]) -> None:
    def rate(run: dict[str, float], what: str) -> float:
        return run[what] / run["seconds"]

    print(
        f"  {PLAYERS} players, satellite of seats worth {SEAT_VALUE}, levels of "
        f"{LEVEL_MINUTES * MINUTE_SECONDS} s:"
    )
    for name, run in (("field", big), ("peer", peer)):
        print(
            f"  {name:5} {run['players']:5.0f} players: {run['seconds']:7.1f} s wall, "
            f"{run['hands']:5.0f} hands = {rate(run, 'hands'):5.2f} hands/s, "
            f"{rate(run, 'actions'):6.1f} actions/s, peak {run['peak_tables']:3.0f} tables, "
            f"{run['seats']:3.0f} seats ({run['left']:.0f} players left)"
        )
    ratio = rate(big, "hands") / rate(peer, "hands")
    met = "met" if ratio >= GOAL else "NOT met"
    print(
        f"  hands/s of {big['players']:.0f} players / hands/s of {peer['players']:.0f}: "
        f"{ratio:.2f}x (goal >= {GOAL:g}x: {met})"
    )
