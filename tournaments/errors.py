"""Why the tournament service refuses: typed API errors with stable codes.

The rules' refusals keep their own codes (``TournamentErrorCode``):
``invalid_definition`` and ``malformed`` are 400, the rest 409, as the
rules' module says.  The service adds its own below.
"""

from __future__ import annotations

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from kernel.api_errors import ApiError
from tournaments.refusals import definition_reason, tournament_message
from tournaments.rules import InvalidDefinition, TournamentError, TournamentErrorCode

_BAD_REQUEST = frozenset({TournamentErrorCode.INVALID_DEFINITION, TournamentErrorCode.MALFORMED})


class NotFound(ApiError):
    status = 404
    code = "not_found"
    message = _("No such tournament.")


class Forbidden(ApiError):
    status = 403
    code = "forbidden"
    message = _("Only tournament directors may do that.")


class NotAuthenticated(ApiError):
    status = 401
    code = "not_authenticated"
    message = _("Log in to play.")


class Busy(ApiError):
    status = 409
    code = "conflict"
    message = _("Another command changed the tournament at the same moment; try again.")


class NoTicket(ApiError):
    status = 409
    code = "no_ticket"
    message = _("You hold no ticket for this tournament.")


class BadTarget(ApiError):
    status = 400
    code = "invalid"
    message = _("A satellite's target is a tournament that still takes entries.")


class TicketExpired(ApiError):
    status = 409
    code = "ticket_expired"
    message = _("Your tickets into this step have expired.")


class StepChainOpen(ApiError):
    status = 409
    code = "step_chain_open"
    message = _("A step chain's tickets are cashed out once they have expired, not before.")


class ClockMoved(ApiError):
    """A timer's clock is no longer where it was set: nothing to do."""

    status = 409
    code = "clock_moved"
    message = _("The tournament's clock has moved on since this timer was set.")


def invalid(field: str, message: str | Promise, reason: str | Promise | None = None) -> ApiError:
    """A 400 ``invalid`` naming ``field`` as any invalid input does, with
    what is wrong with it (``reason``; by default the ``message``)."""
    wrong = message if reason is None else reason
    return ApiError(message, code="invalid", extra={"fields": {field: [wrong]}})


def refusal(error: TournamentError) -> ApiError:
    """A rules refusal as an API error with the same code: ``message`` in
    the reader's language (``tournaments.refusals``), ``detail`` the rules' own
    words (English, for logs and scripts), ``values`` the figures the
    message names (for a client's own wording); a bad definition also names the
    culprit under ``fields``, like any invalid input, with what is wrong
    with it in the reader's language too (``DEFINITION_REASONS``)."""
    status = 400 if error.code in _BAD_REQUEST else 409
    extra: dict[str, object] = {"detail": error.message}
    if error.values:
        extra["values"] = dict(error.values)
    if isinstance(error, InvalidDefinition):
        extra["fields"] = {error.field: [definition_reason(error.key, error.values, error.reason)]}
    return ApiError(
        tournament_message(error.code.value, error.values),
        code=error.code.value,
        status=status,
        extra=extra,
    )
