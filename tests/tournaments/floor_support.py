"""A tournament played on its tables, both as pure rules: the tournament's
rules decide, and every decision is carried out at table engines the way
``tournaments.play`` does it (seat, move, unseat, add chips, draw the final
table, close), each hand laid out by the table's own ``plan_hand``.  The
floor-rule tests read off it who posted which blind in every hand."""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from poker.engine.table import (
    AddChips,
    DrawButton,
    FinishHand,
    HandBegan,
    Seat,
    StartHand,
    TableCommand,
    TableConfig,
    TableState,
    Unseat,
    UnseatReason,
    decide_table,
    evolve_table,
    open_table,
    replay_table,
)
from poker.engine.table.ring import first_after, strictly_between
from tests.tournaments.support import Run
from tournaments.rules import (
    AddedOn,
    ButtonDrawn,
    Disqualified,
    Eliminated,
    FinalTableDrawn,
    PlayerMoved,
    Rebought,
    Seated,
    TableBroken,
    TournamentCommand,
    TournamentEvent,
    TournamentState,
    evolve,
)
from tournaments.rules import FinishHand as TournamentFinishHand
from tournaments.rules import StartHand as TournamentStartHand
from tournaments.rules import queries as q


@dataclass(frozen=True, slots=True)
class Posted:
    """One hand as one player saw it: where, and which blind he posted."""

    hand: int
    table: int
    blind: str | None
    """"small", "big", "over" or None."""
    largest: bool
    """He posted the hand's largest blind (the over blind if any, else the big)."""
    drawn: bool = False
    """His first hand after a seat draw (the final table, a broken table)."""


