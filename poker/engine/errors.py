"""Typed refusals: every illegal command raises one of these and changes nothing."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from enum import StrEnum, unique


@unique
class ErrorCode(StrEnum):
    """Machine-readable reasons for a refusal, shared by the API and scripts."""

    OUT_OF_TURN = "out_of_turn"
    """Someone else must act first."""
    ILLEGAL_ACTION = "illegal_action"
    """The action is not allowed now (or the hand is over)."""
    BAD_AMOUNT = "bad_amount"
    """A bet or raise outside the allowed bounds (``values``: ``min_bet_to``
    and ``max_bet_to``, ``min_raise_to`` and ``max_raise_to``, or ``bet_to``
    or ``raise_to`` when one amount is allowed; a buy-in's ``min_buy_in``
    and ``max_buy_in``; a top-up's ``max_stack`` and ``max_top_up``; the
    ``time_bank`` left; a casino bet's ``min_bet`` and ``max_bet``)."""
    BAD_CARDS = "bad_cards"
    """A discard naming cards the player does not hold, or too many
    (``values``: ``max_discard``, a casino hand's ``max_exchange``)."""
    MALFORMED = "malformed"
    """The command or hand set-up itself is invalid."""
    SEAT_TAKEN = "seat_taken"
    """Cash table: the seat is occupied, or the player already sits at the
    table (``values``: the ``seat``, a casino table's ``box``)."""
    NOT_SEATED = "not_seated"
    """Cash table: nobody sits in the seat the command names (``values``:
    the ``seat``, a casino table's ``box``)."""
    TABLE_CLOSED = "table_closed"
    """Cash table: the table is closed and takes no more commands."""
    BET_WINDOW_CLOSED = "bet_window_closed"
    """32 Card Draw: the bet window of the action clock has passed; only
    check, call or fold now."""


class EngineError(Exception):
    """A refused command: ``code`` for machines, ``message`` for people.

    Messages never name a card the reader may not see.  A message that
    names players says ``{0}``, ``{1}``, ... and gives their ids in
    ``players``: ``message`` has the ids (the engine knows no other name),
    ``named`` the names a service shows people (screen names, not ids).
    ``values`` are the figures the refusal turns on (a raise's bounds, a
    seat's number, ...), by the names its code's docstring gives, so a
    service can word the refusal in another language with them.
    """

    code: ErrorCode = ErrorCode.ILLEGAL_ACTION

    def __init__(
        self,
        message: str,
        *,
        players: Sequence[str] = (),
        values: Mapping[str, int] | None = None,
    ) -> None:
        self.template = message
        self.players = tuple(players)
        self.values: Mapping[str, int] = dict(values or {})
        self.message = self.named(str)
        super().__init__(self.message)

    def named(self, name: Callable[[str], str]) -> str:
        """The message with each player named by ``name(player id)``."""
        if not self.players:
            return self.template
        return self.template.format(*(name(p) for p in self.players))

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.code.value}: {self.message})"


class OutOfTurn(EngineError):
    """Another player is to act."""

    code = ErrorCode.OUT_OF_TURN


class IllegalAction(EngineError):
    """Not an action this player may take now."""

    code = ErrorCode.ILLEGAL_ACTION


class BadAmount(EngineError):
    """An amount outside the legal bounds."""

    code = ErrorCode.BAD_AMOUNT


class BadCards(EngineError):
    """Cards that cannot be discarded."""

    code = ErrorCode.BAD_CARDS


class Malformed(EngineError):
    """A command or set-up that does not make sense at all."""

    code = ErrorCode.MALFORMED


class SeatTaken(EngineError):
    """The seat is occupied, or the player already has a seat at the table."""

    code = ErrorCode.SEAT_TAKEN


class NotSeated(EngineError):
    """The command names an empty seat."""

    code = ErrorCode.NOT_SEATED


class ClosedTable(EngineError):
    """The table is closed."""

    code = ErrorCode.TABLE_CLOSED
