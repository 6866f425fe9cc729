"""Commands: what players, staff and the service's clocks ask of a tournament.

``decide`` answers each with events or refuses it with a ``TournamentError``.
Times (``at``) are Unix seconds from the service's clock.  ``seed`` is fresh
randomness from the service (``secrets.randbits(64)``) for commands that may
draw seats (the start, a newcomer, a table breaking, the final table); the
draw is recorded in the events, never the seed, so nobody can work out
future draws from the stream.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from tournaments.rules.flights import Bag


@dataclass(frozen=True, slots=True)
class OpenRegistration:
    """Open registration (the service, on schedule)."""


@dataclass(frozen=True, slots=True)
class Register:
    """``player`` buys an entry (or re-enters); a sit-and-go that fills
    starts at ``at``, a late entry draws a seat."""

    player: str
    at: int
    seed: int


@dataclass(frozen=True, slots=True)
class Unregister:
    """``player`` withdraws before the start, refunded."""

    player: str


@dataclass(frozen=True, slots=True)
class Start:
    """Start play at ``at`` (the scheduled start): seats are drawn."""

    at: int
    seed: int


@dataclass(frozen=True, slots=True)
class Tick:
    """The clock at ``at``: move to the level or break it has reached."""

    at: int
    seed: int


@dataclass(frozen=True, slots=True)
class Pause:
    """Staff stop the clock."""

    at: int


@dataclass(frozen=True, slots=True)
class Resume:
    """Staff restart the clock."""

    at: int


@dataclass(frozen=True, slots=True)
class AddTime:
    """Staff lengthen the current level or break by ``seconds``."""

    seconds: int


@dataclass(frozen=True, slots=True)
class StartHand:
    """A hand is dealt at ``table`` to everyone there with chips, or to
    ``seats`` (the seats the table's plan dealt in: it leaves out a player
    who arrived between the button and the small blind); ``big_blind`` and
    ``over_blind`` are the seats the table's plan puts those blinds on
    (None: none, or not known)."""

    table: int
    big_blind: int | None = None
    over_blind: int | None = None
    seats: tuple[int, ...] | None = None


@dataclass(frozen=True, slots=True)
class PotResult:
    """One pot of a hand: the players who contested it and the chips each
    winner took from it."""

    eligible: tuple[str, ...]
    shares: Mapping[str, int]


@dataclass(frozen=True, slots=True)
class FinishHand:
    """The hand at ``table`` is over: ``stacks`` maps every player dealt in
    to his chips after it; ``at``: when (None: no rebuy clock starts);
    ``pots``: how its pots went (who busted whom, for bounties; none given:
    by the chips each player won in the hand)."""

    table: int
    stacks: Mapping[str, int]
    seed: int
    at: int | None = None
    pots: tuple[PotResult, ...] = ()


@dataclass(frozen=True, slots=True)
class Rebuy:
    """``player`` rebuys."""

    player: str


@dataclass(frozen=True, slots=True)
class AddOn:
    """``player`` takes the add-on."""

    player: str


@dataclass(frozen=True, slots=True)
class DeclineRebuy:
    """``player``, out of chips, will not rebuy (or let his time run out): he is out."""

    player: str
    seed: int


@dataclass(frozen=True, slots=True)
class RebuyTimeout:
    """The clock of ``player``'s rebuy decision ran out at ``at``: he is
    out as if he declined."""

    player: str
    at: int
    seed: int


@dataclass(frozen=True, slots=True)
class MovePlayer:
    """Staff move ``player`` to an empty ``seat`` at ``table``."""

    player: str
    table: int
    seat: int


@dataclass(frozen=True, slots=True)
class Disqualify:
    """Staff disqualify ``player``."""

    player: str
    seed: int


@dataclass(frozen=True, slots=True)
class ProposeDeal:
    """A director offers a deal at the final table at ``at``: ``kind`` is
    icm, chip_chop or custom (``amounts`` by player), ``left_to_play`` the
    money kept out of it for the winner."""

    kind: str
    at: int
    left_to_play: int = 0
    amounts: Mapping[str, int] | None = None


@dataclass(frozen=True, slots=True)
class AcceptDeal:
    """``player`` accepts the deal offered (at ``at``)."""

    player: str
    at: int


@dataclass(frozen=True, slots=True)
class DeclineDeal:
    """``player`` declines the deal offered (at ``at``): it is withdrawn."""

    player: str
    at: int


@dataclass(frozen=True, slots=True)
class CarryFlight:
    """Day 2 takes in flight ``flight`` (tournament ``source``) at ``at``:
    the ``bags`` and ``pool`` it stopped with and the ``level`` it stopped
    at (0, no bags, no pool: it was called off).  The last flight carried
    makes Day 2 ready, and starts it if its start has come."""

    flight: int
    source: str
    pool: int
    level: int
    bags: tuple[Bag, ...]
    at: int
    seed: int


@dataclass(frozen=True, slots=True)
class Cancel:
    """Call the tournament off and refund (staff, or too few players)."""

    reason: str = ""


@dataclass(frozen=True, slots=True)
class AwardPrizes:
    """Pay the finished tournament; ``in_target`` are the winners already
    registered for a satellite's target (they get cash instead of a seat)."""

    in_target: frozenset[str] = field(default=frozenset())


TournamentCommand = (
    OpenRegistration
    | Register
    | Unregister
    | Start
    | Tick
    | Pause
    | Resume
    | AddTime
    | StartHand
    | FinishHand
    | Rebuy
    | AddOn
    | DeclineRebuy
    | RebuyTimeout
    | MovePlayer
    | Disqualify
    | ProposeDeal
    | AcceptDeal
    | DeclineDeal
    | CarryFlight
    | Cancel
    | AwardPrizes
)
