"""Tournament events: the facts one tournament's stream is made of, in the
past tense.  The state is their fold (``evolve``); ``decide`` makes them.

Money moves on exactly these: ``Registered`` (paid), ``Unregistered`` and
``Refunded`` (paid back), ``Rebought`` and ``AddedOn`` (paid),
``BountyPaid`` (a head won), ``GuaranteeHeld`` and ``GuaranteeReleased``
(the house's guarantee in and out of the pool), ``FlightCarried`` (a
flight's pool into its Day 2's) and ``PrizesAwarded`` (won).  Chips enter play
with ``Seated`` (a new entry, or a Day 2 stack carried from a flight),
``Rebought`` and ``AddedOn``, and leave it only with ``Disqualified`` (and,
in a multi-flight event, with the bags ``DayTwoReady`` forfeits).

Times (``at``) are whole seconds of the service's clock (Unix time); the
rules only ever subtract them.  Hands are numbered across the tournament;
the service maps each to its table's hand stream.

Every event round-trips through JSON with the engine's codec
(``codec.tournament_event_to_json`` / ``codec.tournament_event_from_json``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Union

from poker.engine.codec import registry
from tournaments.rules.definition import TournamentDefinition
from tournaments.rules.flights import Bag
from tournaments.rules.placements import Standing
from tournaments.rules.prizes import Award


@dataclass(frozen=True, slots=True)
class PlayerStack:
    """A player, his seat and his chips."""

    player: str
    seat: int
    stack: int


@dataclass(frozen=True, slots=True)
class PlayerSeat:
    """A player and his seat."""

    player: str
    seat: int


@dataclass(frozen=True, slots=True)
class TournamentCreated:
    """The tournament was set up; always the first event of its stream."""

    definition: TournamentDefinition
    name: str = ""
    starts_at: int | None = None
    """Scheduled start (Unix seconds); None for a sit-and-go."""


@dataclass(frozen=True, slots=True)
class GuaranteeHeld:
    """The house put ``amount`` (the guarantee) into the pool: the prize
    pool is at least that much."""

    amount: int


@dataclass(frozen=True, slots=True)
class GuaranteeReleased:
    """``amount`` of the guarantee held went back to the house: what the
    pool did not need once it was final, or all of it on a cancellation."""

    amount: int


@dataclass(frozen=True, slots=True)
class RegistrationOpened:
    """Players may register from now on."""


@dataclass(frozen=True, slots=True)
class Registered:
    """``player`` bought entry number ``entry`` (1, or more for a re-entry)
    for ``paid`` (buy-in plus fee)."""

    player: str
    entry: int
    paid: int


@dataclass(frozen=True, slots=True)
class Unregistered:
    """``player`` withdrew before the start and got ``refund`` back."""

    player: str
    refund: int


@dataclass(frozen=True, slots=True)
class Started:
    """Play began at ``at``; the clock runs from here, at level 1."""

    at: int


@dataclass(frozen=True, slots=True)
class Seated:
    """A new entry took ``seat`` at ``table`` with ``stack`` chips."""

    player: str
    table: int
    seat: int
    stack: int


@dataclass(frozen=True, slots=True)
class LevelChanged:
    """The clock reached level ``level``: hands started from now on use it."""

    level: int


@dataclass(frozen=True, slots=True)
class BreakStarted:
    """The break after ``after_level`` began: no new hands until it ends."""

    after_level: int
    minutes: int


@dataclass(frozen=True, slots=True)
class Paused:
    """Staff stopped the clock at ``at``."""

    at: int


@dataclass(frozen=True, slots=True)
class Resumed:
    """Staff restarted the clock at ``at``."""

    at: int


@dataclass(frozen=True, slots=True)
class TimeAdded:
    """Staff lengthened period ``period`` (timeline index) by ``seconds``."""

    period: int
    seconds: int


@dataclass(frozen=True, slots=True)
class HandStarted:
    """Hand ``hand`` was dealt at ``table`` at level ``level`` to ``players``
    (their stacks as it began); ``big_blind`` and ``over_blind`` are the
    seats that posted them."""

    hand: int
    table: int
    level: int
    players: tuple[PlayerStack, ...]
    big_blind: int | None = None
    over_blind: int | None = None


@dataclass(frozen=True, slots=True)
class Knocker:
    """A player who took ``chips`` from the pots a busted player was in."""

    player: str
    chips: int


@dataclass(frozen=True, slots=True)
class Knockout:
    """``player`` lost his chips to ``by`` (his bounty is theirs, split by
    the chips each took, when he goes out)."""

    player: str
    by: tuple[Knocker, ...]


@dataclass(frozen=True, slots=True)
class HandFinished:
    """Hand ``hand`` at ``table`` is over: the stacks of those dealt in,
    and in a bounty tournament who busted whom (``knockouts``)."""

    hand: int
    table: int
    stacks: tuple[PlayerStack, ...]
    knockouts: tuple[Knockout, ...] = ()


@dataclass(frozen=True, slots=True)
class Rebought:
    """``player`` bought ``chips`` for ``price``."""

    player: str
    chips: int
    price: int


@dataclass(frozen=True, slots=True)
class RebuyOffered:
    """``player`` lost his chips and may rebuy: he decides by ``until``
    (Unix seconds), or is out as if he declined."""

    player: str
    until: int


@dataclass(frozen=True, slots=True)
class AddedOn:
    """``player`` took the add-on: ``chips`` for ``price``."""

    player: str
    chips: int
    price: int


@dataclass(frozen=True, slots=True)
class Eliminated:
    """``player`` is out: he lost his chips in a hand of elimination group
    ``group`` (placements), which he began with ``stack`` chips."""

    player: str
    group: int
    stack: int


@dataclass(frozen=True, slots=True)
class BountyShare:
    """What ``player`` got of a head: ``cash`` paid now and ``head`` added
    to his own bounty (a PKO)."""

    player: str
    cash: int
    head: int = 0


@dataclass(frozen=True, slots=True)
class BountyPaid:
    """The head on ``player`` (his whole bounty) went to ``shares``: those
    who busted him, or at the end the player himself or the winner."""

    player: str
    shares: tuple[BountyShare, ...]


@dataclass(frozen=True, slots=True)
class PlayerMoved:
    """``player`` moved from ``from_table``/``from_seat`` to ``table``/``seat``."""

    player: str
    from_table: int
    from_seat: int
    table: int
    seat: int


@dataclass(frozen=True, slots=True)
class TableBroken:
    """``table`` closed; its players were moved (``PlayerMoved``) first."""

    table: int


@dataclass(frozen=True, slots=True)
class FinalTableDrawn:
    """Everybody left sits at ``table`` in ``seats``, drawn afresh; every
    other table is closed."""

    table: int
    seats: tuple[PlayerSeat, ...]


@dataclass(frozen=True, slots=True)
class ButtonDrawn:
    """The button of ``table``, whose seats were just drawn (the start, the
    final table), was drawn to ``seat``: its next hand starts afresh from
    there, blinds live."""

    table: int
    seat: int


@dataclass(frozen=True, slots=True)
class HandForHandStarted:
    """Tables play one hand at a time, each waiting for all the others."""


@dataclass(frozen=True, slots=True)
class HandForHandEnded:
    """Tables play at their own pace again."""


@dataclass(frozen=True, slots=True)
class DisqualificationQueued:
    """``player`` is disqualified during his hand: he leaves when it ends."""

    player: str


@dataclass(frozen=True, slots=True)
class Disqualified:
    """``player`` is out, unplaced; his ``chips`` left play."""

    player: str
    chips: int


@dataclass(frozen=True, slots=True)
class PlayerAmount:
    """A player and a sum of money."""

    player: str
    amount: int


@dataclass(frozen=True, slots=True)
class DealOffered:
    """A director offered a deal of ``kind`` (icm, chip_chop, custom): each
    player left gets ``amounts``, and ``left_to_play`` goes to the winner;
    ``clock_stopped``: the offer stopped the clock (it restarts when the
    offer is settled)."""

    kind: str
    amounts: tuple[PlayerAmount, ...]
    left_to_play: int
    clock_stopped: bool


@dataclass(frozen=True, slots=True)
class DealAccepted:
    """``player`` accepted the deal offered."""

    player: str


@dataclass(frozen=True, slots=True)
class DealDeclined:
    """``player`` declined the deal offered: it is withdrawn."""

    player: str


@dataclass(frozen=True, slots=True)
class DealMade:
    """Everybody left accepted: these are the prizes of the places still
    to be decided, and ``left_to_play`` goes to the winner."""

    amounts: tuple[PlayerAmount, ...]
    left_to_play: int


@dataclass(frozen=True, slots=True)
class Finished:
    """Play is over: every player's finishing place."""

    standings: tuple[Standing, ...]


