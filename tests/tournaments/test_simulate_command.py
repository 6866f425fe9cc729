"""``python -m bench.simulate`` tells the operator what it does: every
option's default in ``--help``, a progress line at least every few seconds
(not only at each level), and ``--fast`` plays 18 bots to a winner on the
embedded defaults (SQLite, the worker in the process) in well under a
minute of play."""

from __future__ import annotations

import itertools
import re
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from bench.simulate import PROG
from bench.simulate_command import Command
from bench.simulation import Plan, simulate
from poker.engine.rules import Betting
from tests import migrated
from tests.integration.cluster import ROOT, child_env

SIMULATE = [sys.executable, "-m", "bench.simulate"]

PROGRESS = re.compile(
    r"^ *(?P<seconds>[\d.]+)s level (?P<level>\d+) \(\d+/\d+\): (?P<left>\d+) left on \d+ "
    r"tables, average stack \d+, (?P<hands>\d+) hands"
)


def test_help_shows_every_default() -> None:
    parser = Command().create_parser(*PROG)
    described = {
        action.dest: " ".join(parser._get_formatter()._expand_help(action).split())
        for action in parser._actions
        if action.help
    }
    for option, default in {
        "game": "32-card-draw",
        "betting": "no-limit",
        "table_size": "the game's most",
        "buy_in": "100",
        "fee": "10",
        "starting_stack": "3000",
        "level_minutes": "10; 1 with --fast",
        "minute_seconds": "60; 1 with --fast",
        "break_minutes": "the structure's, 5; 1 with --fast",
        "fast": "off",
        "rebuy_until": "none",
        "max_rebuys": "2",
        "add_on": "off",
        "seat_value": "none",
        "flights": "none",
        "registered_in_target": "0",
        "seed": "1",
        "bot_threads": "1",
        "time_limit": "3600.0",
        "progress_seconds": "3.0",
        "no_worker": "one in this process",
    }.items():
        assert f"(default: {default})" in described[option], (option, described[option])
    assert "(default:" in parser.format_help()  # as --help prints them


class Enough(Exception):
    """The test has seen the lines it needed."""


@pytest.mark.django_db
def test_progress_lines_come_every_interval_within_a_level(settings: Any) -> None:
    """With the clocks off the level never changes: every line after the
    first comes from the interval alone, in order, as hands are played.

    The test stops once it has three progress lines and three hands played
    (three hands alone may come within one interval).  The bots play fixed
    limit, where nobody loses more than four small and four big bets a
    hand: the four of them cannot finish before many hands and intervals
    (at no limit one hand of all-ins may end it before a second line)."""
    settings.TOURNAMENT_TABLES = True
    interval = 0.2
    lines: list[tuple[float, str]] = []

    def say(line: str) -> None:
        lines.append((time.monotonic(), line))
        progress = PROGRESS.match(line)
        seen = sum(1 for _, said in lines if PROGRESS.match(said))
        if progress and int(progress["hands"]) >= 3 and seen >= 3:
            raise Enough

    plan = Plan(
        players=4,
        betting=Betting.FIXED_LIMIT,
        seed=4,
        progress_seconds=interval,
        time_limit=60,
    )
    with pytest.raises(Enough):
        simulate(plan, say=say)

    shown = [(at, PROGRESS.match(line)) for at, line in lines if PROGRESS.match(line)]
    assert len(shown) >= 3
    seconds = [float(m["seconds"]) for _, m in shown]
    hands = [int(m["hands"]) for _, m in shown]
    assert seconds == sorted(seconds) and len(set(seconds)) == len(seconds)
    assert hands == sorted(hands) and hands[0] < hands[-1]
    assert {m["level"] for _, m in shown} == {"1"}
    gaps = [b - a for (a, _), (b, _) in itertools.pairwise(shown)]
    assert max(gaps) < interval + 2.0  # an interval, and at most one pass of the bots more


