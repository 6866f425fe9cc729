"""The rules' refusals in the reader's language: one message per code.

The engine (``poker.engine``) and the tournament rules (``tournaments.rules``)
are plain Python without Django: they refuse with a typed error whose
``code`` is stable and whose own words are English, for logs and scripts.
The messages are keyed by the codes' values, so this module (below every
app) imports neither.
A person reads the message this module gives for the code instead, marked
for gettext, so the REST refusal and the WebSocket error frame come in the
request's or the socket's language (``tests/config/test_refusal_messages.py``
fails on a code without a German message).

An error that names a player (``EngineError.players``, their screen names
at the boundary) gets the ``NAMING`` message of its code where there is
one, with ``%(player)s`` for the first player it names.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from django.utils.functional import lazy
from django.utils.translation import gettext_lazy as _

ENGINE: dict[str, Any] = {
    "out_of_turn": _("It is not your turn."),
    "illegal_action": _("That is not allowed now."),
    "bad_amount": _("That amount is not allowed here."),
    "bad_cards": _("Those cards cannot be discarded."),
    "malformed": _("The command does not make sense."),
    "seat_taken": _("That seat is taken, or you sit at this table already."),
    "not_seated": _("Nobody sits in that seat."),
    "table_closed": _("The table is closed or closing."),
    "bet_window_closed": _(
        "A bet or raise is only allowed in the first seconds of the clock; now only "
        "check, call or fold."
    ),
}
"""The hand's, the cash table's and the casino's refusals, by code
(``poker.engine.errors.ErrorCode``)."""

NAMING: dict[str, Any] = {
    "out_of_turn": _("It is %(player)s's turn, not yours."),
    "illegal_action": _("%(player)s may not do that now."),
    "bad_amount": _("%(player)s has not that much time in the time bank."),
    "seat_taken": _("%(player)s already sits at this table."),
}
"""The engine's refusals that name a player, by code."""

TOURNAMENT: dict[str, Any] = {
    "invalid_definition": _("The tournament's definition cannot run."),
    "malformed": _("The command does not make sense."),
    "registration_closed": _("Registration is not open."),
    "tournament_full": _("The tournament is full."),
    "already_registered": _(
        "You are registered already (a re-entry only after busting, while any are left)."
    ),
    "not_registered": _("You are not (or no longer) in this tournament."),
    "too_few_players": _("Too few entries: the tournament cannot start."),
    "rebuy_refused": _(
        "No rebuy or add-on now: the window is closed, the stack too big, a hand is "
        "running or none is left."
    ),
    "seat_taken": _("That seat is taken."),
    "illegal_action": _("The tournament does not allow that now."),
    "tournament_over": _("The tournament is over."),
}
"""The tournament rules' refusals, by code
(``tournaments.rules.errors.TournamentErrorCode``)."""


def _translated(text: Any, params: dict[str, Any]) -> str:
    said = str(text)  # a lazy message, in the language active now
    return said % params if params else said


_lazy_translated = lazy(_translated, str)


def engine_message(code: str, players: Sequence[str], name: Callable[[str], str]) -> Any:
    """The message a person reads for an engine refusal of ``code`` naming
    ``players`` (ids), translated when it is shown (lazily: a socket's
    frame in the socket's language); ``name`` gives a screen name."""
    naming = NAMING.get(code)
    if naming is not None and players:
        return _lazy_translated(naming, {"player": name(players[0])})
    return _lazy_translated(ENGINE[code], {})


def tournament_message(code: str) -> Any:
    """The message a person reads for a tournament rules refusal (lazily)."""
    return _lazy_translated(TOURNAMENT[code], {})