@dataclass(frozen=True, slots=True)
class PrizesAwarded:
    """The prizes: cash and tickets (into ``target`` for a satellite)."""

    awards: tuple[Award, ...]
    target: str | None = None


@dataclass(frozen=True, slots=True)
class FlightStopped:
    """A starting flight reached its mark at level ``level``: everyone still
    in bagged his stack (``bags``); play is over and it pays no prizes
    (its pool goes to Day 2)."""

    level: int
    bags: tuple[Bag, ...]


@dataclass(frozen=True, slots=True)
class FlightCarried:
    """Day 2 took in flight ``flight`` (tournament ``source``): its ``bags``
    and its ``pool`` (moved from the flight's pool to Day 2's), and the
    level it stopped at (0: it was called off, with no bags and no pool)."""

    flight: int
    source: str
    pool: int
    level: int
    bags: tuple[Bag, ...] = ()


@dataclass(frozen=True, slots=True)
class DayTwoReady:
    """Every flight is carried: the bags that go through (one a player,
    ``flights.carry``) and those forfeited, and the level Day 2 resumes
    at.  Day 2 waits for its start from now on."""

    stacks: tuple[Bag, ...]
    forfeited: tuple[Bag, ...]
    level: int


@dataclass(frozen=True, slots=True)
class Cancelled:
    """Staff or the rules called the tournament off."""

    reason: str = ""