def test_18_players_finish_fast_on_the_embedded_defaults(tmp_path: Path) -> None:
    """No DATABASE_URL server, no REDIS_URL: a SQLite file and the worker in
    the command's process, every clock on, as a fresh checkout runs it."""
    env = child_env(DATABASE_URL=migrated.sqlite(tmp_path / "sim.sqlite3", child_env()))
    del env["CLOCKS_ENABLED"]  # on by default outside pytest
    began = time.monotonic()
    done = subprocess.run(
        [*SIMULATE, "--players", "18", "--fast"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    took = time.monotonic() - began
    out = done.stdout
    assert done.returncode == 0, out + done.stderr
    finished = re.search(
        r"^finished after ([\d.]+)s \((\d+)s of it on breaks\): (\d+) hands", out, re.MULTILINE
    )
    assert finished, out
    assert int(finished[2]) <= float(finished[1]), out  # breaks are part of the play
    assert "1 left on 1 tables" in out and re.search(r"^prizes: cash 1\. \d+", out, re.M), out
    print(f"18 players --fast: {took:.1f}s in all, {finished[1]}s of play, {finished[3]} hands")
    assert float(finished[1]) < 120, out  # 29 s of play (40 s in all) at a load of 9 on 2 cores


def test_the_formats_play_to_the_end_fast(tmp_path: Path) -> None:
    """A progressive knockout with a guarantee and a deal as soon as the
    final table forms (32 Card Draw seats five), on the embedded defaults:
    every head is paid, the overlay makes the guarantee, and the deal and
    what was played for are the prizes of the places it covers."""
    env = child_env(DATABASE_URL=migrated.sqlite(tmp_path / "sim.sqlite3", child_env()))
    del env["CLOCKS_ENABLED"]
    options = ["--bounty", "20", "--progressive", "--guarantee", "2000", "--deal-at", "5"]
    done = subprocess.run(
        [*SIMULATE, "--players", "12", "--fast", *options],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    out = done.stdout
    assert done.returncode == 0, out + done.stderr
    line = re.search(r"^prizes: cash (.*); overlay (\d+); deal (.*) and (\d+) played for; "
                     r"bounties (\d+)", out, re.M)  # fmt: skip
    assert line, out
    paid = [int(p.split(". ")[1]) for p in line[1].split(", ")]
    assert sum(paid) == 2000 and int(line[2]) == 2000 - 12 * 100
    dealt = [int(d.split(" ")[1]) for d in line[3].split(", ")]
    assert sum(dealt) + int(line[4]) == sum(paid[: len(dealt)])
    assert int(line[5]) == 12 * 20


def test_a_step_chain_plays_to_the_target_fast(tmp_path: Path) -> None:
    """Three steps of nine bots on the embedded defaults: each step's ticket
    winners enter the next with their tickets; every step pays out its
    whole pool in seats, consolation tickets back into it and cash; the
    tickets left are what was won and not spent, and the ledger is sound."""
    database = migrated.sqlite(tmp_path / "sim.sqlite3", child_env())
    env = child_env(DATABASE_URL=database)
    del env["CLOCKS_ENABLED"]
    manage = [sys.executable, "manage.py"]
    done = subprocess.run(
        [*SIMULATE, "--players", "9", "--fast", "--steps", "3"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    out = done.stdout
    assert done.returncode == 0, out + done.stderr
    entered = re.findall(r"^step (\d): tournament \d+, (\d) with tickets, (\d) in cash", out, re.M)
    paid = r"^prizes: (\d+) tickets into (?:tournament )?\S+; "
    prizes = re.findall(paid + r"(?:consolation tickets into ([^;]*); )?cash (.*)$", out, re.M)
    assert len(entered) == len(prizes) == 3, out
    for k, (seats, consolations, cash) in enumerate(prizes):
        scale = 3**k  # step k + 1: entries of 100 (+ 10 fee) times 3^k, seats worth 330 times 3^k
        in_cash = sum(int(p.split(". ")[1]) for p in cash.split(", ")) if cash != "none" else 0
        won_back = len(consolations.split(", ")) if consolations else 0
        assert int(seats) * 330 * scale + won_back * 110 * scale + in_cash == 900 * scale, out
        with_tickets = int(entered[k + 1][1]) if k < 2 else None
        assert with_tickets in (None, int(seats)), out
    assert re.search(r"^tickets outstanding: step 1 \d+, step 2 \d+, step 3 \d+; into the "
                     r"target \d+$", out, re.M), out  # fmt: skip
    audit = subprocess.run(
        [*manage, "audit_ledger"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120
    )
    assert audit.returncode == 0 and "ledger sound" in audit.stdout, audit.stdout + audit.stderr


def test_a_multi_flight_event_plays_to_its_day_two_winner_fast(tmp_path: Path) -> None:
    """Three flights of nine bots of 32 Card Draw (its over blind posted at
    the tables of four or more) on the embedded defaults: each flight stops
    with its bags at a fifth of its field, Day 2 takes every chip and the
    whole pool (every entry, re-entries too, of 100) and pays it all out;
    the ledger is sound."""
    database = migrated.sqlite(tmp_path / "sim.sqlite3", child_env())
    env = child_env(DATABASE_URL=database)
    del env["CLOCKS_ENABLED"]
    manage = [sys.executable, "manage.py"]
    done = subprocess.run(
        [*SIMULATE, "--players", "9", "--fast", "--flights", "3"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    out = done.stdout
    assert done.returncode == 0, out + done.stderr
    stopped = re.findall(
        r"^Day 1[ABC]: stopped at level (\d+) with (\d+) bags of (\d+) entries \((\d+) chips\), "
        r"pool (\d+)$", out, re.M,
    )  # fmt: skip
    assert len(stopped) == 3, out
    for _level, bags, entries, chips, pool in stopped:
        assert 1 <= int(bags) <= -(-int(entries) // 5)  # a fifth of the field, rounded up
        assert int(chips) == int(entries) * 3000
        assert int(pool) == int(entries) * 100
    entries = sum(int(s[2]) for s in stopped)
    day_two = re.search(
        r"^Day 2: (\d+) players, (\d+) chips \((\d+) forfeited\), pool (\d+) of (\d+), "
        r"level (\d+)$", out, re.M,
    )  # fmt: skip
    assert day_two, out
    assert int(day_two[2]) + int(day_two[3]) == entries * 3000
    assert int(day_two[4]) == int(day_two[5]) == entries * 100
    assert int(day_two[6]) == max(int(s[0]) for s in stopped)
    line = re.search(r"^prizes: cash (.*)$", out, re.M)
    assert line, out
    assert sum(int(p.split(". ")[1]) for p in line[1].split(", ")) == entries * 100
    audit = subprocess.run(
        [*manage, "audit_ledger"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120
    )
    assert audit.returncode == 0 and "ledger sound" in audit.stdout, audit.stdout + audit.stderr