@dataclass
class Floor:
    """The tournament ``run`` and its tables (number -> table state)."""

    run: Run
    tables: dict[int, TableState] = field(default_factory=dict)
    hands: dict[str, list[Posted]] = field(default_factory=dict)
    """Every player's hands in order."""
    began: list[tuple[int, HandBegan]] = field(default_factory=list)
    """(table, its ``HandBegan``) of every hand dealt, in order."""
    buttons: dict[int, int | None] = field(default_factory=dict)
    """Tables whose seats were drawn and that have not dealt since: the
    drawn button's seat (None: none drawn)."""
    fresh: list[tuple[int | None, frozenset[int], HandBegan]] = field(default_factory=list)
    """(drawn button, seats with chips, the hand) of each first hand after a draw."""
    before: dict[int, TableState] = field(default_factory=dict)
    """The tables as the last tournament command found them."""
    redrawn: set[str] = field(default_factory=set)
    """Players whose seats were drawn (the final table, a broken table's
    players), or who sit where a broken table's player drawn in moved the
    blinds (``_drawn_in``), not dealt in since."""
    breaking: set[int] = field(default_factory=set)
    """The tables the last command broke."""
    squeezed: list[tuple[int, tuple[int, int]]] = field(default_factory=list)
    """(table, (its last big blind, the next)) of every broken table's
    player the last command drew to a seat between the two."""
    arcs: dict[int, tuple[int, int] | None] = field(default_factory=dict)

    def do(self, command: TournamentCommand) -> list[TournamentEvent]:
        """A tournament command, carried out at the tables."""
        before = self.run.state
        self.before = dict(self.tables)
        events = self.run.do(command)
        self.squeezed, self.arcs = [], {}
        self.breaking = {e.table for e in events if isinstance(e, TableBroken)}
        state = before
        for event in events:
            self._carry_out(state, event)
            state = evolve(state, event)
        return events

    def table(self, number: int, command: TableCommand) -> None:
        events = decide_table(self.tables[number], command)
        for event in events:
            self.tables[number] = evolve_table(self.tables[number], event)

    def _open(self, number: int) -> None:
        if number not in self.tables:
            d = self.run.state.definition
            config = TableConfig.for_tournament(1, d.rules_at(1), d.seats_per_table, number)
            self.tables[number] = replay_table(open_table(config))

    def _carry_out(self, state: TournamentState, event: TournamentEvent) -> None:
        if isinstance(event, Seated):
            self._open(event.table)
            self.table(event.table, Seat(event.seat, event.player, event.stack))
        elif isinstance(event, PlayerMoved):
            if event.from_table in self.breaking:
                self._drawn_in(event.table, event.seat)
                self.redrawn.add(event.player)
            stack = self.tables[event.from_table].seats[event.from_seat].stack
            self.table(event.from_table, Unseat(event.from_seat, UnseatReason.MOVED))
            self._open(event.table)
            self.table(event.table, Seat(event.seat, event.player, stack))
        elif isinstance(event, Eliminated | Disqualified):
            self._unseat(state, event.player, event)
        elif isinstance(event, Rebought | AddedOn):
            entrant = state.entrants[event.player]
            assert entrant.table is not None and entrant.seat is not None
            self.table(entrant.table, AddChips(entrant.seat, event.chips))
        elif isinstance(event, FinalTableDrawn):
            self._final(event)
            self.buttons[event.table] = None
            self.redrawn.update(s.player for s in event.seats)
        elif isinstance(event, ButtonDrawn):
            self.table(event.table, DrawButton(event.seat))
            self.buttons[event.table] = event.seat
        elif isinstance(event, TableBroken):
            del self.tables[event.table]

    def _drawn_in(self, number: int, seat: int) -> None:
        """A broken table's player drawn to ``seat`` (TDA Rule 10, Breaking
        Tables: its players take random seats and may get any position, the
        blinds included).
        Those seated are exempt for their next hand only where the draw
        moved the blinds onto them: it brought in an over blind (the fourth
        player dealt in: the over blind falls one seat on, maybe on who
        posted the last), or, with no other seat free, it took a seat
        between the table's last big blind and the next (``squeezed``
        records it, as the break found the table)."""
        table = self.tables[number]
        rules, dealt = table.config.rules, len(table.dealable)
        if rules.over_blind(dealt + 1) and not rules.over_blind(dealt):
            self.redrawn.update(held.player for held in table.seats.values())
        if number not in self.arcs:
            size, big = table.config.seats, table.big
            following = None if big is None else first_after(table.dealable, big, size)
            self.arcs[number] = None if big is None or following is None else (big, following)
        arc = self.arcs[number]
        if arc is not None and strictly_between(seat, *arc, table.config.seats):
            self.squeezed.append((number, arc))
            self.redrawn.update(held.player for held in table.seats.values())

    def _unseat(self, state: TournamentState, player: str, event: object) -> None:
        entrant = state.entrants[player]
        if entrant.table is None or entrant.seat is None or entrant.table not in self.tables:
            return
        reason = UnseatReason.BUSTED if isinstance(event, Eliminated) else UnseatReason.DISQUALIFIED
        self.table(entrant.table, Unseat(entrant.seat, reason))

    def _final(self, event: FinalTableDrawn) -> None:
        stacks: dict[str, int] = {}
        for number in sorted(self.tables):
            for seat, held in sorted(self.tables[number].seats.items()):
                stacks[held.player] = held.stack
                self.table(number, Unseat(seat, UnseatReason.MOVED))
        for placed in event.seats:
            self.table(event.table, Seat(placed.seat, placed.player, stacks[placed.player]))
        for number in [n for n in self.tables if n != event.table]:
            del self.tables[number]

    def deal(self, number: int) -> HandBegan:
        """Deal the next hand at ``number`` as its table plans it."""
        state = self.run.state
        rules = state.definition.rules_at(q.level(state))
        dealable = self.tables[number].dealable
        (began,) = decide_table(self.tables[number], StartHand(rules))
        if number in self.buttons:
            self.fresh.append((self.buttons.pop(number), dealable, began))
        assert isinstance(began, HandBegan)
        self.tables[number] = evolve_table(self.tables[number], began)
        self.do(TournamentStartHand(number, began.big, began.over))
        self._record(number, began)
        return began

    def _record(self, number: int, began: HandBegan) -> None:
        self.began.append((number, began))
        seats = self.tables[number].seats
        blinds = {began.small: "small", began.big: "big", began.over: "over"}
        largest = began.big if began.over is None else began.over
        for seat in began.dealt_in:
            player = seats[seat].player
            drawn = player in self.redrawn
            self.redrawn.discard(player)
            posted = Posted(len(self.began), number, blinds.get(seat), seat == largest, drawn)
            self.hands.setdefault(player, []).append(posted)

    def finish(self, number: int, rng: random.Random) -> list[TournamentEvent]:
        """End the hand at ``number`` with chips moved at random among the
        seats dealt in, and report every player's stack to the tournament."""
        table = self.tables[number]
        stacks = {s: table.seats[s].stack for s in table.hand_seats}
        seats = sorted(stacks)
        winner = rng.choice(seats)
        for loser in rng.sample(seats, rng.randint(1, len(seats))):
            if loser != winner:
                amount = rng.choice([stacks[loser], rng.randint(0, stacks[loser])])
                stacks[loser] -= amount
                stacks[winner] += amount
        return self.end(number, stacks, rng.getrandbits(32))

    def end(self, number: int, stacks: dict[int, int], seed: int) -> list[TournamentEvent]:
        """End the hand at ``number`` with ``stacks`` (seat -> stack of each
        seat dealt in), and report every player's stack to the tournament."""
        self.table(number, FinishHand(stacks))
        after = {held.player: held.stack for held in self.tables[number].seats.values()}
        hand = self.run.state.tables[number].hand
        assert hand is not None
        final = {p.player: after[p.player] for p in self.run.state.hands[hand].players}
        return self.do(TournamentFinishHand(number, final, seed))