@dataclass(frozen=True, slots=True)
class Refunded:
    """``player`` got ``amount`` back (cancellation)."""

    player: str
    amount: int


TournamentEvent = Union[  # noqa: UP007 - typing.get_args lists the members
    TournamentCreated,
    GuaranteeHeld,
    GuaranteeReleased,
    RegistrationOpened,
    Registered,
    Unregistered,
    Started,
    Seated,
    LevelChanged,
    BreakStarted,
    Paused,
    Resumed,
    TimeAdded,
    HandStarted,
    HandFinished,
    Rebought,
    RebuyOffered,
    AddedOn,
    Eliminated,
    BountyPaid,
    PlayerMoved,
    TableBroken,
    FinalTableDrawn,
    ButtonDrawn,
    HandForHandStarted,
    HandForHandEnded,
    DisqualificationQueued,
    Disqualified,
    DealOffered,
    DealAccepted,
    DealDeclined,
    DealMade,
    Finished,
    PrizesAwarded,
    FlightStopped,
    FlightCarried,
    DayTwoReady,
    Cancelled,
    Refunded,
]

TOURNAMENT_EVENT_TYPES: dict[str, type[Any]] = registry(
    TournamentEvent,
    {
        "tournament.created": TournamentCreated,
        "tournament.guarantee_held": GuaranteeHeld,
        "tournament.guarantee_released": GuaranteeReleased,
        "tournament.registration_opened": RegistrationOpened,
        "tournament.player_registered": Registered,
        "tournament.player_unregistered": Unregistered,
        "tournament.started": Started,
        "tournament.player_seated": Seated,
        "tournament.level_changed": LevelChanged,
        "tournament.break_started": BreakStarted,
        "tournament.paused": Paused,
        "tournament.resumed": Resumed,
        "tournament.time_added": TimeAdded,
        "tournament.hand_started": HandStarted,
        "tournament.hand_finished": HandFinished,
        "tournament.player_rebought": Rebought,
        "tournament.rebuy_offered": RebuyOffered,
        "tournament.player_added_on": AddedOn,
        "tournament.player_eliminated": Eliminated,
        "tournament.bounty_paid": BountyPaid,
        "tournament.player_moved": PlayerMoved,
        "tournament.table_broken": TableBroken,
        "tournament.final_table_drawn": FinalTableDrawn,
        "tournament.button_drawn": ButtonDrawn,
        "tournament.hand_for_hand_started": HandForHandStarted,
        "tournament.hand_for_hand_ended": HandForHandEnded,
        "tournament.disqualification_queued": DisqualificationQueued,
        "tournament.player_disqualified": Disqualified,
        "tournament.deal_offered": DealOffered,
        "tournament.deal_accepted": DealAccepted,
        "tournament.deal_declined": DealDeclined,
        "tournament.deal_made": DealMade,
        "tournament.finished": Finished,
        "tournament.prizes_awarded": PrizesAwarded,
        "tournament.flight_stopped": FlightStopped,
        "tournament.flight_carried": FlightCarried,
        "tournament.day_two_ready": DayTwoReady,
        "tournament.cancelled": Cancelled,
        "tournament.refunded": Refunded,
    },
)
"""Every tournament event by its stored name (``Event.type``):
``tournament.<fact>``, fixed once written, whatever the class is called."""
