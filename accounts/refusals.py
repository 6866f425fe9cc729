"""The engine's refusals in the reader's language: one message per code.

The engine (``poker.engine``) is plain Python without Django: it refuses
with a typed error whose ``code`` is stable and whose own words are
English, for logs and scripts.  The messages are keyed by the codes'
values.  A person reads the message this module gives for the code
instead, marked for gettext, so the REST refusal and the WebSocket error
frame come in the request's or the socket's language
(``tests/config/test_refusal_messages.py`` fails on a code without a
German message).  The tournament rules' messages: ``tournaments.refusals``.

A refusal that knows its figures (``EngineError.values``: a raise's
bounds, a seat's number, ...) and the players it names
(``EngineError.players``, their screen names at the boundary,
``%(player)s`` for the first) gets the first of its code's ``SPECIFIC``
messages whose placeholders those fill, most specific first; one that
knows none of them gets its code's message.  The German of a message has
its placeholders, so the choice is the same in every language.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from django.utils.functional import lazy
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext_lazy

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

ENGINE_SPECIFIC: dict[str, tuple[Any, ...]] = {
    "out_of_turn": (_("It is %(player)s's turn, not yours."),),
    "illegal_action": (_("%(player)s may not do that now."),),
    "bad_amount": (
        _("Bet between %(min_bet_to)s and %(max_bet_to)s chips."),
        _("Raise to between %(min_raise_to)s and %(max_raise_to)s chips."),
        ngettext_lazy(
            "The only bet allowed is %(bet_to)s chip.",
            "The only bet allowed is %(bet_to)s chips.",
            "bet_to",
        ),
        ngettext_lazy(
            "The only raise allowed is to %(raise_to)s chip.",
            "The only raise allowed is to %(raise_to)s chips.",
            "raise_to",
        ),
        _("Buy in for %(min_buy_in)s to %(max_buy_in)s chips."),
        _("Buy in for at least %(min_buy_in)s chips."),
        ngettext_lazy(
            "A stack holds at most %(max_stack)s chips: top up by at most %(max_top_up)s chip.",
            "A stack holds at most %(max_stack)s chips: top up by at most %(max_top_up)s chips.",
            "max_top_up",
        ),
        ngettext_lazy(
            "%(player)s has %(time_bank)s second left in the time bank.",
            "%(player)s has %(time_bank)s seconds left in the time bank.",
            "time_bank",
        ),
        _("Bet %(min_bet)s to %(max_bet)s chips."),
    ),
    "bad_cards": (
        ngettext_lazy(
            "Discard at most %(max_discard)s card.",
            "Discard at most %(max_discard)s cards.",
            "max_discard",
        ),
        ngettext_lazy(
            "Exchange exactly %(max_exchange)s card.",
            "Exchange 1 to %(max_exchange)s cards.",
            "max_exchange",
        ),
    ),
    "seat_taken": (
        _("%(player)s already sits at this table."),
        _("Seat %(seat)s is taken."),
        _("Box %(box)s is taken."),
    ),
    "not_seated": (
        _("Nobody sits in seat %(seat)s."),
        _("Nobody sits in box %(box)s."),
    ),
}
"""The engine's refusals worded with their figures and the players they
name, by code, most specific first."""


def _first_filled(messages: tuple[Any, ...], params: dict[str, Any]) -> str:
    """The first of ``messages`` (lazy, read in the language active now)
    whose placeholders ``params`` fill."""
    for message in messages[:-1]:
        try:
            return str(message % params)
        except KeyError:  # a placeholder this refusal has no figure for
            continue
    return str(messages[-1] % params)


first_filled = lazy(_first_filled, str)
"""``_first_filled`` read when shown, in the language active then."""


def engine_message(
    code: str, players: Sequence[str], values: Mapping[str, int], name: Callable[[str], str]
) -> Any:
    """The message a person reads for an engine refusal of ``code`` naming
    ``players`` (ids) with ``values``, translated when it is shown (lazily:
    a socket's frame in the socket's language); ``name`` gives a screen name."""
    params: dict[str, Any] = dict(values)
    if players:
        params["player"] = name(players[0])
    return first_filled((*ENGINE_SPECIFIC.get(code, ()), ENGINE[code]), params)
