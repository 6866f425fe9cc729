"""A tournament's state: the entrants, the tables, the running hands, the
clock.  It is the fold of the tournament's events (``evolve``); what the
rules derive from it (players left, the pool, the windows, the prizes)
lives in ``queries``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum, unique

from tournaments.rules import events as ev
from tournaments.rules.definition import TournamentDefinition
from tournaments.rules.flights import Bag
from tournaments.rules.placements import Bust, Standing
from tournaments.rules.prizes import Award


@unique
class Status(StrEnum):
    """Where a tournament is in its life."""

    SCHEDULED = "scheduled"
    """Created; registration not open yet."""
    REGISTERING = "registering"
    """Taking entries, not started."""
    RUNNING = "running"
    """Started (late registration may still be open)."""
    FINISHED = "finished"
    """Play is over; prizes are awarded by ``PrizesAwarded``."""
    CANCELLED = "cancelled"
    """Called off; everyone refunded."""


@dataclass(frozen=True, slots=True)
class Entrant:
    """One player and his current entry."""

    player: str
    entries: int = 1
    """Entries bought (1 + re-entries)."""
    stack: int = 0
    table: int | None = None
    seat: int | None = None
    rebuys: int = 0
    """Rebuys of the current entry."""
    added_on: bool = False
    """The current entry took the add-on."""
    paid: int = 0
    """Money paid in (entries, rebuys, add-ons) less refunds."""
    out: bool = False
    """Eliminated (he may re-enter while registration is open)."""
    bust: Bust | None = None
    """The hand he last lost all his chips in (placements)."""
    disqualified: bool = False
    disqualify_queued: bool = False
    last_level: int = 0
    """The level of the last hand he was dealt in (0: none yet)."""
    rebuy_until: int | None = None
    """Out of chips: the end of his time to rebuy or decline (None: none running)."""
    bounty: int = 0
    """The head on him (money: what whoever busts him wins)."""
    bounty_won: int = 0
    """Bounty money paid to him so far."""
    knocked_by: tuple[ev.Knocker, ...] = ()
    """Who busted him in the hand he last lost his chips in (his head is
    theirs if he goes out without rebuying)."""

    @property
    def alive(self) -> bool:
        """Still in the tournament (a player with no chips who may still
        rebuy included)."""
        return not self.out and not self.disqualified


@dataclass(frozen=True, slots=True)
class TableInfo:
    """One table: who sits where, its running hand, its last big blind and
    over blind, and who was moved here since."""

    seats: Mapping[int, str] = field(default_factory=dict)
    hand: int | None = None
    big_blind: int | None = None
    over_blind: int | None = None
    """The seat that posted the last hand's over blind (None: none)."""
    arrived: tuple[str, ...] = ()
    """Players moved here since the table's last hand began, in the order
    they came (balancing seats them again with its movers)."""


@dataclass(frozen=True, slots=True)
class RunningHand:
    """A hand being played: its table, who is in it with what, and its
    elimination group when it is part of a hand-for-hand round."""

    table: int
    players: tuple[ev.PlayerStack, ...]
    group: int | None = None


@dataclass(frozen=True, slots=True)
class Clock:
    """Running time: ``banked`` seconds before ``since`` (None: stopped),
    and staff's ``extra`` seconds by period."""

    banked: int = 0
    since: int | None = None
    extra: Mapping[int, int] = field(default_factory=dict)

    def running(self, at: int) -> int:
        """Seconds run by ``at`` (a time before ``since`` counts as ``since``)."""
        return self.banked + (0 if self.since is None else max(0, at - self.since))


@dataclass(frozen=True, slots=True)
class Tally:
    """Counts over the entrants that ``evolve`` keeps as it changes them,
    so that the rules asking them after every hand do not walk a field of
    hundreds: who is still in, who gets a place, who sits with no chips."""

    left: int = 0
    """Entrants still in (``Entrant.alive``)."""
    placed: int = 0
    """Entrants not disqualified: the field that gets places."""
    broke: frozenset[str] = frozenset()
    """Players still in and seated with no chips."""
    chips: int = 0
    """The stacks of the entrants still in (a live frame's average stack)."""

    def changed(self, old: Entrant | None, new: Entrant | None) -> Tally:
        """The tally once the entry ``old`` (None: none) becomes ``new``
        (None: gone)."""
        left, placed, broke, chips = self.left, self.placed, self.broke, self.chips
        for entrant, sign in ((old, -1), (new, 1)):
            if entrant is not None:
                left += sign * entrant.alive
                placed += sign * (not entrant.disqualified)
                chips += sign * entrant.stack if entrant.alive else 0
        entrant = new or old
        if entrant is not None and _broke(old) != _broke(new):
            broke = broke | {entrant.player} if _broke(new) else broke - {entrant.player}
        return Tally(left, placed, broke, chips)


def _broke(entrant: Entrant | None) -> bool:
    return (
        entrant is not None and entrant.stack == 0 and entrant.table is not None and entrant.alive
    )


@dataclass(frozen=True)
class TournamentState:
    """Everything about a tournament (treat the mappings as read-only:
    ``evolve`` builds new ones for every change)."""

    definition: TournamentDefinition
    name: str = ""
    starts_at: int | None = None
    status: Status = Status.SCHEDULED
    started_at: int | None = None
    """When play began (Unix seconds)."""
    entrants: Mapping[str, Entrant] = field(default_factory=dict)
    tally: Tally = field(default_factory=Tally)
    """Counts over ``entrants``, kept with them by ``evolve``."""
    entries: int = 0
    pool: int = 0
    """The players' prize pool: buy-ins, rebuy and add-on prices (fees and
    bounties excluded)."""
    held: int = 0
    """The house's guarantee money in the pool account (``queries.prize_pool``)."""
    tables: Mapping[int, TableInfo] = field(default_factory=dict)
    top_table: int = 0
    """The highest table number used so far (a new table takes the next:
    a broken table's number, its table closed, never comes back)."""
    hands: Mapping[int, RunningHand] = field(default_factory=dict)
    last_hand: int = 0
    period: int = 0
    """The clock's period in force (timeline index)."""
    clock: Clock = field(default_factory=Clock)
    hand_for_hand: bool = False
    round_tables: frozenset[int] = frozenset()
    """Hand-for-hand: the tables that have dealt their hand of this round."""
    round_group: int | None = None
    groups: int = 0
    """Elimination groups used so far."""
    final_table: int | None = None
    standings: tuple[Standing, ...] = ()
    awards: tuple[Award, ...] | None = None
    deal_offer: ev.DealOffered | None = None
    """A deal offered and not yet settled (no hand is dealt meanwhile)."""
    deal_accepted: frozenset[str] = frozenset()
    """Who accepted the deal offered."""
    deal: ev.DealMade | None = None
    """The deal made at the final table."""
    bounties_paid: int = 0
    """Heads paid so far (``BountyPaid``)."""
    bags: tuple[Bag, ...] = ()
    """A starting flight that stopped: the stacks bagged (``FlightStopped``)."""
    stopped_level: int | None = None
    """A starting flight that stopped: the level it stopped at."""
    carried: Mapping[int, ev.FlightCarried] = field(default_factory=dict)
    """Day 2: the flights taken in so far, by flight number."""
    resume_level: int = 1
    """Day 2: the level its clock starts at (``DayTwoReady``)."""
    forfeited: tuple[Bag, ...] = ()
    """Day 2: the bags that did not go through (``DayTwoReady``)."""
    version: int = 0

    def entrant(self, player: str) -> Entrant | None:
        """The player's entry, if he has one."""
        return self.entrants.get(player)
