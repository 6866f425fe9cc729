"""Typed refusals of the tournament rules: each carries a code for machines
and a message for people, and a refused command changes nothing.

The codes are the tournament's own (``poker.engine.errors`` belongs to the
hand and the cash table); the API maps each to a status as it does the
engine's: ``invalid_definition`` and ``malformed`` are 400, the rest 409.
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum, unique


@unique
class TournamentErrorCode(StrEnum):
    """Machine-readable reasons for a refusal."""

    INVALID_DEFINITION = "invalid_definition"
    """A structure, payout table or definition that makes no sense (``field`` says where)."""
    MALFORMED = "malformed"
    """A command or event that makes no sense at all (wrong types, unknown table)."""
    REGISTRATION_CLOSED = "registration_closed"
    """Registration is not open (not yet, or late registration is over:
    ``values`` has the ``late_registration_level`` it ran through)."""
    TOURNAMENT_FULL = "tournament_full"
    """The maximum number of entries is reached (``values``: ``max_players``)."""
    ALREADY_REGISTERED = "already_registered"
    """The player has a live entry (re-entry only after busting), or no
    re-entry left (``values``: ``re_entries``, the number allowed)."""
    NOT_REGISTERED = "not_registered"
    """The player has no entry, or none that is still in."""
    TOO_FEW_PLAYERS = "too_few_players"
    """Fewer entries than the minimum: the tournament cannot start
    (``values``: ``entries`` and ``min_players``)."""
    REBUY_REFUSED = "rebuy_refused"
    """No rebuy or add-on now: window closed, stack too big (``values``:
    ``rebuy_threshold``), in a hand, none left."""
    SEAT_TAKEN = "seat_taken"
    """A move to an occupied seat (``values``: ``table`` and ``seat``)."""
    ILLEGAL_ACTION = "illegal_action"
    """Not allowed in the tournament's present state (on a break, hand running, ...)."""
    TOURNAMENT_OVER = "tournament_over"
    """The tournament is finished or cancelled and takes no more commands."""


class TournamentError(Exception):
    """A refused command: ``code`` for machines, ``message`` for people.

    ``values`` are the figures the refusal turns on (the field's size, the
    re-entries allowed, ...), by the names its code's docstring gives, so a
    service can word the refusal in another language with them.
    """

    code: TournamentErrorCode = TournamentErrorCode.ILLEGAL_ACTION

    def __init__(self, message: str, *, values: Mapping[str, int] | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.values: Mapping[str, int] = dict(values or {})

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.code.value}: {self.message})"


class InvalidDefinition(TournamentError):
    """A definition that cannot run; ``field`` is the dotted path to the culprit
    (``structure.levels[2].big_blind``), for the API's ``fields``.

    ``reason`` is what is wrong with the field, in English (for logs and
    ``detail``); ``key`` names that reason stably (``blinds_ascending``,
    ``whole_number_range``) and ``values`` carries its figures (``low``,
    ``high``, ...), so a service can word the reason in another language.
    """

    code = TournamentErrorCode.INVALID_DEFINITION

    def __init__(
        self,
        field: str,
        message: str,
        *,
        key: str,
        values: Mapping[str, int] | None = None,
    ) -> None:
        super().__init__(f"{field}: {message}", values=values)
        self.field = field
        self.reason = message
        self.key = key

    def within(self, parent: str) -> InvalidDefinition:
        """The same error with its field nested under ``parent``."""
        return InvalidDefinition(
            f"{parent}.{self.field}", self.reason, key=self.key, values=self.values
        )


class Malformed(TournamentError):
    """A command or event that does not make sense at all."""

    code = TournamentErrorCode.MALFORMED


class RegistrationClosed(TournamentError):
    """Registration is not open."""

    code = TournamentErrorCode.REGISTRATION_CLOSED


class TournamentFull(TournamentError):
    """No more entries."""

    code = TournamentErrorCode.TOURNAMENT_FULL


class AlreadyRegistered(TournamentError):
    """The player is already in."""

    code = TournamentErrorCode.ALREADY_REGISTERED


class NotRegistered(TournamentError):
    """The player is not (or no longer) in."""

    code = TournamentErrorCode.NOT_REGISTERED


class TooFewPlayers(TournamentError):
    """Below the minimum number of entries."""

    code = TournamentErrorCode.TOO_FEW_PLAYERS


class RebuyRefused(TournamentError):
    """No rebuy or add-on for this player now."""

    code = TournamentErrorCode.REBUY_REFUSED


class SeatTaken(TournamentError):
    """The seat is occupied."""

    code = TournamentErrorCode.SEAT_TAKEN


class IllegalAction(TournamentError):
    """Not allowed now."""

    code = TournamentErrorCode.ILLEGAL_ACTION


class TournamentOver(TournamentError):
    """Finished or cancelled."""

    code = TournamentErrorCode.TOURNAMENT_OVER
