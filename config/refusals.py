"""The rules' refusals in the reader's language: one message per code.

The engine (``poker.engine``) and the tournament rules (``tournaments.rules``)
are plain Python without Django: they refuse with a typed error whose
``code`` is stable and whose own words are English, for logs and scripts.
A person reads the message this module gives for the code instead, marked
for gettext, so the REST refusal and the WebSocket error frame come in the
request's or the socket's language (``tests/config/test_refusal_messages.py``
fails on a code without a German message).

An error that names a player (``EngineError.players``, their screen names
at the boundary) gets the ``NAMING`` message of its code where there is
one, with ``%(player)s`` for the first player it names.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.utils.functional import lazy
from django.utils.translation import gettext_lazy as _

from poker.engine.errors import EngineError, ErrorCode
from tournaments.rules.errors import TournamentError, TournamentErrorCode

ENGINE: dict[ErrorCode, Any] = {
    ErrorCode.OUT_OF_TURN: _("It is not your turn."),
    ErrorCode.ILLEGAL_ACTION: _("That is not allowed now."),
    ErrorCode.BAD_AMOUNT: _("That amount is not allowed here."),
    ErrorCode.BAD_CARDS: _("Those cards cannot be discarded."),
    ErrorCode.MALFORMED: _("The command does not make sense."),
    ErrorCode.SEAT_TAKEN: _("That seat is taken, or you sit at this table already."),
    ErrorCode.NOT_SEATED: _("Nobody sits in that seat."),
    ErrorCode.TABLE_CLOSED: _("The table is closed or closing."),
    ErrorCode.BET_WINDOW_CLOSED: _(
        "A bet or raise is only allowed in the first seconds of the clock; now only "
        "check, call or fold."
    ),
}
"""The hand's, the cash table's and the casino's refusals, by code."""

NAMING: dict[ErrorCode, Any] = {
    ErrorCode.OUT_OF_TURN: _("It is %(player)s's turn, not yours."),
    ErrorCode.ILLEGAL_ACTION: _("%(player)s may not do that now."),
    ErrorCode.BAD_AMOUNT: _("%(player)s has not that much time in the time bank."),
    ErrorCode.SEAT_TAKEN: _("%(player)s already sits at this table."),
}
"""The engine's refusals that name a player, by code."""

TOURNAMENT: dict[TournamentErrorCode, Any] = {
    TournamentErrorCode.INVALID_DEFINITION: _("The tournament's definition cannot run."),
    TournamentErrorCode.MALFORMED: _("The command does not make sense."),
    TournamentErrorCode.REGISTRATION_CLOSED: _("Registration is not open."),
    TournamentErrorCode.TOURNAMENT_FULL: _("The tournament is full."),
    TournamentErrorCode.ALREADY_REGISTERED: _(
        "You are registered already (a re-entry only after busting, while any are left)."
    ),
    TournamentErrorCode.NOT_REGISTERED: _("You are not (or no longer) in this tournament."),
    TournamentErrorCode.TOO_FEW_PLAYERS: _("Too few entries: the tournament cannot start."),
    TournamentErrorCode.REBUY_REFUSED: _(
        "No rebuy or add-on now: the window is closed, the stack too big, a hand is "
        "running or none is left."
    ),
    TournamentErrorCode.SEAT_TAKEN: _("That seat is taken."),
    TournamentErrorCode.ILLEGAL_ACTION: _("The tournament does not allow that now."),
    TournamentErrorCode.TOURNAMENT_OVER: _("The tournament is over."),
}
"""The tournament rules' refusals, by code."""


def _translated(text: Any, params: dict[str, Any]) -> str:
    said = str(text)  # a lazy message, in the language active now
    return said % params if params else said


_lazy_translated = lazy(_translated, str)


def engine_message(error: EngineError, name: Callable[[str], str]) -> Any:
    """The message a person reads for an engine refusal, translated when it
    is shown (lazily: a socket's frame in the socket's language); ``name``
    gives a player's screen name from his id."""
    naming = NAMING.get(error.code)
    if naming is not None and error.players:
        return _lazy_translated(naming, {"player": name(error.players[0])})
    return _lazy_translated(ENGINE[error.code], {})


def tournament_message(error: TournamentError) -> Any:
    """The message a person reads for a tournament rules refusal (lazily)."""
    return _lazy_translated(TOURNAMENT[error.code], {})
