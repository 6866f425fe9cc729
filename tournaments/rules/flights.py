"""Multi-flight events: several starting flights (Day 1A, 1B, ...), each its
own tournament with the same structure, whose survivors carry their stacks
into one Day 2.

Rules chosen (docs/rules.md 6, "Multi-flight events"):

- A flight plays down to ``advance_percent`` of its entries, rounded up
  (at least one player): it stops at the end of the hand that takes it
  there, and every player still in bags his stack.  Players who bust in
  that hand are out, whether or not it takes the field below the mark.
- A player may enter a later flight after bagging chips in an earlier one
  (``re_entry``).  What goes through is set by ``carry``: ``BEST`` keeps
  his largest bag (the earlier one on a tie), ``LATEST`` the bag of his
  latest flight.  His other bags are forfeited: their chips leave play.
- The prize pool is the sum of every flight's pool; Day 2's chips are the
  flights' bags less the forfeited ones, so chips are conserved as
  entries + rebuys + add-ons across the flights = Day 2's chips + chips
  forfeited.
- Day 2 is seated by a random draw balanced by stacks: the players sorted
  by stack (largest first) are cut into bands of one player per table;
  each band goes to the tables in a random order, each table then seats
  its players in a random order.  No table gets two players of one band,
  so no table holds more than one of the largest stacks.
- Day 2's clock resumes at the start of the highest level any flight
  stopped at.

How the flights and Day 2 play (``settle``, ``decide``):

- The mark is counted once the flight's pool is final (its late
  registration, rebuys and add-on over): until then nobody bags.  With two
  tables or more the flight goes hand-for-hand when one bust would take it
  to the mark, so every table's hand of that round ends the flight; with
  one table it stops at the end of the hand that takes it there.
- A flight that stops pays no prizes: its pool goes to Day 2's pool on
  the ledger when Day 2 takes the flight in (``FlightCarried``).  A flight
  called off (everybody refunded) is carried with no bags and no pool.
- Day 2 takes no entries: its players are the bags that go through.  It is
  ready once every flight is carried (``DayTwoReady``: the bags kept and
  forfeited, the level it resumes at); it starts at its scheduled time, or
  at once if the last flight is carried after that time.  It has no late
  registration, rebuys, add-on or re-entry; its payout table is chosen by
  its own field (the players who went through), and it is not called off
  once it holds a flight's pool.
- A player may not enter a flight while he is still in another flight
  that has not stopped.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import Enum

from tournaments.rules.checks import count, require
from tournaments.rules.seating import Shuffler

MAX_PERCENT = 100
MAX_FLIGHTS = 26
"""Day 1A to Day 1Z."""


class Carry(Enum):
    """Which of a player's bags goes through to Day 2."""

    BEST = "best"
    LATEST = "latest"


@dataclass(frozen=True, slots=True)
class FlightRules:
    """How the flights of one event play down and go through."""

    advance_percent: int
    re_entry: bool = True
    carry: Carry = Carry.BEST

    def __post_init__(self) -> None:
        count(self.advance_percent, "advance_percent", 1, MAX_PERCENT)
        require(type(self.re_entry) is bool, "re_entry", "true or false", key="true_or_false")
        require(isinstance(self.carry, Carry), "carry", "best or latest", key="carry_choice")

    def stop_at(self, entries: int) -> int:
        """Players left at which a flight of ``entries`` stops."""
        return max(1, math.ceil(entries * self.advance_percent / MAX_PERCENT))


@dataclass(frozen=True, slots=True)
class Flight:
    """What a tournament is in a multi-flight event: starting flight
    ``number`` (1 to ``flights``, in the order they play) or, ``number`` 0,
    the event's Day 2; ``rules`` are the event's."""

    rules: FlightRules
    flights: int
    number: int = 0

    def __post_init__(self) -> None:
        require(
            isinstance(self.rules, FlightRules),
            "flight.rules",
            "not FlightRules",
            key="not_flight_rules",
        )
        count(self.flights, "flight.flights", 2, MAX_FLIGHTS)
        count(self.number, "flight.number", 0, self.flights)

    @property
    def day_two(self) -> bool:
        """This is the event's Day 2."""
        return self.number == 0


def flight_label(number: int) -> str:
    """Day 1A for flight 1, Day 1B for flight 2, ...; Day 2 for 0."""
    return "Day 2" if number == 0 else f"Day 1{chr(ord('A') + number - 1)}"


@dataclass(frozen=True, slots=True)
class Bag:
    """A player's stack at the end of flight ``flight`` (flights numbered in
    the order they play)."""

    player: str
    flight: int
    stack: int


@dataclass(frozen=True, slots=True)
class Carried:
    """What goes through: each player's Day 2 stack, and the bags forfeited."""

    stacks: Mapping[str, int]
    forfeited: tuple[Bag, ...]

    @property
    def chips(self) -> int:
        return sum(self.stacks.values())


def carry(bags: Sequence[Bag], rules: FlightRules) -> Carried:
    """Each player's bag that goes through (``rules.carry``), the rest forfeited."""
    by_player: dict[str, list[Bag]] = {}
    for bag in sorted(bags, key=lambda b: (b.flight, b.player)):
        by_player.setdefault(bag.player, []).append(bag)
    stacks: dict[str, int] = {}
    forfeited: list[Bag] = []
    for player, held in sorted(by_player.items()):
        kept = held[-1] if rules.carry is Carry.LATEST else max(held, key=lambda b: b.stack)
        stacks[player] = kept.stack
        forfeited += [b for b in held if b is not kept]
    return Carried(stacks, tuple(forfeited))


def may_enter(player: str, bagged: Sequence[Bag], rules: FlightRules) -> bool:
    """Whether ``player`` may enter another flight, given the bags so far."""
    return rules.re_entry or all(b.player != player for b in bagged)


def day_two_draw(
    stacks: Mapping[str, int], table_size: int, rng: Shuffler
) -> dict[str, tuple[int, int]]:
    """Each player's (table, seat), tables and seats from 1: as few tables as
    seat everyone, balanced by stacks (bands of one player a table, largest
    stacks first, each band dealt to the tables in a random order).  ``rng``
    is a decision's random source (``draw.shuffler``)."""
    require(table_size >= 2, "table_size", "at least two seats", key="table_two_seats")
    if not stacks:
        return {}
    tables = math.ceil(len(stacks) / table_size)
    ordered = sorted(stacks, key=lambda p: (-stacks[p], p))
    at: dict[int, list[str]] = {n: [] for n in range(1, tables + 1)}
    for start in range(0, len(ordered), tables):
        band = ordered[start : start + tables]
        order = list(at)
        rng.shuffle(order)
        # the band's players go to the emptiest tables first, in random order
        order.sort(key=lambda n: len(at[n]))
        for player, table in zip(band, order, strict=False):
            at[table].append(player)
    seats: dict[str, tuple[int, int]] = {}
    for table, players in at.items():
        rng.shuffle(players)
        for seat, player in enumerate(players, start=1):
            seats[player] = (table, seat)
    return seats


def resume_level(stopped_at: Sequence[int]) -> int:
    """Day 2's first level: the highest any flight stopped at."""
    require(
        bool(stopped_at) and all(level >= 1 for level in stopped_at),
        "flights",
        "none",
        key="flights_stopped",
    )
    return max(stopped_at)
