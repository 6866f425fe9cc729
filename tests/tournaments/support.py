"""Helpers shared by the tournament rule tests: definitions, a running
tournament that keeps its event log, and a random hand to finish."""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

import pytest

from poker.engine.rules import Betting, Game
from tournaments.rules import (
    BlindLevel,
    Break,
    FinishHand,
    OpenRegistration,
    Register,
    Start,
    StartHand,
    Structure,
    TournamentCommand,
    TournamentDefinition,
    TournamentError,
    TournamentErrorCode,
    TournamentEvent,
    TournamentState,
    create_tournament,
    decide,
    play,
    replay,
)

T0 = 1_000_000
"""The scheduled start of the test tournaments (Unix seconds)."""


def structure(levels: int = 6, minutes: int = 10, breaks: tuple[Break, ...] = ()) -> Structure:
    """Levels 10/20, 20/40, ... of ``minutes`` each."""
    return Structure(
        tuple(BlindLevel(10 * k, 20 * k, 0, minutes) for k in range(1, levels + 1)), breaks
    )


def definition(**changes: Any) -> TournamentDefinition:
    """A five-card-draw freezeout: tables of 6, 1000 chips, 100 + 10."""
    base = TournamentDefinition(
        game=Game.FIVE_CARD_DRAW,
        betting=Betting.NO_LIMIT,
        structure=structure(),
        starting_stack=1000,
        buy_in=100,
        fee=10,
    )
    return replace(base, **changes)


def players(n: int) -> list[str]:
    """Player ids p01, p02, ... (sorted as numbered)."""
    return [f"p{i:02}" for i in range(1, n + 1)]


class Run:
    """A tournament being played: its state and every event so far."""

    def __init__(self, d: TournamentDefinition | None = None, name: str = "T") -> None:
        self.events: list[TournamentEvent] = list(create_tournament(d or definition(), name, T0))
        self.state: TournamentState = replay(self.events)

    def do(self, *commands: TournamentCommand) -> list[TournamentEvent]:
        """Carry out ``commands`` in order; the events of the last one."""
        out: list[TournamentEvent] = []
        for command in commands:
            self.state, out = play(self.state, command)
            self.events.extend(out)
        return out

    def register(self, names: list[str], at: int = T0 - 60) -> Run:
        """Open registration if needed and register ``names``."""
        if self.state.status.value == "scheduled":
            self.do(OpenRegistration())
        for k, name in enumerate(names):
            self.do(Register(name, at, k))
        return self

    def start(self, at: int = T0, seed: int = 1) -> Run:
        self.do(Start(at, seed))
        return self

    def seat_of(self, player: str) -> tuple[int, int]:
        entrant = self.state.entrants[player]
        assert entrant.table is not None and entrant.seat is not None
        return entrant.table, entrant.seat

    def table_of(self, player: str) -> int:
        return self.seat_of(player)[0]

    def hand(self, table: int, moves: dict[str, int] | None = None, seed: int = 0) -> list[Any]:
        """Deal a hand at ``table`` and finish it with chips moved by
        ``moves`` (player -> gain, summing to 0); the finishing events."""
        self.do(StartHand(table))
        number = self.state.tables[table].hand
        assert number is not None
        stacks = {p.player: p.stack for p in self.state.hands[number].players}
        for player, gain in (moves or {}).items():
            stacks[player] += gain
        return self.do(FinishHand(table, stacks, seed))

    def bust(self, loser: str, winner: str, seed: int = 0) -> list[Any]:
        """A hand at their table where ``winner`` takes all of ``loser``'s chips."""
        table = self.table_of(loser)
        assert self.table_of(winner) == table
        chips = self.state.entrants[loser].stack
        return self.hand(table, {loser: -chips, winner: chips}, seed)


def random_finish(state: TournamentState, table: int, rng: random.Random) -> FinishHand:
    """A plausible end to the hand at ``table``: chips flow to a winner from
    one or more losers, some of whom may lose everything."""
    number = state.tables[table].hand
    assert number is not None
    stacks = {p.player: p.stack for p in state.hands[number].players}
    names = sorted(stacks)
    winner = rng.choice(names)
    for loser in rng.sample(names, rng.randint(1, len(names))):
        if loser != winner:
            amount = rng.choice([stacks[loser], rng.randint(0, stacks[loser])])
            stacks[loser] -= amount
            stacks[winner] += amount
    return FinishHand(table, stacks, rng.getrandbits(32))


def of_type(events: list[Any], kind: type) -> list[Any]:
    """The events of one type."""
    return [e for e in events if isinstance(e, kind)]


def refusal(run: Run, command: object) -> TournamentErrorCode:
    """The code the rules refuse ``command`` with (it must be refused)."""
    with pytest.raises(TournamentError) as caught:
        decide(run.state, command)  # type: ignore[arg-type]
    return caught.value.code


def at(run: Run, table: int) -> list[str]:
    """The players at ``table`` by player id."""
    return sorted(run.state.tables[table].seats.values())
