"""The tournament rules' refusals in the reader's language: one message
per code, and what is wrong with a refused definition's field.

The rules (``tournaments.rules``) are plain Python without Django: they
refuse with a typed error whose ``code`` is stable and whose words are
English.  A person reads this module's message for the code, marked for
gettext, chosen as ``accounts.refusals`` chooses the engine's (the first
of its code's ``SPECIFIC`` messages whose placeholders the refusal's
``values`` fill, else its code's message).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.functional import lazy
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext_lazy

from accounts.refusals import first_filled

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

TOURNAMENT_SPECIFIC: dict[str, tuple[Any, ...]] = {
    "registration_closed": (
        _("Late registration ran through level %(late_registration_level)s and is over."),
    ),
    "tournament_full": (_("The tournament is full: %(max_players)s entries."),),
    "already_registered": (
        ngettext_lazy(
            "You have no re-entry left: the tournament allows %(re_entries)s re-entry.",
            "You have no re-entry left: the tournament allows %(re_entries)s re-entries.",
            "re_entries",
        ),
    ),
    "too_few_players": (
        _("Too few entries to start: %(entries)s, at least %(min_players)s needed."),
    ),
    "rebuy_refused": (_("A rebuy needs a stack of at most %(rebuy_threshold)s chips."),),
    "seat_taken": (_("Seat %(seat)s at table %(table)s is taken."),),
}
"""The tournament rules' refusals worded with their figures, by code, most
specific first."""


DEFINITION_REASONS: dict[str, Any] = {
    "whole_number_at_least": _("a whole number at least %(low)s"),
    "whole_number_range": _("a whole number from %(low)s to %(high)s"),
    "true_or_false": _("true or false"),
    "reference_length": _("a reference of 1 to %(max_length)s characters"),
    "add_on_needs_chips": _("an add-on price needs add-on chips"),
    "consolation_tickets": _("at most %(max_tickets)s consolation tickets"),
    "not_game": _("not a game"),
    "not_betting": _("not a betting structure"),
    "not_structure": _("not a structure"),
    "ante_by_choice": _("all or big-blind"),
    "tie_break_choice": _("suit or split"),
    "re_entry_needs_late_registration": _("re-entry needs late registration"),
    "heads_up_two_players": _("tables of two seat at most two players"),
    "not_rebuys": _("not a rebuy setting"),
    "not_satellite": _("not a satellite"),
    "satellite_pays_seats": _("a satellite pays seats, not a table"),
    "not_payout_table": _("not a payout table"),
    "not_clocks": _("not a clock setting"),
    "not_bounty": _("not a bounty"),
    "not_flight": _("not a flight"),
    "flight_plain": _("a multi-flight event has no satellite, bounty, guarantee or sit-and-go"),
    "day_two_no_entries": _("Day 2 takes no entries, rebuys or add-ons"),
    "payout_places": _("at least one place"),
    "shares_positive": _("positive basis points"),
    "shares_sum": _("basis points adding up to %(basis)s"),
    "shares_descending": _("a place never pays more than the one above it"),
    "places_below_field": _("fewer places paid than players in the smallest field of the tier"),
    "payout_tiers": _("at least one tier"),
    "not_payout_tier": _("not a payout tier"),
    "first_tier_at_two": _("the first tier starts at 2"),
    "tiers_ascending": _("tiers in increasing field size"),
    "big_blind_twice_small": _("the big blind is twice the small blind"),
    "levels_count": _("a structure has 1 to %(max_levels)s levels"),
    "not_blind_level": _("not a blind level"),
    "blinds_ascending": _("blinds never go down"),
    "breaks_list": _("a list of breaks"),
    "not_break": _("not a break"),
    "breaks_order": _(
        "breaks follow levels in increasing order, at most one after each level and "
        "none after the last"
    ),
    "steps_count": _("from 1 to %(max_steps)s steps"),
    "consolation_per_step": _("at most one list per step"),
    "consolation_list": _("a list of steps"),
    "carry_choice": _("best or latest"),
    "not_flight_rules": _("not flight rules"),
    "table_two_seats": _("at least two seats"),
    "flights_stopped": _("every flight stopped at a level"),
}
"""What is wrong with a refused definition's field (``InvalidDefinition.key``,
its figures in ``values``), for the API's ``fields``; a key missing here
keeps the rules' English reason (``tests/config/test_refusal_messages.py``
fails on a key the rules use without a message)."""


def tournament_message(code: str, values: Mapping[str, int]) -> Any:
    """The message a person reads for a tournament rules refusal with
    ``values`` (lazily)."""
    return first_filled((*TOURNAMENT_SPECIFIC.get(code, ()), TOURNAMENT[code]), dict(values))


def _worded(message: Any, params: dict[str, Any], english: str) -> str:
    """``message`` (lazy) with ``params``; ``english`` if they do not fill it."""
    try:
        return str(message % params)
    except (KeyError, TypeError, ValueError):
        return english


_lazy_worded = lazy(_worded, str)


def definition_reason(key: str, values: Mapping[str, int], english: str) -> Any:
    """What is wrong with a refused definition's field, in the reader's
    language (lazily): the reason ``key``'s message with ``values``, or the
    rules' ``english`` for a key without one."""
    message = DEFINITION_REASONS.get(key)
    if message is None:
        return english
    return _lazy_worded(message, dict(values), english)
